import LivePairLibrary
import Synchronization

/// Positions in one owner's own changes: what `GET /v1/changes` hands out as `since`/`next` and
/// as event IDs. A position is how many committed batches touched the owner's assets (deleted
/// ones included), so other owners' commits never move it: a token reveals nothing of anyone
/// else's activity. It is read from the catalog's change log alone, so it means the same on every
/// node and after a restart.
///
/// Each owner's batch sequence numbers are remembered in memory (one `Int64` per batch of theirs,
/// and how far the log was read), so a poll reads only the batches committed since; the first
/// request of an owner after a start reads the owner's whole log once.
final class OwnerChangePositions: Sendable {
    /// What is known of one owner's changes.
    private struct Known {
        /// The catalog sequence of each of the owner's batches, in order (position N follows the Nth).
        var sequences: [Int64] = []
        /// The change-log sequence read up to.
        var readThrough: Int64 = 0
    }

    /// The answer to a request from a position.
    struct Changes {
        /// The owner's assets created, changed and deleted after the position asked for.
        var inserted: [String] = []
        var updated: [String] = []
        var deleted: [String] = []
        /// The position to ask from next time.
        let next: Int64

        /// Nothing changed since.
        var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    private let library: PhotoLibrary
    private let known = Mutex<[String: Known]>([:])

    init(library: PhotoLibrary) { self.library = library }

    /// The owner's current position (where a client starting now begins).
    func current(owner: String) throws(LibraryError) -> Int64 {
        let known = try refreshed(owner: owner)
        return Int64(known.sequences.count)
    }

    /// The owner's changes after `position`, and the position that follows them. A position
    /// beyond the owner's changes (one this library never gave) waits for the owner to get there.
    func changes(after position: Int64, owner: String) throws(LibraryError) -> Changes {
        var start = known.withLock { $0[owner] ?? Known() }
        if position >= Int64(start.sequences.count) {
            // Nothing of the owner's known after the position: read only the log's new batches.
            let log = try library.changeLog(after: start.readThrough, owner: owner)
            let count = start.sequences.count + log.ownerSequences.count
            start = remember(owner: owner, prefix: start.sequences, from: start.readThrough, log: log)
            if position == Int64(count - log.ownerSequences.count) { return Self.changes(log, next: Int64(count)) }
            if position >= Int64(count) { return Changes(next: position) }
        }
        let from = position == 0 ? 0 : start.sequences[Int(position) - 1]
        let log = try library.changeLog(after: from, owner: owner)
        let prefix = Array(start.sequences.prefix(Int(position)))
        remember(owner: owner, prefix: prefix, from: from, log: log)
        return Self.changes(log, next: Int64(prefix.count + log.ownerSequences.count))
    }

    private static func changes(_ log: OwnerChangeLog, next: Int64) -> Changes {
        Changes(
            inserted: log.insertedAssetIdentifiers, updated: log.updatedAssetIdentifiers, deleted: log.deletedAssetIdentifiers,
            next: next)
    }

    /// What is known of the owner after reading the log's new batches.
    private func refreshed(owner: String) throws(LibraryError) -> Known {
        let start = known.withLock { $0[owner] ?? Known() }
        let log = try library.changeLog(after: start.readThrough, owner: owner)
        return remember(owner: owner, prefix: start.sequences, from: start.readThrough, log: log)
    }

    /// Records that the owner's batches up to `from` are `prefix` and those after it are the
    /// log's (kept when it reaches further than what is known already); returns what is known.
    @discardableResult
    private func remember(owner: String, prefix: [Int64], from: Int64, log: OwnerChangeLog) -> Known {
        let fresh = Known(sequences: prefix + log.ownerSequences, readThrough: max(from, log.latestSequence))
        return known.withLock { table in
            if let existing = table[owner], existing.readThrough >= fresh.readThrough { return existing }
            table[owner] = fresh
            return fresh
        }
    }
}
