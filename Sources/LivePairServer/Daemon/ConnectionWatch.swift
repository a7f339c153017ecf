import Dispatch
import Foundation
import Synchronization

/// Keeps slow clients from holding the daemon's connections: a connection waiting for request
/// headers (a new one, or a kept-alive one between requests) is closed once it has waited
/// `headerTimeout` (a client trickling its headers, which the idle timeout never catches), and
/// when the open connections pass `highWater` the ones that have waited longest for their headers
/// are closed first. A connection whose request is being received, worked on or answered is
/// never closed here.
///
/// A connection is closed with `shutdown(2)` on its socket: libmicrohttpd then reads the end of
/// the stream and closes it on its own thread. The socket is only touched under the lock while
/// the connection is known open; libmicrohttpd reports the close (`closed`, which takes the
/// lock) before it closes the socket, so the descriptor is never one reused by another file.
final class ConnectionWatch: Sendable {
    private struct Connection {
        let socket: Int32
        /// When it began waiting for headers (nil while a request is in progress).
        var waitingSince: ContinuousClock.Instant?
        /// Its place in `State.order` while waiting.
        var ticket: UInt64 = 0
    }

    private struct State {
        var connections: [UInt: Connection] = [:]
        /// Waiting connections by ticket, oldest first; a ticket whose connection no longer waits
        /// with it is skipped (and dropped) when met.
        var order: [(key: UInt, ticket: UInt64)] = []
        var head = 0
        var nextTicket: UInt64 = 1
        var closedByWatch = 0

        mutating func startWaiting(_ key: UInt, at instant: ContinuousClock.Instant) {
            guard connections[key] != nil else { return }
            connections[key]?.waitingSince = instant
            connections[key]?.ticket = nextTicket
            order.append((key, nextTicket))
            nextTicket += 1
        }

        /// The connection that has waited longest, if any (stale tickets dropped on the way).
        mutating func oldestWaiting() -> (key: UInt, connection: Connection)? {
            while head < order.count {
                let (key, ticket) = order[head]
                if let connection = connections[key], connection.waitingSince != nil, connection.ticket == ticket {
                    return (key, connection)
                }
                head += 1
            }
            return nil
        }

        /// Closes the waiting connection `key` (it is forgotten at once; libmicrohttpd reports its
        /// close later).
        mutating func cut(_ key: UInt) {
            guard let connection = connections.removeValue(forKey: key) else { return }
            shutdown(connection.socket, Int32(SHUT_RDWR))
            closedByWatch += 1
            compact()
        }

        mutating func compact() {
            if head > 1024 && head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
        }
    }

    private let state = Mutex(State())
    /// How long a connection may wait for its request headers.
    let headerTimeout: Duration
    /// Past this many open connections, the longest-waiting are closed.
    let highWater: Int
    // nonisolated(unsafe): a dispatch source is thread-safe; it is only cancelled, once, in deinit.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer

    /// Watches connections: closes the ones waiting over `headerTimeout` seconds for headers,
    /// checking every tenth of it (at most every second), and keeps at most `highWater` open.
    init(headerTimeout: Double, highWater: Int) {
        self.headerTimeout = .milliseconds(Int64(headerTimeout * 1000))
        self.highWater = highWater
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "livepair.serve.connections"))
        let interval = min(1, headerTimeout / 10)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(Int(interval * 100)))
        timer.setEventHandler { [weak self] in self?.cutOverdue() }
        timer.resume()
    }

    deinit { timer.cancel() }

    /// Connections closed so far because they waited too long or made room.
    var closedCount: Int { state.withLock { $0.closedByWatch } }

    /// A connection opened on `socket`: it waits for headers from now; makes room if needed.
    func opened(_ connection: OpaquePointer, socket: Int32) {
        let key = Self.key(connection)
        state.withLock { state in
            state.connections[key] = Connection(socket: socket)
            state.startWaiting(key, at: .now)
            while state.connections.count > highWater, let oldest = state.oldestWaiting()?.key, oldest != key {
                state.cut(oldest)
            }
        }
    }

    /// The connection's request headers arrived: it is no longer waiting.
    func requestStarted(_ connection: OpaquePointer) {
        let key = Self.key(connection)
        state.withLock { $0.connections[key]?.waitingSince = nil }
    }

    /// The connection's request ended: a kept-alive connection waits for the next one's headers.
    func requestEnded(_ connection: OpaquePointer) {
        let key = Self.key(connection)
        state.withLock { $0.startWaiting(key, at: .now) }
    }

    /// libmicrohttpd closed the connection (before closing its socket).
    func closed(_ connection: OpaquePointer) {
        let key = Self.key(connection)
        state.withLock { state in
            state.connections[key] = nil
            state.compact()
        }
    }

    /// Closes the connections that have waited longer than the header timeout.
    func cutOverdue() {
        let deadline = ContinuousClock.now - headerTimeout
        state.withLock { state in
            while let oldest = state.oldestWaiting(), let since = oldest.connection.waitingSince, since < deadline {
                state.cut(oldest.key)
            }
        }
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
