import Foundation
import LivePairFormats

/// `PhotoLibrary.open(catalog:store:)`'s decisions, the same rules as `LibraryOpener`'s for a
/// directory: a missing catalog is created only when asked (`create`, and an open mode that
/// creates, read-write) and refused otherwise; an existing one is refused by `.createNew`; a new
/// catalog gets the identity its store is marked with first; an existing one must carry the
/// identity of the store's marker.
struct LocatedLibraryOpener {
    let catalogLocation: CatalogLocation
    let storeLocation: StoreLocation
    let configuration: LibraryConfiguration
    let create: Bool

    private var mode: LibraryOpenMode {
        guard create else { return .openExisting }
        return configuration.openMode == .createNew ? .createNew : .createIfNeeded
    }

    private var storePath: String {
        switch storeLocation {
        case let .directory(path): return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        case .s3: return storeLocation.description
        }
    }

    /// Opens or creates the library, or throws why it may not.
    func open() throws(LibraryError) -> PhotoLibrary {
        if case .s3 = storeLocation {
            throw .invalidRequest("\(storeLocation) is not a directory: an S3 store is opened with PhotoLibrary.open(at:store:)")
        }
        let newIdentity = UUID().uuidString
        let catalog: any Catalog
        switch catalogLocation {
        case let .sqlite(path):
            let opening = try decide(exists: LibraryFileSystem.exists(path), name: path, newIdentity: newIdentity)
            if case .new = opening { try prepareNewStore(identity: newIdentity) }
            catalog = try SQLiteCatalog(
                path: path, library: path, opening: opening, durableCommits: configuration.durableCommits,
                busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        case let .postgres(connectionString):
            catalog = try PostgresCatalog(
                connectionString: connectionString, lockTimeoutMilliseconds: configuration.busyTimeoutMilliseconds
            ) { (exists: Bool) throws(LibraryError) -> CatalogOpening in
                let opening = try decide(exists: exists, name: "the PostgreSQL database", newIdentity: newIdentity)
                if case .new = opening { try prepareNewStore(identity: newIdentity) }
                return opening
            }
        }
        guard case .populated = LibraryFileSystem.directoryState(storePath) else {
            throw .notALibrary(path: storePath, problem: .storeMissing)
        }
        let store = try makeStore()
        let identity = try LibraryOpener.matchedIdentity(
            catalog: catalog, store: store, access: configuration.access, library: storePath)
        return try PhotoLibrary(
            directory: storePath, configuration: configuration, catalog: catalog, store: store, identity: identity,
            locations: (catalogLocation, storeLocation))
    }

    /// How the catalog is to be opened, given whether it `exists`; refusals name the catalog `name`.
    private func decide(exists: Bool, name: String, newIdentity: String) throws(LibraryError) -> CatalogOpening {
        if exists {
            guard mode != .createNew else { throw .invalidRequest("\(name) already holds a LivePair catalog") }
            return .existing(configuration.access)
        }
        guard mode != .openExisting, configuration.access == .readWrite else {
            throw .invalidRequest("\(name) has no LivePair catalog: create one with `livepair library init`")
        }
        return .new(identity: newIdentity)
    }

    /// Before a new catalog is created: the store directory, marked with the new identity; refused
    /// when it is already marked as another library's (nothing is created then).
    private func prepareNewStore(identity: String) throws(LibraryError) {
        let created = FileSystemPath.createDirectories(storePath)
        guard created == 0 else {
            throw .io(path: storePath, reason: "cannot create the resource directory: \(FileSystemPath.errorText(created))")
        }
        let store = try makeStore()
        let marked: String
        do throws(ResourceStoreError) {
            marked = try store.claim(libraryIdentity: identity)
        } catch {
            throw .store(error)
        }
        guard marked == identity else {
            throw .notALibrary(path: storePath, problem: .identityMismatch(catalog: identity, store: marked))
        }
    }

    private func makeStore() throws(LibraryError) -> DirectoryStore {
        do throws(ResourceStoreError) {
            return try DirectoryStore(directory: storePath, removingAbandonedTemporaryFiles: configuration.access == .readWrite)
        } catch {
            throw .store(error)
        }
    }
}
