import Foundation
import LivePairFormats
import Synchronization

/// A photo library on disk, as PhotoKit's `PHPhotoLibrary`: a directory holding a content-addressed
/// resource store (`resources/`) and a SQLite catalog (`catalog.sqlite`, WAL mode). Several
/// processes may open the same library at once; every change is a batch applied all or nothing
/// with `performChanges`, and observers hear of every committed batch (see `LibraryChangeObserver`).
public final class PhotoLibrary: Sendable {
    /// The library directory.
    public let directory: String
    /// How it was opened.
    public let configuration: LibraryConfiguration
    /// Where its catalog is (another `open(catalog:store:)` with the same locations opens the same library).
    public let catalogLocation: CatalogLocation
    /// Where its resource files are.
    public let storeLocation: StoreLocation
    let catalog: any Catalog
    let store: any ResourceStore
    let notifier: ChangeNotifier
    /// The catalog's push of other nodes' commits, started with the first listener.
    private let commitSubscription = Mutex<(any CatalogCommitSubscription)?>(nil)

    /// The catalog file's name inside the library directory.
    public static let catalogFileName = "catalog.sqlite"
    /// The resource store's directory name inside the library directory.
    public static let resourcesDirectoryName = "resources"

    /// The library's identity: a UUID its catalog and its resource store's marker both carry
    /// (nil only for a library from before identities opened read-only). Files are removed from
    /// the store only while the catalog still carries this identity.
    public let identity: String?

    init(
        directory: String, configuration: LibraryConfiguration, catalog: any Catalog, store: any ResourceStore, identity: String?,
        locations: (CatalogLocation, StoreLocation)
    ) throws(LibraryError) {
        self.directory = directory
        self.configuration = configuration
        (catalogLocation, storeLocation) = locations
        self.catalog = catalog
        self.store = store
        self.identity = identity
        let sequence = try catalog.read { (reader: any CatalogReader) throws(LibraryError) in try reader.latestChangeSequence() }
        notifier = ChangeNotifier(deliveredThrough: sequence)
    }

    /// Opens the library at `directory` as `configuration.openMode` and `configuration.access` say.
    ///
    /// - A directory that does not exist or is empty gets a new library (`.createIfNeeded`,
    ///   `.createNew`) or is refused (`.openExisting`: `LibraryError.libraryNotFound`).
    /// - A directory with entries must hold a healthy library: a catalog this build recognises
    ///   and a resource store, marked with the same identity. Anything else (a missing, empty or
    ///   foreign catalog; another library's store) is refused with `LibraryError.notALibrary`,
    ///   and nothing in the directory is changed or deleted.
    /// - Read-write, opening recovers from interrupted work: temporary files no writer holds are
    ///   removed, and resource files no asset or record uses (stored by a batch that never
    ///   committed) are removed once older than `configuration.orphanGracePeriod`. Read-only,
    ///   nothing is removed or written.
    public static func open(
        at directory: String, configuration: LibraryConfiguration = LibraryConfiguration()
    ) throws(LibraryError) -> PhotoLibrary {
        let root = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let library = try LibraryOpener(root: root, configuration: configuration).open()
        if configuration.access == .readWrite {
            try library.removeUnreferencedResourcesOnOpen()
        }
        return library
    }

