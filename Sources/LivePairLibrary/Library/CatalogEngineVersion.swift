import LivePairSQLite

/// The catalog engine's version, for diagnostics.
public var catalogEngineVersion: String { "SQLite \(sqliteLibraryVersion)" }
