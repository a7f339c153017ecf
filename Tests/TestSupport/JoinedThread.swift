import Foundation

/// A value computed on a thread of its own (a real thread, not a task: tests use it to run
/// blocking work, such as a second catalog connection, beside the test's own).
public final class JoinedThread<Value: Sendable>: @unchecked Sendable {
    // Sendable: `value` is written before `done.signal()` and read after `done.wait()`.
    private var value: Value?
    private let done = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in
            value = body()
            done.signal()
        }
    }

    /// Waits for the thread and returns its value.
    public func wait() -> Value {
        done.wait()
        return value!
    }

    /// Waits at most `seconds` for the thread; its value, or nil when it has not finished by then
    /// (it may still finish later: `wait` then returns its value).
    public func wait(seconds: Double) -> Value? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        done.signal()  // a later wait returns at once
        return value
    }
}
