import Foundation

/// Writes an asset's edit inside a batch's transaction: the earlier edit's rows (render and
/// adjustment data) go, and an applied edit's rows are added after the asset's other resources.
/// The original resources are never touched; the asset's derivative jobs are queued again.
struct EditWriter {
    let writer: any CatalogWriter

    /// Applies or reverts `edit` on `asset` (`prepared` holds an applied edit's stored files) and
    /// hands the digests of the removed rows to `released` (removed from the store after the
    /// commit when nothing uses them any more). Returns whether any row changed.
    func write(
        _ edit: EditChange, prepared: PreparedEdit?, to asset: Asset, presence: StorePresence,
        released: ([ContentDigest]) -> Void
    ) throws(LibraryError) -> Bool {
        let identifier = asset.localIdentifier
        let resources = try writer.resources(ofAsset: identifier)
        var rows: [(AssetResourceType, PreparedEdit.Part)] = []
        if case .apply = edit {
            guard let prepared else { throw .invalidRequest("the edit of asset \(identifier) was not prepared") }
            rows = try prepared.rows(for: asset, resources: resources)
            for (_, part) in rows where !presence.contains(part.stored.digest) { throw .resourceMissing(part.stored.digest) }
        }
        let removed = try writer.deleteResources(ofAsset: identifier, types: AssetResourceType.editTypes)
        released(removed)
        var ordinal = (resources.map(\.ordinal).max() ?? -1) + 1
        for (type, part) in rows {
            try writer.insertResource(
                LibraryAssetResource(
                    assetLocalIdentifier: identifier, ordinal: ordinal, type: type, digest: part.stored.digest,
                    size: part.stored.size, originalFilename: part.originalFilename,
                    uniformTypeIdentifier: part.uniformTypeIdentifier))
            ordinal += 1
        }
        guard !removed.isEmpty || !rows.isEmpty else { return false }
        // The version shown changed (the new render, or the original again): its derivatives are
        // made again, queued with the rows so a crash after the commit loses no job.
        try writer.enqueueDerivativeJobs(assetIdentifier: identifier, kinds: DerivativeJobKind.kinds(of: asset))
        return true
    }
}
