import Foundation
import TestSupport

extension Thread {
    /// Runs `body` on a new thread; `wait()` on the result joins it.
    static func detachAndJoin<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> JoinedThread<Value> {
        JoinedThread(body)
    }
}
