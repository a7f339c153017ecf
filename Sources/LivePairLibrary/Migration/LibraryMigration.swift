import Foundation
import LivePairCrypto
import LivePairFormats

/// Copies one library into another, for example a directory library (SQLite + files) into a
/// PostgreSQL catalog with an S3 store: every asset with its resources (same local identifiers,
/// dates, owners, findings), the albums and their members, and the ingestor's records (pending
/// Live Photo halves, upload keys) with the resources they name. The change log is not copied:
/// the target's log starts with the migration's own batches, so its observers hear every copied
/// asset as inserted.
///
/// - **The source is only read**: open it read-only (`LibraryAccess.readOnly`).
/// - **Verified**: every resource is uploaded from the source's file, its digest checked against
///   the one the source's catalog names, then read back from the target store and hashed again
///   before any row names it.
/// - **Resumable**: an asset, album membership or record already in the target is skipped, and
///   storing content that is already stored is harmless, so a run that was killed or failed is
///   completed by running it again, without duplicates. Rows are written in batches, each batch
///   in one transaction after its resources are stored and verified, so the target never holds a
///   row without its resource.
/// - **One source per target**: the target records the source's identity on the first run and
///   refuses another source, or a target that already holds assets of its own.
public struct LibraryMigration {
    /// What a run did.
    public struct Report: Sendable, Equatable {
        /// Assets copied in this run.
        public var assetsCopied = 0
        /// Assets found already in the target (copied by an earlier run).
        public var assetsAlreadyThere = 0
        /// Distinct resources uploaded and verified in this run.
        public var resourcesVerified = 0
        /// Their bytes.
        public var bytesVerified: UInt64 = 0
        /// Albums created in the target in this run.
        public var albumsCopied = 0
        /// Album memberships added in this run.
        public var membershipsCopied = 0
        /// Ingestor records (pending halves, upload keys) copied in this run.
        public var recordsCopied = 0
    }

    /// The record namespace in the target naming its source.
    static let namespace = "migration"
    /// The ingestor's namespaces copied with their records (pending halves, upload IDs, the edits'
    /// waiting renders and `.AAE` files, and which original each edit group belongs to).
    static let recordNamespaces = [
        IngestRecords.pendingNamespace, IngestRecords.uploadNamespace, IngestRecords.editNamespace,
        IngestRecords.editOriginNamespace,
    ]

    let source: PhotoLibrary
    let target: PhotoLibrary
    /// Assets per target transaction.
    let batchSize: Int
    /// Called after each committed batch with the number of assets handled so far and in all.
    let progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?

    /// A migration from `source` (opened read-only) into `target` (opened read-write).
    public init(
        from source: PhotoLibrary, to target: PhotoLibrary, batchSize: Int = 32,
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) {
        self.source = source
        self.target = target
        self.batchSize = max(1, batchSize)
        self.progress = progress
    }

    /// Runs (or completes) the migration and returns what it did.
    public func run() throws(LibraryError) -> Report {
        guard target.configuration.access == .readWrite else { throw .readOnlyLibrary }
        try claimTarget()
        var report = Report()
        var verified: Set<ContentDigest> = []
        let identifiers = try source.catalog.read { (reader: any CatalogReader) throws(LibraryError) in
            try reader.assetIdentifiers(matching: AssetQuery(scope: .all, options: FetchOptions(includeHiddenAssets: true)))
        }
        for start in stride(from: 0, to: identifiers.count, by: batchSize) {
            let batch = Array(identifiers[start..<min(start + batchSize, identifiers.count)])
            try copyAssets(batch, verified: &verified, report: &report)
            progress?(start + batch.count, identifiers.count)
        }
        try copyAlbums(report: &report)
        try copyRecords(verified: &verified, report: &report)
        return report
    }

