import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The connection while it is locked for one caller (inside `SQLiteConnection.access`): runs SQL,
/// prepares statements and manages transactions. Do not keep it beyond the `access` body.
public struct SQLiteDatabase {
    let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }

    /// Runs one or more statements that return no rows (schema, pragmas).
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &message)
        guard result == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(result))
            sqlite3_free(message)
            throw SQLiteError(code: result & 0xFF, extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Runs one statement with `parameters` bound in order (`?1`, `?2`, ...), stepping it to the end.
    public func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        while try statement.step() {}
    }

    /// Prepares `sql`. The statement is finalized when released.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard result == SQLITE_OK, let statement else {
            throw SQLiteError(result: result, handle: handle, sql: sql)
        }
        return SQLiteStatement(statement: statement, database: handle, sql: sql)
    }

    /// The first column of the first row of `sql` as an integer, or nil without rows or for NULL.
    public func scalarInteger(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// The first column of the first row of `sql` as text, or nil without rows or for NULL.
    public func scalarText(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.string(0)
    }

    /// The row id of the last inserted row.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How many rows the last statement changed.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// True while a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Sets how long statements wait for another connection's lock.
    public func setBusyTimeout(milliseconds: Int32) throws(SQLiteError) {
        let result = sqlite3_busy_timeout(handle, milliseconds)
        guard result == SQLITE_OK else { throw SQLiteError(result: result, handle: handle) }
    }

    /// Runs `body`, retrying it while it fails with `SQLITE_BUSY`, for up to `timeoutMilliseconds`.
    public func retryingWhileBusy<Value>(
        timeoutMilliseconds: Int32, _ body: () throws(SQLiteError) -> Value
    ) throws(SQLiteError) -> Value {
        let deadline = monotonicMilliseconds() + Int64(timeoutMilliseconds)
        var pause: UInt32 = 1_000
        while true {
            do {
                return try body()
            } catch where error.isBusy && monotonicMilliseconds() < deadline {
                usleep(pause)
                pause = min(pause * 2, 50_000)
            }
        }
    }

    private func monotonicMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}

@available(*, unavailable, message: "a locked connection belongs to one thread")
extension SQLiteDatabase: Sendable {}
