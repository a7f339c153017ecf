import Foundation

/// Lets one caller at a time work on a key: concurrent requests for the same uncached derivative
/// wait for the first one's result instead of decoding it again.
final class InFlightKeys: Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    nonisolated(unsafe) private var keys: Set<String> = []

    /// Runs `body` for `key` once no other caller is running it (the caller then usually finds
    /// the result cached).
    func exclusively<Value>(_ key: String, _ body: () throws(HTTPError) -> Value) throws(HTTPError) -> Value {
        condition.lock()
        while keys.contains(key) { condition.wait() }
        keys.insert(key)
        condition.unlock()
        defer {
            condition.lock()
            keys.remove(key)
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
