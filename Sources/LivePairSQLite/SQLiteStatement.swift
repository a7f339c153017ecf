import CSQLite

/// A prepared statement: bind parameters, step through rows, read columns, reset to run again.
/// Finalized when released. Belongs to the connection's current `access` body.
public final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: OpaquePointer
    /// The SQL text.
    public let sql: String

    init(statement: OpaquePointer, database: OpaquePointer, sql: String) {
        self.statement = statement
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(statement) }

    private func check(_ result: Int32) throws(SQLiteError) {
        guard result == SQLITE_OK else { throw SQLiteError(result: result, handle: database, sql: sql) }
    }

    /// Binds an integer to parameter `index` (1-based).
    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(statement, index, value))
    }

    /// Binds a double to parameter `index`.
    public func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(statement, index, value))
    }

    /// Binds text to parameter `index` (copied; embedded NUL characters are kept).
    public func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        let bytes = Array(value.utf8)
        let result = bytes.withUnsafeBytes { buffer in
            sqlite3_bind_text(
                statement, index, (buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self),
                Int32(buffer.count), livepair_sqlite_transient())
        }
        try check(result)
    }

    /// Binds bytes to parameter `index` (copied).
    public func bind(blob value: [UInt8], at index: Int32) throws(SQLiteError) {
        let result = value.withUnsafeBytes { buffer in
            sqlite3_bind_blob(
                statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                livepair_sqlite_transient())
        }
        try check(result)
    }

    /// Binds NULL to parameter `index`.
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(statement, index))
    }

    /// Binds `value` to parameter `index`.
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(at: index)
        case let .integer(integer): try bind(integer, at: index)
        case let .real(real): try bind(real, at: index)
        case let .text(text): try bind(text, at: index)
        case let .blob(blob): try bind(blob: blob, at: index)
        }
    }

    /// Binds `values` to parameters 1, 2, ...
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    /// Advances to the next row: true when a row is available, false when the statement is done.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let result = sqlite3_step(statement)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(result: result, handle: database, sql: sql)
        }
    }

    /// Resets the statement to run again; bindings are kept unless `clearingBindings`.
    public func reset(clearingBindings: Bool = false) {
        sqlite3_reset(statement)
        if clearingBindings { sqlite3_clear_bindings(statement) }
    }

    /// The number of columns in a result row.
    public var columnCount: Int32 { sqlite3_column_count(statement) }

    /// True when column `index` (0-based) of the current row is NULL.
    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

    /// Column `index` as an integer (0 for NULL).
    public func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

    /// Column `index` as a double (0 for NULL).
    public func double(_ index: Int32) -> Double { sqlite3_column_double(statement, index) }

    /// Column `index` as text ("" for NULL); embedded NUL characters are kept.
    public func string(_ index: Int32) -> String {
        guard let text = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes (empty for NULL).
    public func blob(_ index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, index))
        guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Column `index` as an integer, or nil for NULL.
    public func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }
    /// Column `index` as a double, or nil for NULL.
    public func optionalDouble(_ index: Int32) -> Double? { isNull(index) ? nil : double(index) }
    /// Column `index` as text, or nil for NULL.
    public func optionalString(_ index: Int32) -> String? { isNull(index) ? nil : string(index) }

    /// Column `index` as a value of its storage class.
    public func value(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(int64(index))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_TEXT: return .text(string(index))
        case SQLITE_BLOB: return .blob(blob(index))
        default: return .null
        }
    }
}

@available(*, unavailable, message: "a statement belongs to its connection's current user")
extension SQLiteStatement: Sendable {}
