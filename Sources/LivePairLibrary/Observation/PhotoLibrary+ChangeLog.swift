import Foundation

/// The assets one owner saw change after a change-log sequence number: what a client that polls
/// (`GET /v1/changes?since=`) needs, without registering an observer.
public struct OwnerChangeLog: Sendable, Equatable {
    /// The sequence number to ask from next time (the last committed batch looked at).
    public let latestSequence: Int64
    /// The owner's assets created since (and not deleted again).
    public let insertedAssetIdentifiers: [String]
    /// The owner's assets whose properties changed since.
    public let updatedAssetIdentifiers: [String]
    /// The owner's assets deleted since.
    public let deletedAssetIdentifiers: [String]
    /// The sequence numbers of the batches read that touched the owner's assets, in order (a
    /// count of them makes a position in the owner's own changes that other owners' commits never move).
    public var ownerSequences: [Int64] = []

    /// True when nothing of the owner's changed.
    public var isEmpty: Bool {
        insertedAssetIdentifiers.isEmpty && updatedAssetIdentifiers.isEmpty && deletedAssetIdentifiers.isEmpty
    }
}

extension PhotoLibrary {
    /// The changes to `owner`'s assets committed after `sequence` (by any process), read from the
    /// catalog's change log; assets of other owners are left out, deleted ones included.
    public func changeLog(after sequence: Int64, owner: String?) throws(LibraryError) -> OwnerChangeLog {
        try catalog.read { (reader: any CatalogReader) throws(LibraryError) -> OwnerChangeLog in
            let latest = try reader.latestChangeSequence()
            let changes = try reader.changes(after: sequence)
            guard !changes.isEmpty else {
                return OwnerChangeLog(
                    latestSequence: max(latest, sequence), insertedAssetIdentifiers: [], updatedAssetIdentifiers: [],
                    deletedAssetIdentifiers: [], ownerSequences: [])
            }
            let summary = LibraryChange(changes)
            // Every asset a batch names (one created and deleted again in the range is in no summary
            // list, but its batches are still the owner's).
            let all = Set(changes.flatMap { $0.insertedAssets + $0.updatedAssets + $0.deletedAssets })
            let assets = try reader.assets(withIdentifiers: Array(all), includingDeleted: true)
            let owned: (Set<String>) -> [String] = { identifiers in
                identifiers.filter { owner == nil || assets[$0]?.owner == owner }.sorted()
            }
            let ownerSequences = changes.filter { change in
                (change.insertedAssets + change.updatedAssets + change.deletedAssets).contains {
                    owner == nil || assets[$0]?.owner == owner
                }
            }.map(\.sequence)
            return OwnerChangeLog(
                latestSequence: changes.last?.sequence ?? latest,
                insertedAssetIdentifiers: owned(summary.insertedAssetIdentifiers),
                updatedAssetIdentifiers: owned(summary.updatedAssetIdentifiers),
                deletedAssetIdentifiers: owned(summary.deletedAssetIdentifiers), ownerSequences: ownerSequences)
        }
    }
}
