import Synchronization

/// A thread-safe, one-way cancellation switch shared between a caller and a running decode.
///
/// Decoders cannot interrupt a C call in progress; they poll the flag between stages (between
/// tiles, before transforms) and throw `MediaError.cancelled` once it is set.
public final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)

    /// A flag that is not cancelled.
    public init() {}

    /// Sets the flag. Idempotent; safe from any thread.
    public func cancel() { state.store(true, ordering: .releasing) }

    /// True once `cancel()` has been called.
    public var isCancelled: Bool { state.load(ordering: .acquiring) }
}
