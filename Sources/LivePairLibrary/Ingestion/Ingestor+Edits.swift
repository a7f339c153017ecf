import Foundation
import LivePair

extension Ingestor {
    /// What the transaction decided for a part of an edit (a render or an `.AAE`).
    enum EditDecision {
        /// Waiting for its original's asset, under the group's name (`edit:<stem>`).
        case pending(group: String)
        /// Added to the asset of its original.
        case attached(String)
        /// Already in an asset of this owner.
        case duplicate(String)
    }

    /// The name pending outcomes of an edit group's parts carry: `edit:` and the group's stem.
    static func editGroupName(stem: String) -> String { "edit:" + stem }

    /// The resource types that hold an original (what an edit's original-record names).
    static let originalTypes: [AssetResourceType] = [.photo, .pairedVideo, .video]

    /// Decides a render or `.AAE` inside the group's transaction: already in its original's asset
    /// (a retry), added to that asset when it exists, else kept waiting (an `ingest.edit` record
    /// keeps its file) until the original's asset is made.
    func decideEditPart(
        _ member: IngestMember, type: AssetResourceType, groupKey: String, stem: String, in transaction: CatalogTransaction
    ) throws(LibraryError) -> EditDecision {
        let catalog = transaction.catalog
        let upload = member.upload
        // The asset of the group's original, when it is made already.
        var original: String?
        for record in try catalog.records(namespace: IngestRecords.editOriginNamespace, lookupKey: groupKey) {
            guard let digest = IngestRecords.editOriginDigest(record) else { continue }
            original = try catalog.assetIdentifiers(owner: upload.owner, withResource: digest, types: Self.originalTypes).first
            if original != nil { break }
        }
        // The same bytes again (a retry or re-upload) in that asset.
        if let original, try catalog.resources(ofAsset: original).contains(where: { $0.digest == upload.resource.digest }) {
            return .duplicate(original)
        }
        let part = PendingUpload(
            owner: upload.owner, contentIdentifier: Self.editGroupName(stem: stem), type: type, resource: upload.resource,
            originalFilename: upload.originalFilename, uploadID: upload.uploadID, receivedAt: member.receivedAt)
        try transaction.injectFault(.custom("ingest-edit-record"))
        try catalog.putRecord(IngestRecords.editRecord(for: part, groupKey: groupKey))
        if let original,
            try attachWaitingEdits(groupKeys: [groupKey], owner: upload.owner, to: original, in: transaction)
                .contains(upload.resource.digest)
        {
            return .attached(original)
        }
        return .pending(group: Self.editGroupName(stem: stem))
    }

    /// Records that the original upload of `member` belongs to its edit group, so a render or
    /// `.AAE` arriving later finds its asset.
    func recordEditOriginal(_ member: IngestMember, in transaction: CatalogTransaction) throws(LibraryError) {
        guard let groupKey = member.editGroupKey else { return }
        try transaction.catalog.putRecord(
            IngestRecords.editOriginRecord(owner: member.upload.owner, digest: member.upload.resource.digest, groupKey: groupKey))
    }

    /// Adds to asset `identifier` (just made or completed) the waiting parts of the edit groups its
    /// original resources belong to. Returns the digests added.
    @discardableResult
    func attachWaitingEdits(toAsset identifier: String, owner: String, in transaction: CatalogTransaction) throws(LibraryError)
        -> Set<ContentDigest>
    {
        var keys: [String] = []
        for resource in try transaction.catalog.resources(ofAsset: identifier) where Self.originalTypes.contains(resource.type) {
            let key = IngestRecords.editOriginKey(owner: owner, digest: resource.digest)
            if let groupKey = try transaction.catalog.record(namespace: IngestRecords.editOriginNamespace, key: key)?.lookupKey,
                !keys.contains(groupKey)
            {
                keys.append(groupKey)
            }
        }
        return try attachWaitingEdits(groupKeys: keys, owner: owner, to: identifier, in: transaction)
    }

