/// The catalog transaction of a `performChanges` batch, handed to components of this module
/// (the ingestor) so their own catalog work commits or rolls back with the batch.
///
/// - `catalog` reads and writes inside the transaction (records: `putRecord`, `record`, ...).
/// - `changes` takes further requests (creation, change, delete, albums) that join the batch;
///   their resources should already be in the store (`addResource(with:storedResource:)`), since
///   anything else is stored while the write lock is held.
/// - `injectFault` calls the library's fault injector for the component's own steps.
final class CatalogTransaction {
    /// The catalog, inside the batch's write transaction.
    let catalog: any CatalogWriter
    /// The library's resource store.
    let store: any ResourceStore
    /// Requests made here join the batch.
    let changes = ChangeContext()
    /// The resources found in the store during this transaction.
    let presence: StorePresence
    private let faultInjector: (@Sendable (FaultPoint) throws -> Void)?

    init(
        catalog: any CatalogWriter, store: any ResourceStore, presence: StorePresence,
        faultInjector: (@Sendable (FaultPoint) throws -> Void)?
    ) {
        self.catalog = catalog
        self.store = store
        self.presence = presence
        self.faultInjector = faultInjector
    }

    /// True when the resource with `digest` is in the store: asked once per transaction (the
    /// write lock keeps it there until the transaction ends).
    func isStored(_ digest: ContentDigest) -> Bool { presence.contains(digest) }

    /// Calls the fault injector at `point`; what it throws becomes `LibraryError.faultInjected`.
    func injectFault(_ point: FaultPoint) throws(LibraryError) {
        try FaultInjection.inject(point, faultInjector)
    }
}

/// Calls a fault injector.
enum FaultInjection {
    /// Calls `injector` at `point`; what it throws becomes `LibraryError.faultInjected`.
    static func inject(_ point: FaultPoint, _ injector: (@Sendable (FaultPoint) throws -> Void)?) throws(LibraryError) {
        guard let injector else { return }
        do {
            try injector(point)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .faultInjected(point, "\(error)")
        }
    }
}
