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
    /// The most connections open at once.
    public var connectionLimit: Int
    /// Buffer bytes per connection (request line and headers must fit).
    public var connectionMemoryLimit: Int

    /// Defaults: 2 threads per core (at least 4), 30 s idle timeout, 600 s for a whole request,
    /// 1,024 connections, 64 KiB each.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int? = nil, connectionTimeout: Int = 30,
        requestTimeout: Double = 600, connectionLimit: Int = 1024, connectionMemoryLimit: Int = 64 * 1024
    ) {
        self.requestTimeout = max(1, requestTimeout)
        self.host = host
        self.port = port
        self.threads = threads ?? max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
        self.connectionTimeout = max(1, connectionTimeout)
        self.connectionLimit = max(1, connectionLimit)
        self.connectionMemoryLimit = max(16 * 1024, connectionMemoryLimit)
    }
}

