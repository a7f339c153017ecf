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
        defer { release(key) }
        return try body()
    }

    /// Runs `body` for `key` when no other caller is running it, else returns at once (a
    /// background job leaves a key to the request already making it). Returns `body`'s error.
    func ifFree(_ key: String, _ body: () throws(HTTPError) -> Void) -> HTTPError? {
        condition.lock()
        let claimed = keys.insert(key).inserted
        condition.unlock()
        guard claimed else { return nil }
        defer { release(key) }
        do throws(HTTPError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    private func release(_ key: String) {
        condition.lock()
        keys.remove(key)
        condition.broadcast()
        condition.unlock()
    }
}
