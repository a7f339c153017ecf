import LivePairSQLite

/// Decides, before anything writes to it, whether an existing file is a LivePair SQLite catalog:
/// a missing file, a file of zero bytes or a database without tables, another file format, or a
/// database of another schema are refused with `LibraryError.notALibrary`. Nothing is changed:
/// the file's header is read, then a connection that does not switch the journal mode reads the
/// schema version and the table names.
enum SQLiteCatalogHealth {
    /// The tables every version of the schema has.
    static let requiredTables: Set<String> = ["assets", "resources", "collections", "collection_members", "change_log", "records"]
    /// `PRAGMA application_id` of a LivePair catalog (schema version 2 on): "LPLB".
    static let applicationID: Int64 = 0x4C50_4C42

    /// Throws unless `path` holds a LivePair catalog this build can read; `library` names the
    /// library directory in the error.
    static func check(_ path: String, library: String) throws(LibraryError) {
        let header: [UInt8]
        switch LibraryFileSystem.readPrefix(of: path, count: 100) {
        case .missing: throw .notALibrary(path: library, problem: .catalogMissing)
        case let .failed(reason): throw .io(path: path, reason: reason)
        case let .bytes(bytes): header = bytes
        }
        if header.isEmpty { throw .notALibrary(path: library, problem: .catalogEmpty) }
        guard header.count == 100, header.starts(with: Array("SQLite format 3\u{0}".utf8)) else {
            throw .notALibrary(path: library, problem: .catalogForeign("not a SQLite database"))
        }
        let version: Int
        let application: Int64
        let tables: Set<String>
        do throws(SQLiteError) {
            let probe = try SQLiteConnection(
                path: SQLiteCatalog.openablePath(path), options: SQLiteConnectionOptions(create: false, writeAheadLog: false, busyTimeoutMilliseconds: 10_000))
            (version, application, tables) = try probe.access { (database: SQLiteDatabase) throws(SQLiteError) in
                let version = Int(try database.scalarInteger("PRAGMA user_version") ?? 0)
                let application = try database.scalarInteger("PRAGMA application_id") ?? 0
                let statement = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
                var tables: Set<String> = []
                while try statement.step() { tables.insert(statement.string(0)) }
                return (version, application, tables)
            }
        } catch {
            throw .notALibrary(path: library, problem: .catalogForeign("\(error)"))
        }
        if version == 0 {
            throw .notALibrary(path: library, problem: tables.isEmpty ? .catalogEmpty : .catalogForeign("another schema"))
        }
        if version > SQLiteCatalogSchema.currentVersion {
            throw .catalogTooNew(found: version, supported: SQLiteCatalogSchema.currentVersion)
        }
        if version >= 2 && application != applicationID {
            throw .notALibrary(path: library, problem: .catalogForeign("application id \(application)"))
        }
        let missing = requiredTables.subtracting(tables)
        guard missing.isEmpty else {
            throw .notALibrary(path: library, problem: .catalogForeign("tables missing: " + missing.sorted().joined(separator: ", ")))
        }
    }
}
