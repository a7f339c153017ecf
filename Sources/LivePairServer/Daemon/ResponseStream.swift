import CMicroHTTPD
import Synchronization

/// A response body written while it is being sent (Server-Sent Events): the daemon sends what
/// `send` queues, suspending the connection while there is nothing to send (so no worker thread
/// waits), until `finish` or until the client is gone.
public final class ResponseStream: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var finished = false
        var released = false
        var connection: ConnectionPointer?
        var suspended = false
    }

    /// The most bytes kept for a client that does not read: past it the stream ends.
    static let pendingLimit = 1 << 20
    private let state = Mutex(State())
    private let onRelease: @Sendable () -> Void

    /// A stream; `onRelease` is called once when the daemon no longer sends it (finished, client
    /// gone, server stopping).
    public init(onRelease: @escaping @Sendable () -> Void = {}) {
        self.onRelease = onRelease
    }

    /// Queues `bytes` to be sent; false when the stream has ended (the client left, or `finish`).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.finished, !state.released else { return false }
            state.pending.append(contentsOf: bytes)
            if state.pending.count > Self.pendingLimit {  // a client that stopped reading
                state.pending = []
                state.finished = true
            }
            Self.resume(&state)
            return !state.finished
        }
    }

    /// Ends the stream once what is queued is sent.
    public func finish() {
        state.withLock { state in
            state.finished = true
            Self.resume(&state)
        }
    }

    /// Whether the daemon still sends it.
    public var isOpen: Bool { state.withLock { !$0.finished && !$0.released } }

    private static func resume(_ state: inout State) {
        guard state.suspended, let connection = state.connection else { return }
        state.suspended = false
        MHD_resume_connection(connection.pointer)
    }

    // MARK: - The daemon's side (on the connection's worker thread)

    /// The connection the stream is sent on (before the first `read`).
    func attach(to connection: OpaquePointer) {
        let handle = ConnectionPointer(pointer: connection)
        state.withLock { $0.connection = handle }
    }

    /// Copies up to `capacity` queued bytes into `buffer`: their count, 0 after suspending the
    /// connection until `send` or `finish` resumes it, or -1 at the end of the stream.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        state.withLock { state in
            if !state.pending.isEmpty {
                let count = min(capacity, state.pending.count)
                state.pending.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: count) }
                state.pending.removeFirst(count)
                return count
            }
            if state.finished { return -1 }
            guard let connection = state.connection else { return -1 }
            state.suspended = true
            MHD_suspend_connection(connection.pointer)
            return 0
        }
    }

    /// The daemon is done with the stream.
    func release() {
        let first = state.withLock { state in
            defer { state.released = true }
            state.suspended = false
            state.connection = nil
            return !state.released
        }
        if first { onRelease() }
    }
}
