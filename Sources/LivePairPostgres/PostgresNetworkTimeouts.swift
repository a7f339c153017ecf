#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The network timeouts every connection to a PostgreSQL catalog opens with (the catalog's pool
/// and change listener pass them to `PostgresConnection(_:defaults:)`), so that a node cut off from
/// the server (a network partition, a dead switch port) fails its statements within a bounded time
/// instead of waiting for an answer forever: without them, libpq waits for a reply on a socket
/// whose peer is gone for as long as the kernel keeps the connection (no keepalives: forever),
/// and connects for as long as the kernel retries its SYNs (about two minutes).
///
/// Each is a libpq keyword the catalog URL may set itself (`?connect_timeout=2&tcp_user_timeout=3000`),
/// which then wins; `PGCONNECT_TIMEOUT` in the environment replaces the connect timeout as well.
/// They apply to TCP connections only (a unix socket has no network to lose).
public enum PostgresNetworkTimeouts {
    /// Seconds a connection attempt may take (libpq `connect_timeout`).
    public static let connectSeconds = 10
    /// Idle seconds before the first keepalive probe (libpq `keepalives_idle`): a statement waiting
    /// for its answer on a dead connection starts probing after this.
    public static let keepaliveIdleSeconds = 10
    /// Seconds between keepalive probes (libpq `keepalives_interval`).
    public static let keepaliveIntervalSeconds = 5
    /// Probes lost before the connection is given up (libpq `keepalives_count`).
    public static let keepaliveCount = 3
    /// Milliseconds sent data (or a keepalive probe) may stay unacknowledged before the kernel drops
    /// the connection (libpq `tcp_user_timeout`): on Linux it replaces the probe count, so a
    /// statement on a dead connection fails about 30 s after the last answer.
    public static let unacknowledgedMilliseconds = 30_000

    /// The libpq keywords and values, for `PostgresConnection(_:defaults:)`.
    public static var connectionDefaults: [(keyword: String, value: String)] {
        var defaults: [(keyword: String, value: String)] = [
            ("keepalives", "1"), ("keepalives_idle", "\(keepaliveIdleSeconds)"),
            ("keepalives_interval", "\(keepaliveIntervalSeconds)"), ("keepalives_count", "\(keepaliveCount)"),
            ("tcp_user_timeout", "\(unacknowledgedMilliseconds)"),
        ]
        if getenv("PGCONNECT_TIMEOUT") == nil { defaults.append(("connect_timeout", "\(connectSeconds)")) }
        return defaults
    }
}
