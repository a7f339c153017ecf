import Foundation

/// The catalog behind a library: assets, their resources, albums, the change log and component
/// records. A narrow interface, so another database can serve it; `SQLiteCatalog` is the default.
///
/// Every read happens in `read` (one consistent snapshot) and every write in `write` (one
/// transaction, serialized with every other writer of every process).
///
/// Rules every implementation keeps (`PhotoLibrary` relies on them to never delete a stored file
/// on the word of a catalog that is not this library's):
/// - it is opened with a `CatalogOpening`: `.existing` never creates anything and refuses, with
///   `LibraryError.notALibrary`, a catalog that is missing, empty (no schema) or not LivePair's
///   (`LibraryProblem`); `.new` creates the schema and records the library's identity;
/// - `CatalogReader.libraryIdentity()` returns that identity (nil only for a catalog from before
///   identities, opened read-only), and the library compares it with the resource store's marker;
/// - `write` waits for a busy catalog (another writer) and retries, bounded, before it fails.
protocol Catalog: Sendable {
    /// Runs `body` against one consistent snapshot of the catalog.
    func read<Value>(_ body: (any CatalogReader) throws(LibraryError) -> Value) throws(LibraryError) -> Value

    /// Runs `body` in one write transaction. When `body` returns, `beforeCommit` runs, then the
    /// transaction commits; when either throws, nothing `body` wrote is kept.
    func write<Value>(
        _ body: (any CatalogWriter) throws(LibraryError) -> Value, beforeCommit: () throws(LibraryError) -> Void
    ) throws(LibraryError) -> Value

    /// Runs `body` in one write transaction that touches only the derivative job table: on
    /// PostgreSQL without the catalog-wide writer lock (claims skip the rows other nodes hold,
    /// `FOR UPDATE SKIP LOCKED`), on SQLite as `write` (`BEGIN IMMEDIATE`).
    func writeJobs<Value>(_ body: (any CatalogWriter) throws(LibraryError) -> Value) throws(LibraryError) -> Value

    /// Calls `onCommit` (on a thread of its own) whenever another connection commits a batch, for
    /// catalogs that can tell; nil for those that cannot (their observers poll the change log, as
    /// the SQLite catalog's do through `PhotoLibrary.pollForChanges`).
    func observeCommits(_ onCommit: @escaping @Sendable () -> Void) -> (any CatalogCommitSubscription)?
}

/// How `PhotoLibrary.open` asks a catalog implementation to open its database.
enum CatalogOpening: Sendable, Hashable {
    /// An existing catalog: refused (`LibraryError.notALibrary`) when missing, empty or foreign,
    /// `catalogTooNew` when newer than this build; migrated only with `.readWrite` access.
    case existing(LibraryAccess)
    /// A new catalog of the library `identity`; the database must not exist yet.
    case new(identity: String)
}

/// Reads the catalog inside `Catalog.read` or `Catalog.write`.
protocol CatalogReader {
    /// The identity of the library this catalog belongs to (recorded when it was created or
    /// upgraded); nil for an older catalog not yet upgraded (opened read-only).
    func libraryIdentity() throws(LibraryError) -> String?

    /// The sequence number of the last committed batch (0 for a new catalog).
    func latestChangeSequence() throws(LibraryError) -> Int64
    /// The batches committed after `sequence`, oldest first.
    func changes(after sequence: Int64) throws(LibraryError) -> [CatalogChange]

    /// The identifiers of the assets `query` selects, in its order.
    func assetIdentifiers(matching query: AssetQuery) throws(LibraryError) -> [String]
    /// The assets with these identifiers that exist; with `includingDeleted`, deleted assets are
    /// returned as they were when deleted.
    func assets(withIdentifiers identifiers: [String], includingDeleted: Bool) throws(LibraryError) -> [String: Asset]
    /// The assets `query` selects, in its order, the first `offset` skipped, at most its
    /// `fetchLimit`: one statement (keyset paging with `AssetPredicate.follows`).
    func assets(matching query: AssetQuery, offset: Int) throws(LibraryError) -> [Asset]
    /// How many assets `query` selects (its limit ignored).
    func assetCount(matching query: AssetQuery) throws(LibraryError) -> Int
    /// An asset's resources, in the order they were added.
    func resources(ofAsset identifier: String) throws(LibraryError) -> [LibraryAssetResource]
    /// The resources of each of these assets, in the order they were added: one statement.
    func resources(ofAssets identifiers: [String]) throws(LibraryError) -> [String: [LibraryAssetResource]]
    /// The assets of `owner` that have exactly these resources (type and digest), for deduplication.
    func assetIdentifiers(owner: String?, withResources resources: [ResourceKey]) throws(LibraryError) -> [String]
    /// The assets of `owner` with a resource of one of `types` whose bytes are `digest`, oldest first.
    func assetIdentifiers(owner: String?, withResource digest: ContentDigest, types: [AssetResourceType]) throws(LibraryError) -> [String]
    /// True when a resource row or a record names `digest`.
    func isReferenced(_ digest: ContentDigest) throws(LibraryError) -> Bool
    /// Every digest a resource row or a record names.
    func referencedDigests() throws(LibraryError) -> Set<ContentDigest>

