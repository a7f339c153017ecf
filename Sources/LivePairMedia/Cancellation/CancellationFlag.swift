import Synchronization

/// A thread-safe, one-way cancellation switch shared between a caller and a running decode.
///
/// Decoders cannot interrupt a C call in progress; they poll the flag between stages (between
/// tiles, before transforms) and throw `MediaError.cancelled` once it is set.
///
/// The flag also counts the pieces of work begun under it (a packet handed to a video decoder,
/// a HEIC tile): how many began after `cancel()` is what tests check to see that cancelled work
/// stops (at most the pieces that had passed their check when the flag was set).
public final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)
    /// Pieces begun through `beginPiece()`.
    private let pieces = Atomic<Int>(0)
    /// `pieces` when `cancel()` was first called; -1 before.
    private let piecesAtCancel = Atomic<Int>(-1)

    /// A flag that is not cancelled.
    public init() {}

    /// Sets the flag. Idempotent; safe from any thread.
    public func cancel() {
        _ = piecesAtCancel.compareExchange(
            expected: -1, desired: pieces.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
        state.store(true, ordering: .sequentiallyConsistent)
    }

    /// True once `cancel()` has been called.
    public var isCancelled: Bool { state.load(ordering: .acquiring) }

    /// The check before a piece of work that cannot be interrupted once begun: true when the flag
    /// is set (the piece must not begin); otherwise counts the piece and returns false.
    func beginPiece() -> Bool {
        if state.load(ordering: .sequentiallyConsistent) { return true }
        pieces.add(1, ordering: .sequentiallyConsistent)
        return false
    }

    /// How many pieces of work began under this flag (`beginPiece()`).
    var piecesBegun: Int { pieces.load(ordering: .sequentiallyConsistent) }

    /// How many of them began after `cancel()`: 0 before it, and after it at most one for each
    /// thread that had passed its check when the flag was set.
    var piecesBegunAfterCancel: Int {
        let atCancel = piecesAtCancel.load(ordering: .sequentiallyConsistent)
        return atCancel < 0 ? 0 : pieces.load(ordering: .sequentiallyConsistent) - atCancel
    }
}
