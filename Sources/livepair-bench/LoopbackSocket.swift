import Foundation

/// A TCP connection to the server under test on 127.0.0.1: the one socket setup of the
/// benchmark's clients (`LoopbackHTTPClient`, the slowloris connections).
enum LoopbackSocket {
    /// A socket connected to 127.0.0.1:`port`, or nil when it cannot be made (nothing left open).
    ///
    /// - Parameters:
    ///   - source: the local address to connect from (127.0.0.0/8 holds many), its port chosen at
    ///     connect (`IP_BIND_ADDRESS_NO_PORT`, so thousands of connections do not exhaust the
    ///     ephemeral ports at bind); nil lets the kernel choose.
    ///   - timeout: seconds for connecting, sending and receiving; nil waits without bound.
    ///   - noDelay: sets `TCP_NODELAY` (a request goes out at once, not after the last ACK).
    static func connect(port: UInt16, from source: String? = nil, timeout: Int? = nil, noDelay: Bool = false) -> Int32? {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var one: Int32 = 1
        if let timeout {
            var wait = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))  // bounds connect too
        }
        var bound = true
        if let source {
            setsockopt(socket, Int32(IPPROTO_IP), 24 /* IP_BIND_ADDRESS_NO_PORT */, &one, socklen_t(MemoryLayout<Int32>.size))
            var local = address(source, port: 0)
            bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
        }
        var remote = address("127.0.0.1", port: port)
        let connected = bound && withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
        guard connected else {
            close(socket)
            return nil
        }
        if noDelay { setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)) }
        return socket
    }

    /// The IPv4 address `host` (dotted quad) and `port`.
    private static func address(_ host: String, port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }
}
