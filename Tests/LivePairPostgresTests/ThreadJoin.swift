import Foundation

/// A value computed on a thread of its own.
final class JoinedThread<Value: Sendable>: @unchecked Sendable {
    // Sendable: `value` is written before `done.signal()` and read after `done.wait()`.
    private var value: Value?
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in
            value = body()
            done.signal()
        }
    }

    /// Waits for the thread and returns its value.
    func wait() -> Value {
        done.wait()
        return value!
    }
}

extension Thread {
    /// Runs `body` on a new thread; `wait()` on the result joins it.
    static func detachAndJoin<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> JoinedThread<Value> {
        JoinedThread(body)
    }
}
