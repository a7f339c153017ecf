/// The result of a fetch, as PhotoKit's `PHFetchResult`: an ordered, indexable snapshot.
///
/// The identifiers (membership and order) are read when the fetch runs and never change; objects
/// are read in pages of 100 when first accessed (the first page with the fetch) and then kept, so a
/// fetch result never changes under its holder. To see later commits, fetch again or use the
/// `fetchResultAfterChanges` of a change notification.
public struct FetchResult<Element: FetchableObject>: RandomAccessCollection, Sendable {
    /// The identifiers of the objects, in order.
    public let localIdentifiers: [String]
    let storage: FetchResultStorage<Element>
    /// Runs the same fetch again (for change details).
    let refetch: @Sendable () throws(LibraryError) -> FetchResult<Element>

    init(
        localIdentifiers: [String], storage: FetchResultStorage<Element>,
        refetch: @escaping @Sendable () throws(LibraryError) -> FetchResult<Element>
    ) {
        self.localIdentifiers = localIdentifiers
        self.storage = storage
        self.refetch = refetch
    }

    /// 0.
    public var startIndex: Int { 0 }
    /// The number of objects.
    public var endIndex: Int { localIdentifiers.count }

    /// The object at `index`. Reading a page can fail only when the catalog cannot be read; that
    /// stops the program here, use `object(at:)` to handle it.
    public subscript(index: Int) -> Element {
        do {
            return try storage.element(at: index)
        } catch {
            fatalError("FetchResult could not read the catalog: \(error)")
        }
    }

    /// The object at `index`, or the catalog error that kept it from being read.
    public func object(at index: Int) throws(LibraryError) -> Element { try storage.element(at: index) }

    /// The first object, or nil when empty.
    public var firstObject: Element? { isEmpty ? nil : self[0] }
    /// The last object, or nil when empty.
    public var lastObject: Element? { isEmpty ? nil : self[count - 1] }

    /// The index of the object with `localIdentifier`, or nil.
    public func index(ofLocalIdentifier localIdentifier: String) -> Int? { localIdentifiers.firstIndex(of: localIdentifier) }

    /// True when the result holds `object` (by identifier).
    public func contains(_ object: Element) -> Bool { localIdentifiers.contains(object.localIdentifier) }
}
