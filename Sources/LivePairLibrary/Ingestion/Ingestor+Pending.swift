import Foundation

extension Ingestor {
    /// Pending halves (stored, waiting for their partner) that arrived at least `age` seconds ago
    /// (`options.pendingMaximumAge` when nil; 0 lists all), oldest first; only `owner`'s when given.
    public func pendingUploads(olderThan age: Double? = nil, owner: String? = nil) throws(LibraryError) -> [PendingUpload] {
        let cutoff = Date().addingTimeInterval(-(age ?? options.pendingMaximumAge))
        let records = try library.readCatalog { (reader: any CatalogReader) throws(LibraryError) in
            age == 0
                ? try reader.records(namespace: IngestRecords.pendingNamespace)
                : try reader.records(namespace: IngestRecords.pendingNamespace, olderThan: cutoff)
        }
        return records.compactMap(IngestRecords.pendingUpload)
            .filter { owner == nil || $0.owner == owner }
            .sorted { ($0.receivedAt, $0.resource.digest.hex) < ($1.receivedAt, $1.resource.digest.hex) }
    }

    /// Gives up waiting for the partners of `uploads`: each pending still becomes a photo asset and
    /// each pending movie a video asset (with the owner and content identifier kept, so a still's
    /// movie arriving later is still attached to it). One transaction per upload; an upload no
    /// longer pending (linked or dropped meanwhile) reports the asset that has its bytes, or is
    /// rejected when there is none.
    public func importPendingAlone(_ uploads: [PendingUpload]) throws(LibraryError) -> [IngestOutcome] {
        var outcomes: [IngestOutcome] = []
        for upload in uploads {
            let box = OutcomeBox()
            try library.performChangesAndWait(
                { _ in },
                inTransaction: { (transaction: CatalogTransaction) throws(LibraryError) in
                    let key = IngestRecords.pendingKey(owner: upload.owner, digest: upload.resource.digest, type: upload.type)
                    guard try transaction.catalog.record(namespace: IngestRecords.pendingNamespace, key: key) != nil else {
                        box.outcome = try self.currentOutcome(of: upload, reader: transaction.catalog)
                        return
                    }
                    try transaction.injectFault(.custom("ingest-import-alone"))
                    let request = transaction.changes.creationRequestForAsset()
                    request.owner = upload.owner
                    request.addResource(
                        with: upload.type == .photo ? .photo : .video, storedResource: upload.resource,
                        options: AssetResourceCreationOptions(originalFilename: upload.originalFilename))
                    try transaction.catalog.removeRecord(namespace: IngestRecords.pendingNamespace, key: key)
                    box.outcome = .pending(contentIdentifier: upload.contentIdentifier)
                },
                afterApplying: { (transaction: CatalogTransaction, result: ChangeResult) throws(LibraryError) in
                    guard case .pending = box.outcome, let asset = result.assets.first else { return }
                    box.outcome = asset.isExisting
                        ? .duplicate(localIdentifier: asset.localIdentifier) : .accepted(localIdentifier: asset.localIdentifier)
                    // The render and adjustment data that waited for this original join it now.
                    try self.attachWaitingEdits(toAsset: asset.localIdentifier, owner: upload.owner, in: transaction)
                })
            outcomes.append(box.outcome)
        }
        return outcomes
    }

    /// Drops pending halves: their records go in one transaction, then their files when nothing
    /// else uses them. Returns how many were still pending.
    @discardableResult
    public func dropPending(_ uploads: [PendingUpload]) throws(LibraryError) -> Int {
        var dropped = 0
        try library.performChangesAndWait(
            { _ in },
            inTransaction: { (transaction: CatalogTransaction) throws(LibraryError) in
                try transaction.injectFault(.custom("ingest-drop-pending"))
                for upload in uploads {
                    let key = IngestRecords.pendingKey(owner: upload.owner, digest: upload.resource.digest, type: upload.type)
                    if try transaction.catalog.removeRecord(namespace: IngestRecords.pendingNamespace, key: key) { dropped += 1 }
                }
            })
        library.executor.removeUnreferenced(Set(uploads.map(\.resource.digest)), injectingFaults: true)
        return dropped
    }

    /// The asset of `upload.owner` holding `upload`'s bytes, as an outcome.
    private func currentOutcome(of upload: PendingUpload, reader: any CatalogReader) throws(LibraryError) -> IngestOutcome {
        let query = AssetQuery(
            scope: .all,
            options: FetchOptions(
                predicate: .and([.owner(upload.owner), .contentIdentifier(upload.contentIdentifier)]),
                includeHiddenAssets: true))
        for identifier in try reader.assetIdentifiers(matching: query)
        where try reader.resources(ofAsset: identifier).contains(where: { $0.digest == upload.resource.digest }) {
            return .duplicate(localIdentifier: identifier)
        }
        return .rejected([])
    }
}
