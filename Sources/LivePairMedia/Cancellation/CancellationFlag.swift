import Synchronization

/// A thread-safe, one-way cancellation switch shared between a caller and a running decode.
///
/// Decoders cannot interrupt a C call in progress; they poll the flag between stages (between
/// tiles, before transforms) and throw `MediaError.cancelled` once it is set.
///
/// The flag also counts the pieces of work begun under it (a packet handed to a video decoder,
/// a HEIC tile), whether or not anyone checked the flag first: how many began after `cancel()` is
/// what tests check to see that cancelled work stops (at most the pieces whose check had passed
/// when the flag was set: one for each thread doing the work).
public final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)
    /// Pieces noted by `notePieceBegun()`.
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

    /// Counts a piece of work that cannot be interrupted once begun, as it begins (after the
    /// check of the flag that precedes it).
    func notePieceBegun() { pieces.add(1, ordering: .sequentiallyConsistent) }

    /// How many pieces of work began under this flag (`notePieceBegun()`).
    var piecesBegun: Int { pieces.load(ordering: .sequentiallyConsistent) }

    /// How many of them began after `cancel()`: 0 before it, and after it at most one for each
    /// thread that had passed its check when the flag was set.
    var piecesBegunAfterCancel: Int {
        let atCancel = piecesAtCancel.load(ordering: .sequentiallyConsistent)
        return atCancel < 0 ? 0 : pieces.load(ordering: .sequentiallyConsistent) - atCancel
    }
}
