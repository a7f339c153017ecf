import CSQLite

/// The SQLite library version this build links.
public var sqliteLibraryVersion: String { String(cString: sqlite3_libversion()) }
