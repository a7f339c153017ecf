/// One or more committed batches, as PhotoKit's `PHChange`: ask it how a fetch result changed.
public struct LibraryChange: Sendable {
    /// The change-log sequence numbers covered (first to last committed batch).
    public let sequences: ClosedRange<Int64>
    /// Assets created.
    public let insertedAssetIdentifiers: Set<String>
    /// Assets whose properties changed.
    public let updatedAssetIdentifiers: Set<String>
    /// Assets deleted.
    public let deletedAssetIdentifiers: Set<String>
    /// Albums created, changed or deleted (membership included).
    public let changedCollectionIdentifiers: Set<String>

    /// The change the library's catalog recorded for `changes` (oldest first, not empty).
    init(_ changes: [CatalogChange]) {
        sequences = (changes.first?.sequence ?? 0)...(changes.last?.sequence ?? 0)
        var inserted: Set<String> = []
        var updated: Set<String> = []
        var deleted: Set<String> = []
        var collections: Set<String> = []
        for change in changes {
            for identifier in change.insertedAssets {
                inserted.insert(identifier)
                deleted.remove(identifier)
            }
            for identifier in change.updatedAssets where !inserted.contains(identifier) { updated.insert(identifier) }
            for identifier in change.deletedAssets {
                if inserted.remove(identifier) == nil { deleted.insert(identifier) }
                updated.remove(identifier)
            }
            collections.formUnion(change.changedCollections)
        }
        insertedAssetIdentifiers = inserted
        updatedAssetIdentifiers = updated
        deletedAssetIdentifiers = deleted
        changedCollectionIdentifiers = collections
    }

    /// How `fetchResult` changed: it is fetched again and compared. Nil when nothing in it changed
    /// (or the fetch cannot be run again).
    public func changeDetails(for fetchResult: FetchResult<Asset>) -> FetchResultChangeDetails<Asset>? {
        guard let after = try? fetchResult.refetch() else { return nil }
        let details = FetchResultChangeDetails(
            before: fetchResult, after: after, changedIdentifiers: updatedAssetIdentifiers)
        return details.hasChanges ? details : nil
    }

    /// How an album fetch result changed. Nil when nothing in it changed.
    public func changeDetails(for fetchResult: FetchResult<AssetCollection>) -> FetchResultChangeDetails<AssetCollection>? {
        guard let after = try? fetchResult.refetch() else { return nil }
        let details = FetchResultChangeDetails(
            before: fetchResult, after: after, changedIdentifiers: changedCollectionIdentifiers)
        return details.hasChanges ? details : nil
    }

    /// True when `asset` was changed (properties) or deleted by these batches.
    public func affects(_ asset: Asset) -> Bool {
        updatedAssetIdentifiers.contains(asset.localIdentifier) || deletedAssetIdentifiers.contains(asset.localIdentifier)
    }
}
