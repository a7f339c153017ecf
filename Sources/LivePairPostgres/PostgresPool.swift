import Dispatch
import Synchronization

/// A small pool of connections to one database: each user gets a connection of its own for the
/// length of its work (libpq connections are not shared between concurrent users). Connections
/// open on demand up to `maximumConnections`; a lost connection is dropped when returned and a new
/// one opened next time, so a restarted server is reconnected to.
public final class PostgresPool: Sendable {
    /// The libpq connection string (URI or key=value) every connection opens with.
    public let connectionString: String
    /// How many connections may be open at once.
    public let maximumConnections: Int
    /// libpq keywords every connection opens with unless the connection string sets them.
    public let defaults: [(keyword: String, value: String)]
    private let idle = Mutex<[PostgresConnection]>([])
    private let slots: DispatchSemaphore

    /// A pool for `connectionString` (with libpq `defaults` the string may override); opens one
    /// connection now so a wrong address or credential fails here.
    public init(
        _ connectionString: String, defaults: [(keyword: String, value: String)] = [], maximumConnections: Int = 4
    ) throws(PostgresError) {
        self.connectionString = connectionString
        self.defaults = defaults
        self.maximumConnections = max(1, maximumConnections)
        slots = DispatchSemaphore(value: self.maximumConnections)
        let first = try PostgresConnection(connectionString, defaults: defaults)
        idle.withLock { $0.append(first) }
    }

    /// Runs `body` with a connection of its own (waiting while every connection is in use).
    /// `connectionFailure` turns a failure to open a connection into the caller's error type.
    public func withConnection<Value, Failure: Error>(
        connectionFailure: (PostgresError) -> Failure, _ body: (PostgresConnection) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        slots.wait()
        defer { slots.signal() }
        let reused = idle.withLock { $0.popLast() }
        let connection: PostgresConnection
        if let reused, reused.isOpen {
            connection = reused
        } else {
            do throws(PostgresError) {
                connection = try PostgresConnection(connectionString, defaults: defaults)
            } catch {
                throw connectionFailure(error)
            }
        }
        defer { if connection.isOpen { idle.withLock { $0.append(connection) } } }
        return try body(connection)
    }
}

/// How a transaction isolates itself from others.
public enum PostgresTransactionMode: Sendable {
    /// `READ COMMITTED` (PostgreSQL's default): each statement sees what was committed before it.
    case readCommitted
    /// `REPEATABLE READ, READ ONLY`: one snapshot for the whole transaction, no writes.
    case snapshotReadOnly

    var beginStatement: String {
        switch self {
        case .readCommitted: return "BEGIN ISOLATION LEVEL READ COMMITTED"
        case .snapshotReadOnly: return "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        }
    }
}

extension PostgresConnection {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it (or the commit)
    /// throws. `wrap` turns the bridge's errors into the caller's error type.
    public func transaction<Value, Failure: Error>(
        _ mode: PostgresTransactionMode, wrap: (PostgresError) -> Failure, _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        do throws(PostgresError) {
            try execute(mode.beginStatement)
        } catch {
            throw wrap(error)
        }
        do throws(Failure) {
            let value = try body()
            do throws(PostgresError) {
                try execute("COMMIT")
            } catch {
                throw wrap(error)
            }
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }
}
