import CSQLite

/// A failure reported by SQLite: the (extended) result code, SQLite's message, and the statement
/// that failed when there was one.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, ...).
    public let code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, ...), or `code` when none.
    public let extendedCode: Int32
    /// SQLite's explanation.
    public let message: String
    /// The SQL text being prepared or run, when known.
    public let sql: String?

    /// An error with the given codes and message.
    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    /// The error SQLite last recorded on `handle` for result `result`.
    init(result: Int32, handle: OpaquePointer?, sql: String? = nil) {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(result))
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? result
        self.init(code: result & 0xFF, extendedCode: extended, message: message, sql: sql)
    }

    /// True when the database was locked by another connection (`SQLITE_BUSY` or `SQLITE_LOCKED`).
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    /// True for a constraint violation (unique, foreign key, check, not null).
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    /// The code, message and statement, for logs.
    public var description: String {
        "SQLite error \(extendedCode): \(message)" + (sql.map { " (in: \($0))" } ?? "")
    }
}
