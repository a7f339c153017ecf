#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The network timeouts of every connection to a PostgreSQL catalog, so that a node cut off from
/// the server (a network partition, a dead switch port) fails its statements within a bounded time
/// instead of waiting for an answer forever: without them, libpq waits for a reply on a socket
/// whose peer is gone for as long as the kernel keeps the connection (no keepalives: forever),
/// and connects for as long as the kernel retries its SYNs (about two minutes).
///
/// Each is a libpq keyword the catalog URL may set itself (`?connect_timeout=2&tcp_user_timeout=3000`),
/// which then wins; `PGCONNECT_TIMEOUT` in the environment replaces the connect timeout as well.
/// They apply to TCP connections only (a unix socket has no network to lose).
enum PostgresNetworkTimeouts {
    /// Seconds a connection attempt may take (libpq `connect_timeout`).
    static let connectSeconds = 10
    /// Idle seconds before the first keepalive probe, seconds between probes, probes lost before
    /// the connection is given up (libpq `keepalives_idle`, `keepalives_interval`, `keepalives_count`):
    /// a statement waiting for its answer on a dead connection fails after about 25 s.
    static let keepaliveIdleSeconds = 10
    static let keepaliveIntervalSeconds = 5
    static let keepaliveCount = 3
    /// Milliseconds sent data may stay unacknowledged before the kernel drops the connection
    /// (libpq `tcp_user_timeout`; it also bounds the keepalive probes).
    static let unacknowledgedMilliseconds = 30_000

    /// The libpq keywords and values, for `PostgresConnection(_:defaults:)`.
    static var connectionDefaults: [(keyword: String, value: String)] {
        var defaults: [(keyword: String, value: String)] = [
            ("keepalives", "1"), ("keepalives_idle", "\(keepaliveIdleSeconds)"),
            ("keepalives_interval", "\(keepaliveIntervalSeconds)"), ("keepalives_count", "\(keepaliveCount)"),
            ("tcp_user_timeout", "\(unacknowledgedMilliseconds)"),
        ]
        if getenv("PGCONNECT_TIMEOUT") == nil { defaults.append(("connect_timeout", "\(connectSeconds)")) }
        return defaults
    }
}