    /// Opens a library whose catalog and resource store are where the locations say: for example a
    /// PostgreSQL catalog shared by several nodes with a resource directory. Without `create` the
    /// catalog must exist: a missing one (no file, or no schema in the database) is refused and
    /// nothing is created. With `create` a missing catalog is created (as `livepair library init`
    /// does), unless `configuration.openMode` is `.openExisting`; with `.createNew` an existing one
    /// is refused. The catalog's library identity must match the store's marker, as in
    /// `open(at:)`; a catalog of a newer schema is refused with both versions named
    /// (`LibraryError.catalogTooNew`). `configuration.access` applies as in `open(at:)`.
    /// `directory` is the store's (`s3://BUCKET/PREFIX/` for an S3 store).
    ///
    /// An `s3://` store needs `s3Endpoint` (the server's base URL) and takes its credentials from
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_REGION`; its bucket must exist. Its
    /// identity marker is the object `PREFIX.library`: written once by `create`, and required
    /// (`LibraryProblem.storeMissing` without it) when opening. Fetched copies for decoders go to
    /// `s3CacheDirectory` (default: `S3ResourceStore.defaultCacheDirectory()`).
    public static func open(
        catalog location: CatalogLocation, store storeLocation: StoreLocation,
        configuration: LibraryConfiguration = LibraryConfiguration(), create: Bool = false,
        s3Endpoint: String? = nil, s3CacheDirectory: String? = nil
    ) throws(LibraryError) -> PhotoLibrary {
        let library = try LocatedLibraryOpener(
            catalogLocation: location, storeLocation: storeLocation, configuration: configuration, create: create,
            s3Endpoint: s3Endpoint, cacheDirectory: s3CacheDirectory ?? S3ResourceStore.defaultCacheDirectory()
        ).open()
        if configuration.access == .readWrite {
            try library.removeUnreferencedResourcesOnOpen()
        }
        return library
    }

    /// Opens the library at `directory` (its catalog, checked and recovered as
    /// `open(at:configuration:)` does) with its resources in `store`, such as an
    /// `S3ResourceStore`. The identity rules of a directory library hold for `store` too: its
    /// marker must name the catalog's library (an unmarked store is marked when read-write), so a
    /// catalog that was replaced or recreated never makes the library sweep `store`'s resources.
    public static func open(
        at directory: String, store: any ResourceStore, configuration: LibraryConfiguration = LibraryConfiguration()
    ) throws(LibraryError) -> PhotoLibrary {
        let root = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let local = try LibraryOpener(root: root, configuration: configuration, resourceStore: store).open()
        let identity = try LibraryOpener.matchedIdentity(
            catalog: local.catalog, store: store, access: configuration.access, library: root)
        let library = try PhotoLibrary(
            directory: root, configuration: configuration, catalog: local.catalog, store: store, identity: identity,
            locations: (local.catalogLocation, StoreLocation(of: store, fallback: local.storeLocation)))
        if configuration.access == .readWrite {
            try library.removeUnreferencedResourcesOnOpen()
        }
        return library
    }

    deinit {
        commitSubscription.withLock { $0?.cancel() }
    }

    /// With `configuration.hearsOtherProcessesAtOnce`, starts the catalog's push of other nodes'
    /// commits (when it has one) with the first listener: each commit anywhere then reaches this
    /// library's observers without `pollForChanges`.
    private func subscribeToCommitsOnce() {
        guard configuration.hearsOtherProcessesAtOnce else { return }
        commitSubscription.withLock { subscription in
            guard subscription == nil else { return }
            subscription = catalog.observeCommits { [weak self] in self?.noticeChanges() }
        }
    }

    /// The executor that applies change batches to this library.
    var executor: ChangeBatchExecutor {
        ChangeBatchExecutor(catalog: catalog, store: store, configuration: configuration, libraryIdentity: identity)
    }

    // MARK: - Observation

    /// Adds an observer of committed changes (kept until unregistered). It hears of batches
    /// committed from now on.
    public func register(_ observer: any LibraryChangeObserver) {
        skipUndeliveredChangesWhenNobodyListens()
        notifier.register(observer)
        subscribeToCommitsOnce()
    }

    /// Without listeners nothing is delivered; a new listener starts at the current sequence.
    private func skipUndeliveredChangesWhenNobodyListens() {
        guard !notifier.hasListeners, let sequence = try? currentChangeSequence() else { return }
        notifier.markDelivered(through: sequence)
    }

    /// Removes an observer.
    public func unregister(_ observer: any LibraryChangeObserver) { notifier.unregister(observer) }

    /// Every change delivered from now on, as an asynchronous sequence (ends when the task reading
    /// it is cancelled).
    public func changes() -> AsyncStream<LibraryChange> {
        skipUndeliveredChangesWhenNobodyListens()
        let stream = notifier.makeStream()
        subscribeToCommitsOnce()
        return stream
    }

    /// Looks for batches committed since the last delivery (by any process) and hands them to the
    /// observers as one change; returns it, or nil when there was nothing new.
    @discardableResult
    public func pollForChanges() throws(LibraryError) -> LibraryChange? {
        try notifier.deliver { (sequence: Int64) throws(LibraryError) -> [CatalogChange] in
            try catalog.read { (reader: any CatalogReader) throws(LibraryError) in try reader.changes(after: sequence) }
        }
    }

    /// Delivers pending changes when someone listens; a failure here is left for the next poll.
    func noticeChanges() {
        guard notifier.hasListeners else { return }
        _ = try? pollForChanges()
    }

    /// The change-log sequence number of the last committed batch (of any process).
    public func currentChangeSequence() throws(LibraryError) -> Int64 {
        try catalog.read { (reader: any CatalogReader) throws(LibraryError) in try reader.latestChangeSequence() }
    }
}
