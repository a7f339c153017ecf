import Synchronization

/// Identifies one image or Live Photo request for the life of the process.
///
/// Ids come from one atomic counter, so they are unique across every manager and never reused;
/// two requests that share a decode (coalescing) still have different ids.
public struct RequestID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The counter value (1 for the first request of the process).
    public let rawValue: UInt64

    /// The process-wide counter behind `next()`.
    private static let counter = Atomic<UInt64>(0)

    /// A fresh id, distinct from every id handed out before in this process. Safe from any thread.
    public static func next() -> RequestID {
        RequestID(rawValue: counter.add(1, ordering: .relaxed).newValue)
    }

    private init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders ids by creation.
    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#` followed by the counter value.
    public var description: String { "#\(rawValue)" }
}