    /// Records the source's identity in the target on the first run; refuses a target that is
    /// another source's migration or that holds assets of its own.
    private func claimTarget() throws(LibraryError) {
        let sourceName = source.identity ?? source.directory
        try target.catalog.write({ (writer: any CatalogWriter) throws(LibraryError) in
            if let record = try writer.record(namespace: Self.namespace, key: "source") {
                let recorded = String(decoding: record.payload, as: UTF8.self)
                guard recorded == sourceName else {
                    throw .invalidRequest("the target is the migration of another library (\(recorded)), not of \(sourceName)")
                }
                return
            }
            let query = AssetQuery(scope: .all, options: FetchOptions(fetchLimit: 1, includeHiddenAssets: true))
            guard try writer.assetIdentifiers(matching: query).isEmpty else {
                throw .invalidRequest("the target already holds assets: migrate into a new catalog and store")
            }
            try writer.putRecord(
                CatalogRecord(namespace: Self.namespace, key: "source", date: Date(), payload: Array(sourceName.utf8)))
        }, beforeCommit: {})
    }

    /// Copies the assets of `identifiers` the target does not hold yet, in one transaction.
    private func copyAssets(_ identifiers: [String], verified: inout Set<ContentDigest>, report: inout Report) throws(LibraryError) {
        let present = try target.catalog.read { (reader: any CatalogReader) throws(LibraryError) in
            try reader.assets(withIdentifiers: identifiers, includingDeleted: true)
        }
        let missing = identifiers.filter { present[$0] == nil }
        report.assetsAlreadyThere += identifiers.count - missing.count
        guard !missing.isEmpty else { return }
        let rows = try source.catalog.read { (reader: any CatalogReader) throws(LibraryError) -> [(Asset, [LibraryAssetResource])] in
            let assets = try reader.assets(withIdentifiers: missing, includingDeleted: false)
            var rows: [(Asset, [LibraryAssetResource])] = []
            for identifier in missing {
                guard let asset = assets[identifier] else { continue }
                rows.append((asset, try reader.resources(ofAsset: identifier)))
            }
            return rows
        }
        for (_, resources) in rows {
            for resource in resources { try upload(resource.digest, size: resource.size, verified: &verified, report: &report) }
        }
        let copied = try target.catalog.write({ (writer: any CatalogWriter) throws(LibraryError) -> [String] in
            var copied: [String] = []
            for (asset, resources) in rows where try writer.assets(withIdentifiers: [asset.localIdentifier], includingDeleted: true).isEmpty {
                for resource in resources where !target.store.contains(resource.digest) {
                    throw .resourceMissing(resource.digest)
                }
                try writer.insertAsset(asset)
                for resource in resources { try writer.insertResource(resource) }
                try writer.enqueueDerivativeJobs(assetIdentifier: asset.localIdentifier, kinds: DerivativeJobKind.kinds(of: asset))
                copied.append(asset.localIdentifier)
            }
            if !copied.isEmpty {
                _ = try writer.appendChange(
                    insertedAssets: copied, updatedAssets: [], deletedAssets: [], changedCollections: [], committedAt: Date())
            }
            return copied
        }, beforeCommit: {})
        report.assetsCopied += copied.count
        report.assetsAlreadyThere += rows.count - copied.count
    }

