import Foundation
import LivePair
import LivePairFormats

extension Ingestor {
    /// What the transaction decided for a Live Photo half.
    enum HalfDecision {
        /// Already in an asset of this owner.
        case duplicate(String)
        /// Kept (or already kept) as pending.
        case pending
        /// Linked with this partner into the batch's creation request.
        case linked(partner: PendingUpload)
        /// Added to an asset that had only the other half (imported alone earlier).
        case attached(String)
        /// Refused.
        case rejected([Finding])
    }

    /// The decision for `half`, made and written inside `transaction` (one write transaction,
    /// serialized with every other upload of every process, so two halves arriving at the same
    /// moment cannot both miss each other).
    func decide(_ half: PendingUpload, upload: Upload, in transaction: CatalogTransaction) throws(LibraryError) -> HalfDecision {
        let catalog = transaction.catalog
        let digest = half.resource.digest
        let halfWord = half.type == .photo ? "still" : "movie"

        // 1. The owner's assets with this identifier: the same bytes (a retry or re-upload), a
        //    conflicting half, or an asset made from the other half alone that this half completes.
        let query = AssetQuery(
            scope: .all,
            options: FetchOptions(
                predicate: .and([.owner(half.owner), .contentIdentifier(half.contentIdentifier)]), includeHiddenAssets: true))
        let assetIdentifiers = try catalog.assetIdentifiers(matching: query)
        var assetResources: [(String, [LibraryAssetResource])] = []
        // The same bytes in any of them first: a re-upload is a duplicate even when another asset
        // holds a different half with the identifier (two stills sharing one, each imported alone).
        for identifier in assetIdentifiers {
            let resources = try catalog.resources(ofAsset: identifier)
            if resources.contains(where: { $0.digest == digest }) { return .duplicate(identifier) }
            assetResources.append((identifier, resources))
        }
        var completable: (String, [LibraryAssetResource])?
        for (identifier, resources) in assetResources {
            let sameHalf = resources.contains { half.type == .photo ? $0.type.isStill : $0.type.isMovie }
            if sameHalf {
                return .rejected([
                    Finding(
                        .ambiguousPair, path: upload.name,
                        message: "\(upload.name) is a \(halfWord) with the content identifier \(half.contentIdentifier), "
                            + "but asset \(identifier) of this owner already has a different \(halfWord) with it")
                ])
            }
            // A movie completes an asset made from its still alone, a still one made from its movie alone.
            if resources.contains(where: { half.type == .photo ? $0.type == .video : $0.type == .photo }) {
                completable = (identifier, resources)
            }
        }
        if let (identifier, resources) = completable {
            try attach(half, to: identifier, resources: resources, upload: upload, in: transaction)
            return .attached(identifier)
        }

        // 2. Pending halves of this owner with this identifier.
        let waiting = try catalog.records(
            namespace: IngestRecords.pendingNamespace,
            lookupKey: IngestRecords.pairingKey(owner: half.owner, contentIdentifier: half.contentIdentifier)
        ).compactMap(IngestRecords.pendingUpload).filter { $0.owner == half.owner }
        if waiting.contains(where: { $0.resource.digest == digest && $0.type == half.type }) { return .pending }
        // Another half of the same kind waiting (two stills with one identifier) does not refuse
        // this one: both wait, whatever order they came in. Of several waiting partners the one
        // linked does not depend on arrival order either: the first by name, then by digest.
        if let partner = waiting.filter({ $0.type != half.type }).min(by: Self.linkOrder) {
            guard transaction.isStored(partner.resource.digest) else { throw .resourceMissing(partner.resource.digest) }
            try transaction.injectFault(.custom("ingest-link-pair"))
            let (photo, video) = half.type == .photo ? (half, partner) : (partner, half)
            let request = transaction.changes.creationRequestForAsset()
            request.owner = half.owner
            for (type, resource) in [(AssetResourceType.photo, photo), (.pairedVideo, video)] {
                let arriving = resource.resource.digest == upload.resource.digest
                request.addResource(
                    with: type, storedResource: resource.resource, options: options(for: resource, upload: upload),
                    localCopy: arriving ? upload.localCopy : nil)
            }
            try transaction.injectFault(.custom("ingest-clear-pending"))
            try catalog.removeRecord(
                namespace: IngestRecords.pendingNamespace,
                key: IngestRecords.pendingKey(owner: partner.owner, digest: partner.resource.digest, type: partner.type))
            return .linked(partner: partner)
        }

        // 3. No partner yet: keep it.
        try transaction.injectFault(.custom("ingest-pending-record"))
        try catalog.putRecord(IngestRecords.record(for: half))
        return .pending
    }

    /// The order in which waiting halves of one kind are linked: by original filename (none last),
    /// then by digest; never by arrival, so the outcome depends only on what arrived.
    static func linkOrder(_ lhs: PendingUpload, _ rhs: PendingUpload) -> Bool {
        switch (lhs.originalFilename, rhs.originalFilename) {
        case let (left?, right?) where left != right: return left < right
        case (.some, nil): return true
        case (nil, .some): return false
        default: return lhs.resource.digest.hex < rhs.resource.digest.hex
        }
    }

