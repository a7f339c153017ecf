/// The difference between two lists of unique identifiers: removals (before indexes), insertions
/// (after indexes) and moves (see `FetchResultChangeDetails`).
struct OrderedDiff {
    /// Indexes in `before` of identifiers not in `after`.
    let removed: [Int]
    /// Indexes in `after` of identifiers not in `before`.
    let inserted: [Int]
    /// Moves from the intermediate list (before, minus removals, plus insertions) to `after`, all at once.
    let moves: [(from: Int, to: Int)]

    init(before: [String], after: [String]) {
        let afterSet = Set(after)
        let beforeSet = Set(before)
        removed = before.indices.filter { !afterSet.contains(before[$0]) }
        inserted = after.indices.filter { !beforeSet.contains(after[$0]) }

        // The objects in both lists, in before order, and their positions in the after list.
        let kept = before.filter { afterSet.contains($0) }
        let afterPosition = Dictionary(uniqueKeysWithValues: after.enumerated().map { ($1, $0) })
        let staying = Set(Self.longestIncreasingRun(kept.map { afterPosition[$0]! }).map { kept[$0] })

        // The intermediate list: inserted objects at their after indexes, kept objects filling the
        // other slots in before order.
        var intermediate: [String] = []
        intermediate.reserveCapacity(after.count)
        var keptIterator = kept.makeIterator()
        let insertedSet = Set(inserted)
        for index in after.indices {
            intermediate.append(insertedSet.contains(index) ? after[index] : keptIterator.next()!)
        }

        // Every object outside the longest run moves from its intermediate index to its after index.
        let intermediateIndex = Dictionary(uniqueKeysWithValues: intermediate.enumerated().map { ($1, $0) })
        var moves: [(from: Int, to: Int)] = []
        for (target, identifier) in after.enumerated() where beforeSet.contains(identifier) && !staying.contains(identifier) {
            moves.append((intermediateIndex[identifier]!, target))
        }
        self.moves = moves
    }

    /// The indexes (into `values`) of one longest strictly increasing subsequence.
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            run.append(cursor)
            cursor = previous[cursor]
        }
        return run.reversed()
    }
}
