/// A failure reported by libpq or the server, with the SQLSTATE kept so callers decide by code
/// (never by message) whether to retry.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Sendable, Equatable {
        /// The connection could not be opened, or was lost.
        case connection
        /// A statement failed on the server.
        case statement
        /// A result could not be read as the type asked for.
        case decoding
    }

    /// What failed.
    public let kind: Kind
    /// The five-character SQLSTATE (`40001`, `23505`, ...), when the server sent one.
    public let sqlState: String?
    /// The server's or libpq's message.
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?

    /// An error with these fields.
    public init(kind: Kind, sqlState: String? = nil, message: String, sql: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
    }

    /// SQLSTATE 40001: a serializable transaction lost a conflict.
    public static let serializationFailure = "40001"
    /// SQLSTATE 40P01: the server broke a deadlock by aborting this transaction.
    public static let deadlockDetected = "40P01"
    /// SQLSTATE 55P03: a lock was not granted within `lock_timeout`.
    public static let lockNotAvailable = "55P03"
    /// SQLSTATE 23505: a unique constraint was violated.
    public static let uniqueViolation = "23505"

    /// True when the connection is gone or unusable (class 08, an administrator shutdown, or libpq
    /// losing the socket): a new connection may succeed.
    public var isConnectionFailure: Bool {
        if kind == .connection { return true }
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    /// True when running the whole transaction again may succeed: a serialization failure, a
    /// deadlock, a lock wait that ran out (other writers held the lock longer than `lock_timeout`),
    /// or a lost connection.
    public var isRetryable: Bool {
        isConnectionFailure || [Self.serializationFailure, Self.deadlockDetected, Self.lockNotAvailable].contains(sqlState)
    }

    /// The code, message and statement, for logs. Never contains a password (libpq's messages don't).
    public var description: String {
        let code = sqlState.map { "PostgreSQL error \($0)" } ?? "PostgreSQL \(kind) error"
        return "\(code): \(message)" + (sql.map { " (in: \($0))" } ?? "")
    }
}