    /// Adds the waiting parts of the groups `groupKeys` to asset `identifier`: a rendered still to
    /// a photo (`.fullSizePhoto`), a rendered movie to a Live Photo (`.fullSizePairedVideo`) or a
    /// video (`.fullSizeVideo`), adjustment data; at most one of each type (of several candidates
    /// the first by name, then digest), the rest keep waiting. Logs the asset as changed and
    /// queues its derivative jobs again (the version shown is now the render).
    private func attachWaitingEdits(
        groupKeys: [String], owner: String, to identifier: String, in transaction: CatalogTransaction
    ) throws(LibraryError) -> Set<ContentDigest> {
        guard !groupKeys.isEmpty else { return [] }
        let catalog = transaction.catalog
        var parts: [PendingUpload] = []
        for key in groupKeys {
            parts += try catalog.records(namespace: IngestRecords.editNamespace, lookupKey: key)
                .compactMap(IngestRecords.editPart).filter { $0.owner == owner }
        }
        guard !parts.isEmpty else { return [] }
        let resources = try catalog.resources(ofAsset: identifier)
        var types = Set(resources.map(\.type))
        var ordinal = (resources.map(\.ordinal).max() ?? -1) + 1
        var attached: Set<ContentDigest> = []
        let identification = StoredResourceIdentification(store: transaction.store, identifier: self.identifier, decodes: false)
        for part in parts.sorted(by: Self.linkOrder) {
            guard let type = Self.editType(of: part.type, on: types), !types.contains(type) else { continue }
            guard transaction.isStored(part.resource.digest) else { throw .resourceMissing(part.resource.digest) }
            var typeIdentifier = "com.apple.photos.adjustment-data"
            if type.isStill || type.isMovie {
                do throws(ResourceStoreError) {
                    let identity = try identification.identify(part.resource, as: type, localCopy: nil)
                    typeIdentifier = UniformTypeIdentifiers.identifier(for: identity.format) ?? typeIdentifier
                } catch {
                    throw .store(error)
                }
            }
            try transaction.injectFault(.custom("ingest-attach-edit"))
            try catalog.insertResource(
                LibraryAssetResource(
                    assetLocalIdentifier: identifier, ordinal: ordinal, type: type, digest: part.resource.digest,
                    size: part.resource.size, originalFilename: part.originalFilename, uniformTypeIdentifier: typeIdentifier))
            try catalog.removeRecord(
                namespace: IngestRecords.editNamespace,
                key: IngestRecords.pendingKey(owner: part.owner, digest: part.resource.digest, type: part.type))
            ordinal += 1
            types.insert(type)
            attached.insert(part.resource.digest)
        }
        if !attached.isEmpty {
            // The current version is now the render: its derivatives are made (again).
            if let asset = try catalog.assets(withIdentifiers: [identifier], includingDeleted: false)[identifier] {
                try catalog.enqueueDerivativeJobs(assetIdentifier: identifier, kinds: DerivativeJobKind.kinds(of: asset))
            }
            _ = try catalog.appendChange(
                insertedAssets: [], updatedAssets: [identifier], deletedAssets: [], changedCollections: [], committedAt: Date())
        }
        return attached
    }

    /// The type a waiting part of type `type` takes on an asset with resources of `types`; nil
    /// when it does not fit (a rendered movie for a plain photo, a rendered still for a video).
    private static func editType(of type: AssetResourceType, on types: Set<AssetResourceType>) -> AssetResourceType? {
        switch type {
        case .fullSizePhoto:
            return types.contains(.photo) ? .fullSizePhoto : nil
        case .fullSizePairedVideo:
            if types.contains(.pairedVideo) { return .fullSizePairedVideo }
            return types.contains(.video) && !types.contains(.photo) ? .fullSizeVideo : nil
        default:
            return type
        }
    }
}

extension Ingestor {
    /// What became of an edit part uploaded as `name` from `folder` by `owner` (a render or `.AAE`
    /// whose upload was answered `pending` with an `edit:` name): still `pending`, or `accepted`
    /// into the asset of its original since; nil when `name` is no edit part found here.
    public func editPartOutcome(named name: String, folder: String?, owner: String) throws(LibraryError) -> IngestOutcome? {
        guard
            let editName = IngestEditName(fileName: name, isAdjustmentData: name.lowercased().hasSuffix(".aae")),
            editName.part != .original
        else { return nil }
        let groupKey = editName.groupKey(owner: owner, folder: folder)
        return try library.readCatalog { (reader: any CatalogReader) throws(LibraryError) -> IngestOutcome? in
            let waiting = try reader.records(namespace: IngestRecords.editNamespace, lookupKey: groupKey)
                .compactMap(IngestRecords.editPart)
            if waiting.contains(where: { $0.owner == owner && $0.originalFilename == name }) {
                return .pending(contentIdentifier: Self.editGroupName(stem: editName.stem))
            }
            for record in try reader.records(namespace: IngestRecords.editOriginNamespace, lookupKey: groupKey) {
                guard let digest = IngestRecords.editOriginDigest(record) else { continue }
                for identifier in try reader.assetIdentifiers(owner: owner, withResource: digest, types: Self.originalTypes)
                where try reader.resources(ofAsset: identifier).contains(where: {
                    $0.originalFilename == name && ($0.type.isEdit || $0.type == .originalAdjustmentData)
                }) {
                    return .accepted(localIdentifier: identifier)
                }
            }
            return nil
        }
    }

    /// The renders and `.AAE` files waiting for their original's asset (of `owner` when given),
    /// oldest first; `contentIdentifier` holds their group's name (`edit:<stem>`).
    public func waitingEditParts(owner: String? = nil) throws(LibraryError) -> [PendingUpload] {
        try library.readCatalog { (reader: any CatalogReader) throws(LibraryError) in
            try reader.records(namespace: IngestRecords.editNamespace)
        }.compactMap(IngestRecords.editPart).filter { owner == nil || $0.owner == owner }
            .sorted { ($0.receivedAt, $0.resource.digest.hex) < ($1.receivedAt, $1.resource.digest.hex) }
    }
}
