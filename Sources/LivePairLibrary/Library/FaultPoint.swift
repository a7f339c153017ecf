/// A durable step of a change batch, where `LibraryConfiguration.faultInjector` is called just
/// before the step happens, so crash tests can throw (the batch fails and is rolled back) or end
/// the process there (recovery on the next open cleans up).
public enum FaultPoint: Sendable, Hashable, CustomStringConvertible {
    /// Before the resource at `index` (counting every resource of the batch, in request order) is stored.
    case storeResource(index: Int)
    /// After every resource is stored, before the catalog transaction begins.
    case beginCatalogTransaction
    /// After every catalog statement, before `COMMIT`.
    case commitCatalogTransaction
    /// After the commit, before a moved source file is unlinked.
    case unlinkSource(path: String)
    /// Before a resource file that no row uses any more is removed from the store.
    case removeResource(ContentDigest)
    /// A step of another component (the ingestor names its own steps).
    case custom(String)

    /// A short name, for messages.
    public var description: String {
        switch self {
        case let .storeResource(index): return "store-resource[\(index)]"
        case .beginCatalogTransaction: return "begin-catalog-transaction"
        case .commitCatalogTransaction: return "commit-catalog-transaction"
        case let .unlinkSource(path): return "unlink-source(\(path))"
        case let .removeResource(digest): return "remove-resource(\(digest.hex.prefix(12)))"
        case let .custom(name): return name
        }
    }

    /// True for the steps after the commit: a fault there leaves the batch committed.
    public var isAfterCommit: Bool {
        switch self {
        case .unlinkSource, .removeResource: return true
        default: return false
        }
    }
}
