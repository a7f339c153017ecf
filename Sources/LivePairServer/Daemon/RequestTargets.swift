import Synchronization

/// The request target of each connection's current request, as sent (libmicrohttpd's URI log
/// callback sees it before it decodes the path and splits the query): kept until the request's
/// headers have all arrived, when the daemon parses it strictly (`RequestTarget`).
final class RequestTargets: Sendable {
    /// A target as sent, and where it lay in the connection's buffer (to tell a raw NUL byte,
    /// which ends the C string early, from the target's end).
    struct Sent: Sendable {
        let bytes: [UInt8]
        let address: UInt
    }

    private let targets = Mutex<[UInt: Sent]>([:])

    /// Keeps the target of `connection`'s new request.
    func record(_ sent: Sent, for connection: OpaquePointer) {
        targets.withLock { $0[Self.key(connection)] = sent }
    }

    /// The target of `connection`'s request, forgotten here.
    func take(for connection: OpaquePointer) -> Sent? {
        targets.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// The connection closed.
    func forget(_ connection: OpaquePointer) {
        _ = take(for: connection)
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
