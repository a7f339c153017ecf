import Foundation
import LivePairFormats
import LivePairSQLite

/// The default catalog: one SQLite database file in WAL mode, so readers never wait for the
/// writer and several processes can use the library at once. Writes go through one connection and
/// `BEGIN IMMEDIATE` (serialized across processes); reads through another, each in its own
/// read transaction (a consistent snapshot).
final class SQLiteCatalog: Catalog {
    private let writer: SQLiteConnection
    private let reader: SQLiteConnection
    private let busyTimeoutMilliseconds: Int32

    /// Opens the catalog at `path` as `opening` says: an existing one is checked first
    /// (`SQLiteCatalogHealth`: refused when missing, empty or foreign, nothing written) and migrated
    /// when the access is read-write; a new one is created with the library's identity. `library`
    /// names the library directory in errors. A path that is not UTF-8 opens as a `file:` URI.
    init(
        path: String, library: String, opening: CatalogOpening, durableCommits: Bool, busyTimeoutMilliseconds: Int32
    ) throws(LibraryError) {
        var newIdentity: String?
        switch opening {
        case .existing:
            try SQLiteCatalogHealth.check(path, library: library)
        case let .new(identity):
            guard !LibraryFileSystem.exists(path) else { throw .directoryNotEmpty(path: library) }
            newIdentity = identity
        }
        let path = Self.openablePath(path)
        let options = SQLiteConnectionOptions(
            create: newIdentity != nil, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
            synchronous: durableCommits ? .full : .normal)
        do throws(SQLiteError) {
            writer = try SQLiteConnection(path: path, options: options)
        } catch {
            throw .catalog(error)
        }
        if opening != .existing(.readOnly) {
            try writer.access { (database: SQLiteDatabase) throws(LibraryError) in
                try SQLiteCatalogSchema.migrate(database, identity: newIdentity, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            }
        }
        do throws(SQLiteError) {
            reader = try SQLiteConnection(path: path, options: options)
        } catch {
            throw .catalog(error)
        }
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    /// `path` as SQLite opens it: unchanged, or, when it holds bytes that are not UTF-8 (see
    /// `FileSystemPath`), a `file:` URI with every byte but unreserved ASCII percent-encoded.
    static func openablePath(_ path: String) -> String {
        guard FileSystemPath.needsConversion(path) else { return path }
        let hex = Array("0123456789ABCDEF")
        var uri = "file:"
        for byte in FileSystemPath.bytes(path) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                uri += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return uri
    }

    func read<Value>(_ body: (any CatalogReader) throws(LibraryError) -> Value) throws(LibraryError) -> Value {
        try reader.access { (database: SQLiteDatabase) throws(LibraryError) -> Value in
            do throws(SQLiteError) {
                try database.begin(.deferred)
            } catch {
                throw .catalog(error)
            }
            defer { database.rollback() }
            return try body(SQLiteCatalogSession(database: database))
        }
    }

    func write<Value>(
        _ body: (any CatalogWriter) throws(LibraryError) -> Value, beforeCommit: () throws(LibraryError) -> Void
    ) throws(LibraryError) -> Value {
        let timeout = busyTimeoutMilliseconds
        return try writer.access { (database: SQLiteDatabase) throws(LibraryError) -> Value in
            try Self.beginRetryingWhileBusy(database, timeoutMilliseconds: timeout)
            do throws(LibraryError) {
                let value = try body(SQLiteCatalogSession(database: database))
                try beforeCommit()
                do throws(SQLiteError) {
                    try database.commit(busyTimeoutMilliseconds: timeout)
                } catch {
                    throw .catalog(error)
                }
                return value
            } catch {
                database.rollback()
                throw error
            }
        }
    }

    func writeJobs<Value>(_ body: (any CatalogWriter) throws(LibraryError) -> Value) throws(LibraryError) -> Value {
        try write(body, beforeCommit: {})
    }

    /// How many more times `write` tries to take the write lock after a busy timeout ran out.
    static let busyRetries = 4

    /// `BEGIN IMMEDIATE`, waiting up to the busy timeout; when another writer still holds the lock
    /// after that, waits a little longer each time (50, 100, 200, 400 ms, with jitter) and tries
    /// again, `busyRetries` times, before the busy error is reported.
    private static func beginRetryingWhileBusy(_ database: SQLiteDatabase, timeoutMilliseconds: Int32) throws(LibraryError) {
        var retry = 0
        while true {
            do throws(SQLiteError) {
                try database.begin(.immediate, busyTimeoutMilliseconds: timeoutMilliseconds)
                return
            } catch {
                guard error.isBusy, retry < busyRetries else { throw .catalog(error) }
                let pause = UInt32(50_000 << retry) + UInt32.random(in: 0..<25_000)
                usleep(pause)
                retry += 1
            }
        }
    }
}
