import Foundation
import LivePair

/// Identifies files on every core, as the CLI does.
enum ConcurrentIdentification {
    /// The identities of `files`, in order.
    static func identify(_ files: [String]) -> [ResourceIdentity] {
        let identifier = ResourceIdentifier()
        let slots = IdentitySlots(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            slots.store(identifier.identify(path: files[index]), at: index)
        }
        return slots.values
    }
}

/// Result slots filled by concurrent workers.
private final class IdentitySlots: @unchecked Sendable {
    // Sendable: `slots` is only touched under `lock`.
    private let lock = NSLock()
    private var slots: [ResourceIdentity?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func store(_ identity: ResourceIdentity, at index: Int) { lock.withLock { slots[index] = identity } }
    var values: [ResourceIdentity] { lock.withLock { slots.compactMap { $0 } } }
}
