import Foundation

/// A photo library on disk, as PhotoKit's `PHPhotoLibrary`: a directory holding a content-addressed
/// resource store (`resources/`) and a SQLite catalog (`catalog.sqlite`, WAL mode). Several
/// processes may open the same library at once; every change is a batch applied all or nothing
/// with `performChanges`, and observers hear of every committed batch (see `LibraryChangeObserver`).
public final class PhotoLibrary: Sendable {
    /// The library directory.
    public let directory: String
    /// How it was opened.
    public let configuration: LibraryConfiguration
    let catalog: any Catalog
    let store: any ResourceStore
    let notifier: ChangeNotifier

    /// The catalog file's name inside the library directory.
    public static let catalogFileName = "catalog.sqlite"
    /// The resource store's directory name inside the library directory.
    public static let resourcesDirectoryName = "resources"

    private init(directory: String, configuration: LibraryConfiguration, catalog: any Catalog, store: any ResourceStore) throws(LibraryError) {
        self.directory = directory
        self.configuration = configuration
        self.catalog = catalog
        self.store = store
        let sequence = try catalog.read { (reader: any CatalogReader) throws(LibraryError) in try reader.latestChangeSequence() }
        notifier = ChangeNotifier(deliveredThrough: sequence)
    }

    /// Opens the library at `directory`, creating it when needed, and recovers from interrupted
    /// work: temporary files of interrupted stores are removed, and resource files no asset or
    /// record uses (stored by a batch that never committed) are removed once older than
    /// `configuration.orphanGracePeriod`.
    public static func open(
        at directory: String, configuration: LibraryConfiguration = LibraryConfiguration()
    ) throws(LibraryError) -> PhotoLibrary {
        let root = try createdRoot(directory)
        let store: any ResourceStore
        do throws(ResourceStoreError) {
            store = try DirectoryStore(directory: root + "/" + resourcesDirectoryName)
        } catch {
            throw .store(error)
        }
        return try open(at: root, store: store, configuration: configuration)
    }

    /// Opens the library at `directory` (its catalog) with its resources in `store`, such as an
    /// `S3ResourceStore` shared by several nodes, and recovers as `open(at:configuration:)` does.
    public static func open(
        at directory: String, store: any ResourceStore, configuration: LibraryConfiguration = LibraryConfiguration()
    ) throws(LibraryError) -> PhotoLibrary {
        let root = try createdRoot(directory)
        let catalog = try SQLiteCatalog(
            path: root + "/" + catalogFileName, durableCommits: configuration.durableCommits,
            busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        let library = try PhotoLibrary(directory: root, configuration: configuration, catalog: catalog, store: store)
        try library.removeUnreferencedResources(olderThan: configuration.orphanGracePeriod)
        return library
    }

    /// `directory` without a trailing slash, created when missing.
    private static func createdRoot(_ directory: String) throws(LibraryError) -> String {
        let root = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw .io(path: root, reason: "cannot create the library directory: \(error.localizedDescription)")
        }
        return root
    }

    /// The executor that applies change batches to this library.
    var executor: ChangeBatchExecutor {
        ChangeBatchExecutor(catalog: catalog, store: store, configuration: configuration)
    }

    // MARK: - Observation

    /// Adds an observer of committed changes (kept until unregistered). It hears of batches
    /// committed from now on.
    public func register(_ observer: any LibraryChangeObserver) {
        skipUndeliveredChangesWhenNobodyListens()
        notifier.register(observer)
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
        return notifier.makeStream()
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
