import Foundation

/// The one bounded pool on which a server decodes and encodes: derivatives asked for by requests
/// and those made by background jobs. A fixed number of worker threads (default: the core count)
/// take work from a bounded queue; a request that finds the queue full is refused at once (503
/// with `Retry-After`) rather than given a thread, so memory and CPU stay bounded whatever the
/// load. Requests' work goes before background work; background work is handed over only when
/// a worker is free, so it never fills the queue that requests need.
public final class MediaWorkPool: Sendable {
    /// The worker threads.
    public let workers: Int
    /// The most requests' tasks waiting for a worker.
    public let queueLimit: Int

    private struct Task {
        let body: @Sendable () -> Void
    }

    private struct State {
        var requests: [Task] = []
        var background: [Task] = []
        var busy = 0
        var rejected = 0
        /// A moving average of how long one task takes, in seconds (for `Retry-After`).
        var averageSeconds = 2.0
    }

    private let condition = NSCondition()
    // Guarded by `condition`.
    nonisolated(unsafe) private var state = State()

    /// A pool of `workers` threads (default: the active core count) with room for `queueLimit`
    /// waiting requests (default: four per worker).
    public init(workers: Int? = nil, queueLimit: Int? = nil) {
        let count = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
        self.workers = count
        self.queueLimit = max(0, queueLimit ?? 4 * count)
        for index in 0..<count {
            let thread = Thread { [self] in work() }
            thread.name = "livepair.media.\(index)"
            thread.start()
        }
    }

    /// The pool is full: try again after `retryAfter` seconds.
    public struct Full: Error, Sendable {
        /// Seconds a client should wait before asking again.
        public let retryAfter: Int
    }

    /// Runs `body` on a worker and waits for it (the caller's thread blocks, holding nothing).
    /// - Throws: `Full` when every worker is busy and the queue holds `queueLimit` tasks already.
    public func run<Value: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> Value) throws(Full) -> Result<
        Value, Failure
    > {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<Value, Failure>()
        let task = Task {
            box.set({ () throws(Failure) -> Value in try body() })
            done.signal()
        }
        condition.lock()
        if state.busy + state.requests.count >= workers + queueLimit {
            state.rejected += 1
            let waiting = state.requests.count + state.busy
            let retryAfter = max(1, Int((state.averageSeconds * Double(waiting) / Double(workers)).rounded(.up)))
            condition.unlock()
            throw Full(retryAfter: retryAfter)
        }
        state.requests.append(task)
        condition.signal()
        condition.unlock()
        done.wait()
        return box.result!
    }

    /// Hands `body` to the pool as background work, waiting until a worker is free and no
    /// request is waiting (so background work never delays requests by more than one task), and
    /// until `leavingFree` more workers would stay free beside it (a server keeps one for requests:
    /// background work never takes the pool's last free thread).
    public func runInBackground(leavingFree: Int = 0, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let reserved = min(max(0, leavingFree), workers - 1)
        condition.lock()
        while state.busy + state.requests.count + state.background.count + reserved >= workers { condition.wait() }
        state.background.append(Task { body(); done.signal() })
        condition.broadcast()
        condition.unlock()
        done.wait()
    }

    /// What the pool is doing now, for `/metrics`.
    public var snapshot: (busy: Int, queued: Int, rejected: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (state.busy, state.requests.count + state.background.count, state.rejected)
    }

    private func work() {
        while true {
            condition.lock()
            while state.requests.isEmpty && state.background.isEmpty { condition.wait() }
            let task = state.requests.isEmpty ? state.background.removeFirst() : state.requests.removeFirst()
            state.busy += 1
            condition.unlock()
            let start = DispatchTime.now().uptimeNanoseconds
            task.body()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            condition.lock()
            state.busy -= 1
            state.averageSeconds = state.averageSeconds * 0.8 + seconds * 0.2
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// A result handed from a worker to the waiting caller.
private final class ResultBox<Value: Sendable, Failure: Error>: @unchecked Sendable {
    // @unchecked: written once by the worker before the semaphore is signalled, read after the wait.
    var result: Result<Value, Failure>?

    func set(_ body: () throws(Failure) -> Value) {
        do throws(Failure) { result = .success(try body()) } catch { result = .failure(error) }
    }
}
