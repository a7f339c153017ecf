import Foundation
import LivePairPostgres

/// The catalog on a PostgreSQL server, shared by every node of a backend. Reads run in
/// `REPEATABLE READ READ ONLY` transactions (one snapshot each); writes in `READ COMMITTED`
/// transactions that first lock the `catalog_state` row.
///
/// That row lock is the PostgreSQL counterpart of SQLite's `BEGIN IMMEDIATE`: one write
/// transaction at a time across all nodes, so everything the SQLite catalog's single writer
/// guarantees holds here too: deduplication per owner and digest, the linking of pending halves
/// per owner and content identifier (measured for the issue: READ COMMITTED without a lock left
/// 72 and 95 of 300 pairs unlinked), garbage collection (nothing starts referencing a file while a
/// clean-up checks it), and change-log numbers that follow commit order (the counter lives in the
/// same row). Resources are stored and validated before the transaction begins, so the lock is
/// held only for the rows.
///
/// Failures keep their SQLSTATE (`LibraryError.catalogServer`); a lost connection is replaced,
/// and a transaction that failed before its body ran is retried here with backoff. A failure
/// inside the body is reported (`isRetryableCatalogFailure`), and the change-batch executor runs
/// the whole batch again.
final class PostgresCatalog: Catalog {
    let pool: PostgresPool
    private let lockTimeoutMilliseconds: Int32
    /// Seconds after which a failed transaction is no longer tried again (the last try starts before).
    private let retryWindowSeconds: Double
    /// The `NOTIFY` channel of this catalog (derived from its schema's name).
    let notificationChannel: String

    /// Connects to the database at `connectionString` (any libpq URI or key=value string; PG*
    /// variables fill in the rest) and opens the catalog in its current schema as `decide` says,
    /// told whether a catalog exists there: `.existing` refuses a newer one and upgrades an older
    /// one when read-write; `.new` creates the tables and records the library's identity (a
    /// catalog another node created meanwhile is kept, with its own identity).
    init(
        connectionString: String, lockTimeoutMilliseconds: Int32, retryWindowSeconds: Double = 30,
        maximumConnections: Int = 4, opening decide: (_ exists: Bool) throws(LibraryError) -> CatalogOpening
    ) throws(LibraryError) {
        do throws(PostgresError) {
            pool = try PostgresPool(
                connectionString, defaults: PostgresNetworkTimeouts.connectionDefaults, maximumConnections: maximumConnections)
        } catch {
            throw .catalogServer(error)
        }
        self.lockTimeoutMilliseconds = lockTimeoutMilliseconds
        self.retryWindowSeconds = retryWindowSeconds
        notificationChannel = try pool.withConnection(connectionFailure: LibraryError.catalogServer) {
            (connection: PostgresConnection) throws(LibraryError) -> String in
            let found: Int
            do throws(PostgresError) {
                found = try PostgresCatalogSchema.version(connection)
            } catch {
                throw .catalogServer(error)
            }
            try PostgresCatalogSchema.migrate(connection, found: found, opening: try decide(found > 0))
            let channel = try PostgresCatalogSession(connection: connection, notificationChannel: "")
                .run("SELECT 'livepair_changes_' || left(md5(current_schema()), 16)").scalar
            guard case let .text(name) = channel else { throw .invalidRequest("the server named no current schema") }
            return name
        }
    }

    /// The connection string the catalog was opened with.
    var connectionString: String { pool.connectionString }

    func read<Value>(_ body: (any CatalogReader) throws(LibraryError) -> Value) throws(LibraryError) -> Value {
        try Self.retrying(for: retryWindowSeconds) { (_: inout Bool) throws(LibraryError) -> Value in
            try pool.withConnection(connectionFailure: LibraryError.catalogServer) {
                (connection: PostgresConnection) throws(LibraryError) -> Value in
                try connection.transaction(.snapshotReadOnly, wrap: LibraryError.catalogServer) { () throws(LibraryError) in
                    try body(PostgresCatalogSession(connection: connection, notificationChannel: notificationChannel))
                }
            }
        }
    }

    func write<Value>(
        _ body: (any CatalogWriter) throws(LibraryError) -> Value, beforeCommit: () throws(LibraryError) -> Void
    ) throws(LibraryError) -> Value {
        try Self.retrying(for: retryWindowSeconds) { (bodyStarted: inout Bool) throws(LibraryError) -> Value in
            try pool.withConnection(connectionFailure: LibraryError.catalogServer) {
                (connection: PostgresConnection) throws(LibraryError) -> Value in
                try connection.transaction(.readCommitted, wrap: LibraryError.catalogServer) { () throws(LibraryError) -> Value in
                    let session = PostgresCatalogSession(connection: connection, notificationChannel: notificationChannel)
                    // A node cut off mid-transaction would hold the catalog lock until the server
                    // notices its connection is gone (hours, with the default keepalives): the
                    // server ends a transaction idle for half the lock timeout, so the nodes
                    // waiting for the lock get it before their own wait runs out.
                    try session.run(
                        "SELECT set_config('lock_timeout', $1, true), set_config('idle_in_transaction_session_timeout', $2, true)",
                        [.text("\(lockTimeoutMilliseconds)ms"), .text("\(max(lockTimeoutMilliseconds / 2, 1_000))ms")])
                    try session.run("SELECT change_sequence FROM catalog_state WHERE id = 1 FOR UPDATE")
                    bodyStarted = true
                    let value = try body(session)
                    try beforeCommit()
                    return value
                }
            }
        }
    }

    func writeJobs<Value>(_ body: (any CatalogWriter) throws(LibraryError) -> Value) throws(LibraryError) -> Value {
        try Self.retrying(for: retryWindowSeconds) { (_: inout Bool) throws(LibraryError) -> Value in
            try pool.withConnection(connectionFailure: LibraryError.catalogServer) {
                (connection: PostgresConnection) throws(LibraryError) -> Value in
                try connection.transaction(.readCommitted, wrap: LibraryError.catalogServer) { () throws(LibraryError) -> Value in
                    try body(PostgresCatalogSession(connection: connection, notificationChannel: notificationChannel))
                }
            }
        }
    }

    /// Runs `attempt` until it succeeds, retrying (with backoff, about 6 s in all) a serialization
    /// failure, a deadlock or a lost connection as long as the attempt had not yet run the caller's
    /// body (which may have effects outside the transaction) and `window` seconds have not passed
    /// (a server out of reach makes each try wait for its connect timeout).
    private static func retrying<Value>(
        for window: Double, _ attempt: (inout Bool) throws(LibraryError) -> Value
    ) throws(LibraryError) -> Value {
        let started = ContinuousClock.now
        var delay = 0.05
        var tries = 0
        while true {
            tries += 1
            var bodyStarted = false
            do throws(LibraryError) {
                return try attempt(&bodyStarted)
            } catch {
                guard error.isRetryableCatalogFailure, !bodyStarted, tries < 8,
                    (ContinuousClock.now - started) + .seconds(delay) < .seconds(window)
                else { throw error }
                Thread.sleep(forTimeInterval: delay)
                delay *= 2
            }
        }
    }

    func observeCommits(_ onCommit: @escaping @Sendable () -> Void) -> (any CatalogCommitSubscription)? {
        PostgresChangeListener(connectionString: pool.connectionString, channel: notificationChannel, onNotification: onCommit)
    }
}
