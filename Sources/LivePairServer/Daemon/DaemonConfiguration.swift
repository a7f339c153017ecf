import Foundation

/// How the HTTP daemon listens and treats connections.
public struct DaemonConfiguration: Sendable, Hashable {
    /// The address to listen on: an IPv4 or IPv6 literal (`::1`, no brackets) or a name such as
    /// `localhost` (`127.0.0.1` behind a reverse proxy).
    public var host: String
    /// The port (0: any free port; `HTTPDaemon.port` tells which).
    public var port: UInt16
    /// Worker threads of the daemon's pool (each multiplexes many connections with epoll).
    public var threads: Int
    /// Seconds without traffic after which a connection is dropped (a slow or stalled client).
    public var connectionTimeout: Int
    /// Seconds a request may take to arrive whole, body included: a client trickling its upload
    /// (which the idle timeout never catches) is dropped once this has passed.
    public var requestTimeout: Double
    /// Seconds a connection may wait for a request's headers (a new connection, or a kept-alive
    /// one between requests): a client trickling its headers is dropped after this.
    public var headerTimeout: Double
    /// The most connections open at once; nil: sized from the open-file limit when the daemon
    /// starts (`connectionLimit(openFiles:)`).
    public var connectionLimit: Int?
    /// The most connections open at once from one client address.
    public var connectionsPerAddress: Int
    /// Buffer bytes per connection (request line and headers must fit).
    public var connectionMemoryLimit: Int

    /// Defaults: 2 threads per core (at least 4), 30 s idle timeout, 10 s for headers, 600 s for a
    /// whole request, connections sized from the open-file limit, 64 per client address, 64 KiB each.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int? = nil, connectionTimeout: Int = 30,
        headerTimeout: Double = 10, requestTimeout: Double = 600, connectionLimit: Int? = nil,
        connectionsPerAddress: Int = 64, connectionMemoryLimit: Int = 64 * 1024
    ) {
        self.requestTimeout = max(1, requestTimeout)
        self.headerTimeout = max(0.1, headerTimeout)
        self.connectionsPerAddress = max(1, connectionsPerAddress)
        self.host = host
        self.port = port
        self.threads = threads ?? max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
        self.connectionTimeout = max(1, connectionTimeout)
        self.connectionLimit = connectionLimit.map { max(1, $0) }
        self.connectionMemoryLimit = max(16 * 1024, connectionMemoryLimit)
    }

    /// Files kept for everything but connections (the catalog, spool and derivative files, logs).
    public static let reservedFiles = 64

    /// The connection limit for `openFiles` descriptors: half of what is left after
    /// `reservedFiles` (a connection may hold a second file: the one it sends or the upload it
    /// spools), from 16 to 65,536.
    public static func connectionLimit(openFiles: UInt64) -> Int {
        let usable = openFiles > UInt64(reservedFiles) ? openFiles - UInt64(reservedFiles) : 0
        return Int(min(max(usable / 2, 16), 65_536))
    }
}
