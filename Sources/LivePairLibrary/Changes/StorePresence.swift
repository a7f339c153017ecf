/// The resources found in the store while one batch holds the catalog's write lock, so each is
/// asked for once per transaction however many steps check it (the ingestor's decision, the
/// creation's preparation, the final check before the rows are written): with an object store each
/// check is a HEAD request made while every other writer waits for the lock.
///
/// Asking once is enough: resources are removed only by clean-ups that hold the same lock, so
/// nothing found here can disappear before this transaction ends. Made inside the transaction and
/// dropped with it; used on the thread running it.
final class StorePresence {
    private let store: any ResourceStore
    private var found: Set<ContentDigest> = []

    init(store: any ResourceStore) { self.store = store }

    /// True when the resource with `digest` is stored (asked of the store the first time only).
    func contains(_ digest: ContentDigest) -> Bool {
        if found.contains(digest) { return true }
        guard store.contains(digest) else { return false }
        found.insert(digest)
        return true
    }
}
