public import Foundation

/// How a fetch result changed, as PhotoKit's `PHFetchResultChangeDetails`, in the order a table or
/// collection view applies it in one batch update:
///
/// 1. delete the rows at `removedIndexes` (indexes into `fetchResultBeforeChanges`);
/// 2. insert rows at `insertedIndexes` (indexes into `fetchResultAfterChanges`);
/// 3. reload the rows at `changedIndexes` (indexes into `fetchResultAfterChanges`);
/// 4. apply `enumerateMoves`: each move's `from` is the object's index after steps 1 and 2 (the
///    "intermediate" list: the before list with removals taken out and insertions put in at their
///    after indexes, the objects that stayed filling the other places in their old order) and `to`
///    its index in `fetchResultAfterChanges`.
///
/// The moves apply all at once, as in a batch update: the moved objects take their `to` places, the
/// inserted objects their after indexes, and the other objects fill the remaining places in their
/// relative order, which gives the after list. As few objects as
/// possible move (those outside a longest run that kept its order).
public struct FetchResultChangeDetails<Element: FetchableObject>: Sendable {
    /// The fetch result the observer held.
    public let fetchResultBeforeChanges: FetchResult<Element>
    /// The same fetch run after the change.
    public let fetchResultAfterChanges: FetchResult<Element>
    /// Indexes in the before result of objects no longer in the result.
    public let removedIndexes: IndexSet
    /// Indexes in the after result of objects new to the result.
    public let insertedIndexes: IndexSet
    /// Indexes in the after result of objects that stayed and whose properties changed.
    public let changedIndexes: IndexSet
    /// The moves, by target index (see the type's documentation).
    public let moves: [(from: Int, to: Int)]

    /// Always true: the change log records every change, so details are always incremental.
    public var hasIncrementalChanges: Bool { true }
    /// True when some objects moved.
    public var hasMoves: Bool { !moves.isEmpty }
    /// The objects removed (as the before result read them).
    public var removedObjects: [Element] { removedIndexes.map { fetchResultBeforeChanges[$0] } }
    /// The objects inserted.
    public var insertedObjects: [Element] { insertedIndexes.map { fetchResultAfterChanges[$0] } }
    /// The objects changed (as they are now).
    public var changedObjects: [Element] { changedIndexes.map { fetchResultAfterChanges[$0] } }

    /// Calls `body` with each move, in order.
    public func enumerateMoves(_ body: (_ fromIndex: Int, _ toIndex: Int) -> Void) {
        for move in moves { body(move.from, move.to) }
    }

    /// True when anything changed.
    var hasChanges: Bool { !removedIndexes.isEmpty || !insertedIndexes.isEmpty || !changedIndexes.isEmpty || !moves.isEmpty }

    /// Compares `before` with `after`; objects in both whose identifiers are in `changedIdentifiers` count as changed.
    init(before: FetchResult<Element>, after: FetchResult<Element>, changedIdentifiers: Set<String>) {
        fetchResultBeforeChanges = before
        fetchResultAfterChanges = after
        let diff = OrderedDiff(before: before.localIdentifiers, after: after.localIdentifiers)
        removedIndexes = IndexSet(diff.removed)
        insertedIndexes = IndexSet(diff.inserted)
        let beforeSet = Set(before.localIdentifiers)
        changedIndexes = IndexSet(
            after.localIdentifiers.indices.filter {
                let identifier = after.localIdentifiers[$0]
                return beforeSet.contains(identifier) && changedIdentifiers.contains(identifier)
            })
        moves = diff.moves
    }
}
