import Foundation

/// A bare TCP connection to the server, for what an HTTP library never sends: malformed request
/// lines, a body trickled one byte a second, an upload cut off by a killed server.
final class RawConnection {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port` from the loopback address `source` (all of 127.0.0.0/8 is
    /// loopback on Linux: a test can play many clients), or to [::1]:`port` with `ipv6`.
    init(port: UInt16, from source: String = "127.0.0.1", ipv6: Bool = false) throws {
        descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawError.failed("socket") }
        let result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(descriptor)
                throw RawError.failed("bind \(source)")
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw RawError.failed("connect")
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends bytes; false when the connection is closed.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if result <= 0 { return false }
            sent += result
        }
        return true
    }

    /// Sends text.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the peer closes (or `limit` bytes, or the receive timeout).
    func readAll(limit: Int = 1 << 20) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    /// What arrives within `timeout` seconds: some bytes, [] when nothing did, nil when the peer closed.
    func read(timeout: Double) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer[0..<count]) : nil
    }

    /// The status line of what the server answered (empty when it closed without answering).
    func statusLine() -> String {
        let text = String(decoding: readAll(limit: 4096), as: UTF8.self)
        return text.components(separatedBy: "\r\n").first ?? ""
    }

    deinit { close(descriptor) }

    enum RawError: Error { case failed(String) }
}
