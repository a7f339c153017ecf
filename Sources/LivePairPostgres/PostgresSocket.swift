#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waiting on a connection's socket (for notifications).
enum PostgresSocket {
    /// True when `socket` has something to read within `timeoutMilliseconds` (or an error to report).
    static func waitReadable(_ socket: Int32, timeoutMilliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, timeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready != 0
        }
    }
}