    /// The identifiers of the albums `query` selects.
    func collectionIdentifiers(matching query: CollectionQuery) throws(LibraryError) -> [String]
    /// The albums with these identifiers that exist.
    func collections(withIdentifiers identifiers: [String]) throws(LibraryError) -> [String: AssetCollection]

    /// The record `key` of `namespace`, or nil.
    func record(namespace: String, key: String) throws(LibraryError) -> CatalogRecord?
    /// The records of `namespace` with `lookupKey`, by key.
    func records(namespace: String, lookupKey: String) throws(LibraryError) -> [CatalogRecord]
    /// The records of `namespace` dated before `date` (records without a date are left out), oldest first.
    func records(namespace: String, olderThan date: Date) throws(LibraryError) -> [CatalogRecord]
    /// Every record of `namespace`, by key.
    func records(namespace: String) throws(LibraryError) -> [CatalogRecord]
    /// The records of `namespace` with these keys (those that exist): one statement.
    func records(namespace: String, keys: [String]) throws(LibraryError) -> [CatalogRecord]

    /// How many derivative jobs are in each state (states without jobs are left out).
    func derivativeJobCounts() throws(LibraryError) -> [DerivativeJobState: Int]
    /// The derivative jobs of an asset, oldest first.
    func derivativeJobs(ofAsset identifier: String) throws(LibraryError) -> [DerivativeJob]
    /// The derivative jobs of each of these assets, oldest first: one statement.
    func derivativeJobs(ofAssets identifiers: [String]) throws(LibraryError) -> [String: [DerivativeJob]]
}

/// Writes the catalog inside `Catalog.write`.
protocol CatalogWriter: CatalogReader {
    /// Adds an asset row.
    func insertAsset(_ asset: Asset) throws(LibraryError)
    /// Replaces an asset's properties.
    func updateAsset(_ asset: Asset) throws(LibraryError)
    /// Removes an asset with its resource rows and album memberships, keeping a tombstone for old
    /// fetch results; returns the digests its resources used.
    func deleteAsset(_ identifier: String) throws(LibraryError) -> [ContentDigest]
    /// Adds a resource row to an existing asset.
    func insertResource(_ resource: LibraryAssetResource) throws(LibraryError)
    /// Removes the resource rows of asset `identifier` whose type is one of `types` (an edit
    /// replaced or reverted); returns the digests they used.
    func deleteResources(ofAsset identifier: String, types: [AssetResourceType]) throws(LibraryError) -> [ContentDigest]
    /// Gives the resource at `ordinal` of asset `identifier` a new ordinal and type (a movie
    /// imported alone becomes the paired video of the still that joins it).
    func moveResource(ofAsset identifier: String, ordinal: Int, to newOrdinal: Int, type: AssetResourceType) throws(LibraryError)

    /// Adds an album.
    func insertCollection(_ collection: AssetCollection) throws(LibraryError)
    /// Renames an album.
    func updateCollectionTitle(_ identifier: String, title: String) throws(LibraryError)
    /// Removes an album (its assets stay).
    func deleteCollection(_ identifier: String) throws(LibraryError)
    /// Appends assets to an album (those already in it keep their place); returns those added.
    func addAssets(_ assets: [String], toCollection collection: String) throws(LibraryError) -> [String]
    /// Removes assets from an album; returns those removed.
    func removeAssets(_ assets: [String], fromCollection collection: String) throws(LibraryError) -> [String]

    /// Records the batch in the change log and returns its sequence number.
    func appendChange(
        insertedAssets: [String], updatedAssets: [String], deletedAssets: [String], changedCollections: [String],
        committedAt: Date
    ) throws(LibraryError) -> Int64

    /// Queues a derivative job of each of `kinds` for the asset, replacing the asset's earlier
    /// jobs (an asset whose resources changed has its derivatives made again).
    func enqueueDerivativeJobs(assetIdentifier: String, kinds: [DerivativeJobKind]) throws(LibraryError)
    /// Fails the running jobs whose lease expired after `claim.maxAttempts` claims, then claims the
    /// oldest queued job or running job whose lease expired (counting one more attempt), or nil.
    func claimDerivativeJob(_ claim: DerivativeJobClaim, now: Date) throws(LibraryError) -> DerivativeJob?
    /// Records how the claimed `job` ended; false when it is no longer that claim's (taken again
    /// after its lease expired, replaced, or removed with its asset).
    func finishDerivativeJob(_ job: DerivativeJob, outcome: DerivativeJobOutcome, maxAttempts: Int) throws(LibraryError) -> Bool
    /// Moves the claimed `job`'s lease to start at `now` (its worker is still making it); false
    /// when it is no longer that claim's.
    func renewDerivativeJobLease(_ job: DerivativeJob, now: Date) throws(LibraryError) -> Bool

    /// Inserts or replaces a record.
    func putRecord(_ record: CatalogRecord) throws(LibraryError)
    /// Removes a record; returns whether it existed.
    @discardableResult
    func removeRecord(namespace: String, key: String) throws(LibraryError) -> Bool
}

/// A resource's type and digest: what deduplication compares.
struct ResourceKey: Sendable, Hashable, Comparable {
    /// The resource type.
    var type: AssetResourceType
    /// The content digest.
    var digest: ContentDigest

    static func < (lhs: ResourceKey, rhs: ResourceKey) -> Bool {
        (lhs.type.rawValue, lhs.digest.hex) < (rhs.type.rawValue, rhs.digest.hex)
    }
}