    /// The creation options of one half: the upload's for the arriving half, the pending record's
    /// for the partner (its type identifier comes from its identification when the asset is made).
    private func options(for half: PendingUpload, upload: Upload) -> AssetResourceCreationOptions {
        if half.resource.digest == upload.resource.digest { return upload.creationOptions }
        return AssetResourceCreationOptions(originalFilename: half.originalFilename)
    }

    /// Adds a late half to an asset made from the other half alone (a movie to a still, or a still
    /// to a movie, either imported alone by `importPendingAlone`): validates the pair (refused only
    /// for findings that reject uploads), adds the half's row (a joining still takes the movie's
    /// place as the asset's first resource and the movie becomes its `.pairedVideo`), makes the
    /// asset a Live Photo with the pair's findings and still-image time, and logs the change.
    private func attach(
        _ half: PendingUpload, to assetIdentifier: String, resources: [LibraryAssetResource], upload: Upload,
        in transaction: CatalogTransaction
    ) throws(LibraryError) {
        let stillArrives = half.type == .photo
        guard let partner = resources.first(where: { stillArrives ? $0.type == .video : $0.type == .photo }),
            var asset = try transaction.catalog.assets(withIdentifiers: [assetIdentifier], includingDeleted: false)[assetIdentifier]
        else { throw .notFound(localIdentifier: assetIdentifier) }
        let deep = library.configuration.deepValidation
        let identification = StoredResourceIdentification(store: transaction.store, identifier: identifier, decodes: deep)
        let arriving: ResourceIdentity, existing: ResourceIdentity
        do throws(ResourceStoreError) {
            existing = try identification.identify(
                StoredResource(digest: partner.digest, size: partner.size), as: stillArrives ? .pairedVideo : .photo, localCopy: nil)
            arriving = try identification.identify(half.resource, as: half.type, localCopy: upload.localCopy)
        } catch {
            throw .store(error)
        }
        let partnerName = partner.originalFilename ?? (stillArrives ? "the movie" : "the still")
        let arrivingHalf = PreparedCreation.NamedIdentity(
            identity: arriving, name: upload.name, isOriginalFilename: upload.originalFilename != nil)
        let existingHalf = PreparedCreation.NamedIdentity(
            identity: existing, name: partnerName, isOriginalFilename: partner.originalFilename != nil)
        let (photo, video) = stillArrives ? (arrivingHalf, existingHalf) : (existingHalf, arrivingHalf)
        // Refused only for findings that reject uploads; the others stay on the asset.
        let assessment = try PreparedCreation.assess(
            photo: photo, pairedVideo: video, others: [], validator: Validator(options: ValidationOptions(deep: deep)),
            names: [photo.identity.path: photo.name, video.identity.path: video.name])
        let nextOrdinal = (resources.map(\.ordinal).max() ?? -1) + 1
        var ordinal = nextOrdinal
        if stillArrives {
            try transaction.injectFault(.custom("ingest-attach-still"))
            try transaction.catalog.moveResource(ofAsset: assetIdentifier, ordinal: partner.ordinal, to: nextOrdinal, type: .pairedVideo)
            ordinal = partner.ordinal
            asset.mediaType = .image
            asset.pixelWidth = arriving.width ?? asset.pixelWidth
            asset.pixelHeight = arriving.height ?? asset.pixelHeight
        } else {
            try transaction.injectFault(.custom("ingest-attach-movie"))
        }
        try transaction.catalog.insertResource(
            LibraryAssetResource(
                assetLocalIdentifier: assetIdentifier, ordinal: ordinal, type: half.type, digest: half.resource.digest,
                size: half.resource.size, originalFilename: upload.originalFilename,
                uniformTypeIdentifier: upload.uniformTypeIdentifier))
        asset.mediaSubtypes.insert(.photoLive)
        asset.duration = video.identity.duration ?? asset.duration
        asset.stillImageTime = assessment.stillImageTime
        asset.findings = assessment.findings
        // Ingested assets are dated and placed by their files: the movie may give the still's UTC offset.
        asset.creationDate = PreparedCreation.captureDate(photo: photo.identity, movie: video.identity) ?? asset.creationDate
        asset.location = asset.location ?? PreparedCreation.location(photo: photo.identity, movie: video.identity)
        try transaction.catalog.updateAsset(asset)
        // Its resources changed: its derivatives are made again (from the new pair).
        try transaction.catalog.enqueueDerivativeJobs(assetIdentifier: assetIdentifier, kinds: DerivativeJobKind.kinds(of: asset))
        _ = try transaction.catalog.appendChange(
            insertedAssets: [], updatedAssets: [assetIdentifier], deletedAssets: [], changedCollections: [],
            committedAt: Date())
    }

    /// Removes a stored upload that nothing uses (a rejected half), under the catalog's write lock.
    func releaseIfUnused(_ digest: ContentDigest) {
        library.executor.removeUnreferenced([digest], injectingFaults: false)
    }
}
