import CSQLite
import Synchronization

/// One connection to a SQLite database file. A connection serves one thread at a time: every use
/// goes through `access(_:)`, which holds the connection's mutex while the body runs, so the
/// connection can be shared between threads and tasks.
public final class SQLiteConnection: Sendable {
    /// Held while the handle is in use.
    private let lock = Mutex(())
    /// The raw handle, owned by this connection; only used while `lock` is held (or in `deinit`).
    nonisolated(unsafe) private let handle: OpaquePointer
    /// The path the connection was opened with.
    public let path: String
    /// The options it was opened with.
    public let options: SQLiteConnectionOptions

    /// Opens (or creates) the database at `path` and applies `options`: journal mode, busy
    /// timeout, `synchronous` and foreign keys.
    public init(path: String, options: SQLiteConnectionOptions = SQLiteConnectionOptions()) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        if options.readOnly {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if options.create { flags |= SQLITE_OPEN_CREATE }
        }
        var handle: OpaquePointer?
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let error = SQLiteError(result: result, handle: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        let database = SQLiteDatabase(handle: handle)
        do throws(SQLiteError) {
            try database.setBusyTimeout(milliseconds: options.busyTimeoutMilliseconds)
            if options.writeAheadLog && !options.readOnly {
                // Switching to WAL needs a moment of exclusive access; retry while another process holds it.
                try database.retryingWhileBusy(timeoutMilliseconds: options.busyTimeoutMilliseconds) { () throws(SQLiteError) in
                    _ = try database.scalarText("PRAGMA journal_mode=WAL")
                }
            }
            try database.execute("PRAGMA synchronous=\(options.synchronous.rawValue)")
            try database.execute("PRAGMA foreign_keys=\(options.foreignKeys ? "ON" : "OFF")")
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        self.options = options
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `body` with exclusive use of the connection and returns what it returns. Statements
    /// prepared in `body` must not outlive it.
    public func access<Value, Failure: Error>(
        _ body: (SQLiteDatabase) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        var outcome: Result<Value, Failure>?
        lock.withLock { _ in
            let database = SQLiteDatabase(handle: handle)
            do throws(Failure) {
                outcome = .success(try body(database))
            } catch {
                outcome = .failure(error)
            }
        }
        switch outcome! {
        case let .success(value): return value
        case let .failure(error): throw error
        }
    }
}
