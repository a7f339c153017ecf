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
}
