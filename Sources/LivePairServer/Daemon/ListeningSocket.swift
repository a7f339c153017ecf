import Foundation

/// The socket `HTTPDaemon` listens on, made before the daemon starts so that a failure names the
/// system's reason (`Address already in use`), and so that any address `getaddrinfo` resolves
/// works: an IPv4 or IPv6 literal (`::1`, without brackets) or a name such as `localhost`.
enum ListeningSocket {
    /// A bound, listening, non-blocking socket for `host` and `port`, and the port it got.
    /// - Throws: `HTTPError` whose message says why (the name does not resolve, the address is in
    ///   use or not on this machine, permission denied).
    static func open(host: String, port: UInt16) throws(HTTPError) -> (descriptor: Int32, port: UInt16) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw .internal("cannot listen on \(display(host, port)): \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(first) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        // IPv4 first (`localhost` is then 127.0.0.1, as browsers and curl try it), then IPv6.
        var candidates: [UnsafeMutablePointer<addrinfo>] = []
        while let current = entry {
            candidates.append(current)
            entry = current.pointee.ai_next
        }
        candidates.sort { $0.pointee.ai_family == AF_INET && $1.pointee.ai_family != AF_INET }
        for candidate in candidates {
            let info = candidate.pointee
            let descriptor = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
            guard descriptor >= 0 else {
                reason = String(cString: strerror(errno))
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if info.ai_family == AF_INET6 {
                _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            guard bind(descriptor, info.ai_addr, info.ai_addrlen) == 0, listen(descriptor, 128) == 0 else {
                reason = String(cString: strerror(errno))
                close(descriptor)
                continue
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            return (descriptor, boundPort(descriptor) ?? port)
        }
        throw .internal("cannot listen on \(display(host, port)): \(reason)")
    }

    /// `host:port`, an IPv6 address in brackets.
    static func display(_ host: String, _ port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func boundPort(_ descriptor: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }
}
