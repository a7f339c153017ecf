import Synchronization

/// Loads a fetch result's objects page by page and keeps them: once read, an object never changes
/// in that fetch result.
final class FetchResultStorage<Element: FetchableObject>: Sendable {
    /// Objects per page.
    static var pageSize: Int { 100 }

    /// Reads the objects with these identifiers (deleted assets as they were when deleted).
    typealias Loader = @Sendable ([String]) throws(LibraryError) -> [String: Element]

    private let identifiers: [String]
    private let loader: Loader
    private let pages: Mutex<[Int: [Element]]>

    /// Storage for `identifiers`, with the pages already read.
    init(identifiers: [String], loadedPages: [Int: [Element]], loader: @escaping Loader) {
        self.identifiers = identifiers
        self.loader = loader
        self.pages = Mutex(loadedPages)
    }

    /// The object at `index`, reading its page when needed.
    func element(at index: Int) throws(LibraryError) -> Element {
        let page = index / Self.pageSize
        if let loaded = pages.withLock({ $0[page] }) { return loaded[index % Self.pageSize] }
        let elements = try Self.loadPage(page, of: identifiers, loader: loader)
        let kept = pages.withLock { pages in
            if let existing = pages[page] { return existing }
            pages[page] = elements
            return elements
        }
        return kept[index % Self.pageSize]
    }

    /// Reads page `page` of `identifiers`.
    static func loadPage(
        _ page: Int, of identifiers: [String], loader: ([String]) throws(LibraryError) -> [String: Element]
    ) throws(LibraryError) -> [Element] {
        let range = page * pageSize..<min(identifiers.count, (page + 1) * pageSize)
        let wanted = Array(identifiers[range])
        let found = try loader(wanted)
        var elements: [Element] = []
        elements.reserveCapacity(wanted.count)
        for identifier in wanted {
            guard let element = found[identifier] else { throw .notFound(localIdentifier: identifier) }
            elements.append(element)
        }
        return elements
    }
}