    /// Creates the source's albums missing from the target and adds the members missing from them.
    private func copyAlbums(report: inout Report) throws(LibraryError) {
        let albums = try source.catalog.read { (reader: any CatalogReader) throws(LibraryError) -> [(AssetCollection, [String])] in
            let identifiers = try reader.collectionIdentifiers(matching: .all)
            let collections = try reader.collections(withIdentifiers: identifiers)
            var albums: [(AssetCollection, [String])] = []
            for identifier in identifiers {
                guard let collection = collections[identifier] else { continue }
                let members = try reader.assetIdentifiers(
                    matching: AssetQuery(scope: .collection(identifier), options: FetchOptions(includeHiddenAssets: true)))
                albums.append((collection, members))
            }
            return albums
        }
        guard !albums.isEmpty else { return }
        let (created, added) = try target.catalog.write({ (writer: any CatalogWriter) throws(LibraryError) -> (Int, Int) in
            var created = 0, added = 0
            var changed: [String] = []
            for (collection, members) in albums {
                if try writer.collections(withIdentifiers: [collection.localIdentifier]).isEmpty {
                    try writer.insertCollection(collection)
                    created += 1
                    changed.append(collection.localIdentifier)
                }
                let count = try writer.addAssets(members, toCollection: collection.localIdentifier).count
                if count > 0, changed.last != collection.localIdentifier { changed.append(collection.localIdentifier) }
                added += count
            }
            if !changed.isEmpty {
                _ = try writer.appendChange(
                    insertedAssets: [], updatedAssets: [], deletedAssets: [], changedCollections: changed, committedAt: Date())
            }
            return (created, added)
        }, beforeCommit: {})
        report.albumsCopied += created
        report.membershipsCopied += added
    }

    /// Copies the ingestor's records the target lacks, with the resources they name.
    private func copyRecords(verified: inout Set<ContentDigest>, report: inout Report) throws(LibraryError) {
        let all = try source.catalog.read { (reader: any CatalogReader) throws(LibraryError) -> [CatalogRecord] in
            var records: [CatalogRecord] = []
            for namespace in Self.recordNamespaces { records += try reader.records(namespace: namespace) }
            return records
        }
        let records = try target.catalog.read { (reader: any CatalogReader) throws(LibraryError) -> [CatalogRecord] in
            var missing: [CatalogRecord] = []
            for record in all where try reader.record(namespace: record.namespace, key: record.key) == nil { missing.append(record) }
            return missing
        }
        guard !records.isEmpty else { return }
        for record in records {
            if let digest = record.digest { try upload(digest, size: nil, verified: &verified, report: &report) }
        }
        report.recordsCopied += try target.catalog.write({ (writer: any CatalogWriter) throws(LibraryError) -> Int in
            var copied = 0
            for record in records where try writer.record(namespace: record.namespace, key: record.key) == nil {
                if let digest = record.digest, !target.store.contains(digest) { throw .resourceMissing(digest) }
                try writer.putRecord(record)
                copied += 1
            }
            return copied
        }, beforeCommit: {})
    }

    /// Stores the source's resource `digest` in the target and checks it there: the uploaded bytes
    /// must have the digest the source's catalog names, and reading them back must give it again.
    private func upload(
        _ digest: ContentDigest, size: UInt64?, verified: inout Set<ContentDigest>, report: inout Report
    ) throws(LibraryError) {
        guard !verified.contains(digest) else { return }
        do throws(ResourceStoreError) {
            let path = try source.store.localPath(for: digest)
            let stored = try target.store.store(fileAt: path)
            guard stored.digest == digest, size == nil || stored.size == size else {
                throw .io(path: path, reason: "the source's file does not have the digest \(digest) its catalog names")
            }
            let readBack = try Self.digest(of: target.store.byteSource(for: digest))
            guard readBack == digest else {
                throw .io(path: "\(target.storeLocation)", reason: "the stored copy of \(digest) reads back as \(readBack)")
            }
            verified.insert(digest)
            report.resourcesVerified += 1
            report.bytesVerified += stored.size
        } catch {
            if case .notFound = error { throw .resourceMissing(digest) }
            throw .store(error)
        }
    }

    /// The SHA-256 of every byte `source` holds, read in 4 MiB ranges.
    static func digest(of source: any ByteSource) throws(ResourceStoreError) -> ContentDigest {
        var hasher = SHA256()
        var offset: UInt64 = 0
        while offset < source.size {
            let count = Int(min(UInt64(4 << 20), source.size - offset))
            do throws(FormatError) {
                hasher.update(try source.read(at: offset, count: count))
            } catch {
                throw .io(path: source.name, reason: "reading back failed: \(error)")
            }
            offset += UInt64(count)
        }
        return ContentDigest(bytes: hasher.finalize())
    }
}
