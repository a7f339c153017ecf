import Foundation
import LivePair

extension Ingestor {
    /// Gives up waiting for the originals of the renders among `parts` (waiting edit parts, from
    /// `waitingEditParts()`): a group whose original never came (a folder holding only
    /// `IMG_E1234.HEIC` + `IMG_E1234.MOV`) becomes an asset of its own. The rendered still and
    /// movie of one group that carry the same content identifier are one Live Photo (`photo` +
    /// `pairedVideo`: the render's halves pair by their own identifier); a rendered still alone,
    /// or halves whose identifiers differ, a photo; a rendered movie alone a video.
    ///
    /// Adjustment data (`.AAE`) is not added: it describes an edit of an original the library
    /// does not have, and on an asset without a render it would make the render read as an
    /// original to re-apply the edit to; it keeps waiting (`library pending`), never dropped.
    /// Groups whose original has an asset already are left alone (their parts that did not fit it
    /// keep waiting). One transaction per asset made.
    ///
    /// - Returns: each part settled with its outcome: `accepted` (or `duplicate` when the bytes
    ///   were an asset's already), asset by asset in the order of their first part in `parts`,
    ///   each asset's still before its movie (whichever of the two arrived first).
    public func importWaitingRendersAlone(_ parts: [PendingUpload]) throws(LibraryError) -> [(PendingUpload, IngestOutcome)] {
        let renders = parts.filter { $0.type == .fullSizePhoto || $0.type == .fullSizePairedVideo }
        guard !renders.isEmpty else { return [] }
        // The group (lookup key) of every render, from its record.
        let groups = try library.readCatalog { (reader: any CatalogReader) throws(LibraryError) -> [String: [PendingUpload]] in
            var groups: [String: [PendingUpload]] = [:]
            for part in renders {
                let key = IngestRecords.pendingKey(owner: part.owner, digest: part.resource.digest, type: part.type)
                guard let group = try reader.record(namespace: IngestRecords.editNamespace, key: key)?.lookupKey else { continue }
                groups[group, default: []].append(part)
            }
            return groups
        }
        // Each asset made, with its parts in its own order (still, then movie).
        var made: [[(PendingUpload, IngestOutcome)]] = []
        var assetOfPart: [PendingUpload: Int] = [:]
        for group in groups.keys.sorted() {
            guard let members = groups[group] else { continue }
            for asset in try orphanAssets(members) {
                let outcome = try importOrphan(asset, group: group)
                guard outcome.localIdentifier != nil else { continue }
                for member in asset { assetOfPart[member.part] = made.count }
                made.append(asset.map { ($0.part, outcome) })
            }
        }
        // The assets in the order their first part has in `parts`.
        var reported = Set<Int>()
        return renders.flatMap { part -> [(PendingUpload, IngestOutcome)] in
            guard let index = assetOfPart[part], reported.insert(index).inserted else { return [] }
            return made[index]
        }
    }

    /// The assets a group's renders make: the first rendered still and movie (by name, then digest)
    /// together when their content identifiers agree, else each alone; further renders of a type
    /// keep waiting.
    private func orphanAssets(_ members: [PendingUpload]) throws(LibraryError) -> [[(part: PendingUpload, type: AssetResourceType)]] {
        let sorted = members.sorted(by: Self.linkOrder)
        let still = sorted.first { $0.type == .fullSizePhoto }
        let movie = sorted.first { $0.type == .fullSizePairedVideo }
        switch (still, movie) {
        case let (still?, movie?):
            let identification = StoredResourceIdentification(store: library.store, identifier: identifier, decodes: false)
            var identifiers: [String?] = []
            do throws(ResourceStoreError) {
                for (part, type) in [(still, AssetResourceType.photo), (movie, .pairedVideo)] {
                    identifiers.append(try identification.identify(part.resource, as: type, localCopy: nil).contentIdentifier?.rawValue)
                }
            } catch {
                throw .store(error)
            }
            if let first = identifiers[0], first == identifiers[1] { return [[(still, .photo), (movie, .pairedVideo)]] }
            return [[(still, .photo)], [(movie, .video)]]
        case let (still?, nil): return [[(still, .photo)]]
        case let (nil, movie?): return [[(movie, .video)]]
        case (nil, nil): return []
        }
    }

    /// Makes one asset of `parts` in one transaction, when every part is still waiting and the
    /// group's original has no asset; otherwise changes nothing (`pending`).
    private func importOrphan(_ parts: [(part: PendingUpload, type: AssetResourceType)], group: String) throws(LibraryError) -> IngestOutcome {
        let box = OutcomeBox()
        box.outcome = .pending(contentIdentifier: parts[0].part.contentIdentifier)
        let owner = parts[0].part.owner
        try library.performChangesAndWait(
            { _ in },
            inTransaction: { (transaction: CatalogTransaction) throws(LibraryError) in
                let catalog = transaction.catalog
                for record in try catalog.records(namespace: IngestRecords.editOriginNamespace, lookupKey: group) {
                    guard let digest = IngestRecords.editOriginDigest(record) else { continue }
                    if try !catalog.assetIdentifiers(owner: owner, withResource: digest, types: Self.originalTypes).isEmpty { return }
                }
                let keys = parts.map { IngestRecords.pendingKey(owner: $0.part.owner, digest: $0.part.resource.digest, type: $0.part.type) }
                for key in keys where try catalog.record(namespace: IngestRecords.editNamespace, key: key) == nil { return }
                try transaction.injectFault(.custom("ingest-import-render-alone"))
                let request = transaction.changes.creationRequestForAsset()
                request.owner = owner
                for (part, type) in parts {
                    request.addResource(
                        with: type, storedResource: part.resource,
                        options: AssetResourceCreationOptions(originalFilename: part.originalFilename))
                }
                for key in keys { try catalog.removeRecord(namespace: IngestRecords.editNamespace, key: key) }
                box.outcome = .rejected([])
            },
            afterApplying: { (_: CatalogTransaction, result: ChangeResult) throws(LibraryError) in
                guard case .rejected = box.outcome, let asset = result.assets.first else { return }
                box.outcome = asset.isExisting
                    ? .duplicate(localIdentifier: asset.localIdentifier) : .accepted(localIdentifier: asset.localIdentifier)
            })
        return box.outcome
    }
}
