import Synchronization

/// A thread-safe memory cache bounded by a total cost (bytes, for images) with
/// least-recently-used eviction.
///
/// Lookups and insertions are O(1); eviction walks a recency list from its oldest end.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var cost: Int
        var older: Key?
        var newer: Key?
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var newest: Key?
        var oldest: Key?
        var totalCost = 0

        mutating func unlink(_ key: Key) {
            guard let entry = entries[key] else { return }
            if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
            if let newer = entry.newer { entries[newer]?.older = entry.older } else { newest = entry.older }
            entries[key]?.older = nil
            entries[key]?.newer = nil
        }

        mutating func linkAsNewest(_ key: Key) {
            entries[key]?.older = newest
            entries[key]?.newer = nil
            if let newest { entries[newest]?.newer = key }
            newest = key
            if oldest == nil { oldest = key }
        }

        mutating func remove(_ key: Key) {
            guard let entry = entries[key] else { return }
            unlink(key)
            entries[key] = nil
            totalCost -= entry.cost
        }
    }

    /// The largest total cost kept; inserting beyond it evicts the least recently used entries.
    public let costLimit: Int
    private let state = Mutex(State())

    /// A cache holding at most `costLimit` (at least 0).
    public init(costLimit: Int) { self.costLimit = max(0, costLimit) }

    /// The value for `key`, marking it most recently used; nil when absent.
    public func value(for key: Key) -> Value? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            state.unlink(key)
            state.linkAsNewest(key)
            return entry.value
        }
    }

    /// Stores `value` for `key` with `cost`, evicting least recently used entries until the
    /// total fits. A value costing more than the limit is not stored.
    public func insert(_ value: Value, for key: Key, cost: Int) {
        state.withLock { state in
            state.remove(key)
            guard cost <= costLimit else { return }
            state.entries[key] = Entry(value: value, cost: max(0, cost), older: nil, newer: nil)
            state.linkAsNewest(key)
            state.totalCost += max(0, cost)
            while state.totalCost > costLimit, let oldest = state.oldest { state.remove(oldest) }
        }
    }

    /// Removes the value for `key`, if any.
    public func removeValue(for key: Key) { state.withLock { $0.remove(key) } }

    /// Removes everything.
    public func removeAll() { state.withLock { $0 = State() } }

    /// The total cost of the values held.
    public var totalCost: Int { state.withLock { $0.totalCost } }

    /// The number of values held.
    public var count: Int { state.withLock { $0.entries.count } }

    /// The keys from least to most recently used (for tests and diagnostics).
    public var keysByRecency: [Key] {
        state.withLock { state in
            var keys: [Key] = []
            var cursor = state.oldest
            while let key = cursor {
                keys.append(key)
                cursor = state.entries[key]?.newer
            }
            return keys
        }
    }
}
