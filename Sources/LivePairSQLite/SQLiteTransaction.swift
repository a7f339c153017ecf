import CSQLite

/// How a transaction takes its locks.
public enum SQLiteTransactionKind: String, Sendable, Equatable {
    /// Takes locks when the first statement needs them (a read transaction until it writes).
    case deferred = "DEFERRED"
    /// Takes the write lock at once, so the transaction cannot fail later for another writer.
    case immediate = "IMMEDIATE"
    /// Takes the write lock and, outside WAL mode, keeps readers out.
    case exclusive = "EXCLUSIVE"
}

extension SQLiteDatabase {
    /// Begins a transaction of `kind`. `BEGIN IMMEDIATE` waits for another writer (of this or
    /// another process) for up to `busyTimeoutMilliseconds`, retrying on `SQLITE_BUSY`.
    public func begin(_ kind: SQLiteTransactionKind = .immediate, busyTimeoutMilliseconds: Int32 = 10_000) throws(SQLiteError) {
        try retryingWhileBusy(timeoutMilliseconds: busyTimeoutMilliseconds) { () throws(SQLiteError) in
            try execute("BEGIN \(kind.rawValue)")
        }
    }

    /// Commits the open transaction (durable when the connection uses `synchronous=FULL`).
    public func commit(busyTimeoutMilliseconds: Int32 = 10_000) throws(SQLiteError) {
        try retryingWhileBusy(timeoutMilliseconds: busyTimeoutMilliseconds) { () throws(SQLiteError) in
            try execute("COMMIT")
        }
    }

    /// Rolls back the open transaction, if any; never throws (a failed rollback leaves SQLite to
    /// roll back when the connection closes or the next transaction starts).
    public func rollback() {
        guard isInTransaction else { return }
        _ = try? execute("ROLLBACK")
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    public func transaction<Value>(
        _ kind: SQLiteTransactionKind = .immediate, busyTimeoutMilliseconds: Int32 = 10_000,
        _ body: () throws(SQLiteError) -> Value
    ) throws(SQLiteError) -> Value {
        try begin(kind, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        do {
            let value = try body()
            try commit(busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            return value
        } catch {
            rollback()
            throw error
        }
    }
}
