import Foundation
import LivePairFormats

/// `PhotoLibrary.open(catalog:store:)`'s decisions, the same rules as `LibraryOpener`'s for a
/// directory: a missing catalog is created only when asked (`create`, and an open mode that
/// creates, read-write) and refused otherwise; an existing one is refused by `.createNew`; a new
/// catalog gets the identity its store is marked with first; an existing one must carry the
/// identity of the store's marker (a `.library` file in a directory, a `<prefix>.library` object
/// in a bucket). An S3 store without its marker is refused as missing: `library init` writes the
/// marker, so a bucket or prefix without one is not this library's store (a typo, or a wrong bucket).
struct LocatedLibraryOpener {
    let catalogLocation: CatalogLocation
    let storeLocation: StoreLocation
    let configuration: LibraryConfiguration
    let create: Bool
    /// The S3 server of an `s3://` store.
    let s3Endpoint: String?
    /// Where an S3 store keeps fetched copies.
    let cacheDirectory: String

    private var mode: LibraryOpenMode {
        guard create else { return .openExisting }
        return configuration.openMode == .createNew ? .createNew : .createIfNeeded
    }

    /// The store's directory, or `s3://BUCKET/PREFIX` (the library's `directory`).
    private var storePath: String {
        switch storeLocation {
        case let .directory(path): return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        case .s3: return storeLocation.description
        }
    }

    /// The store as messages name it: its directory, or its bucket and prefix with the endpoint.
    private var storeName: String {
        switch storeLocation {
        case .directory: return storePath
        case .s3: return storeLocation.name(s3Endpoint: s3Endpoint)
        }
    }

    private var isObjectStore: Bool {
        if case .s3 = storeLocation { return true }
        return false
    }

    /// Opens or creates the library, or throws why it may not.
    func open() throws(LibraryError) -> PhotoLibrary {
        let newIdentity = UUID().uuidString
        // An S3 store is made (and its configuration checked) before the catalog is touched.
        let objectStore = isObjectStore ? try makeStore() : nil
        let catalog: any Catalog
        switch catalogLocation {
        case let .sqlite(path):
            let opening = try decide(exists: LibraryFileSystem.exists(path), name: path, newIdentity: newIdentity)
            if case .new = opening { try prepareNewStore(identity: newIdentity, objectStore: objectStore) }
            catalog = try SQLiteCatalog(
                path: path, library: path, opening: opening, durableCommits: configuration.durableCommits,
                busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        case let .postgres(connectionString):
            catalog = try PostgresCatalog(
                connectionString: connectionString, lockTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
                retryWindowSeconds: configuration.catalogRetrySeconds
            ) { (exists: Bool) throws(LibraryError) -> CatalogOpening in
                let opening = try decide(exists: exists, name: "the PostgreSQL database", newIdentity: newIdentity)
                if case .new = opening { try prepareNewStore(identity: newIdentity, objectStore: objectStore) }
                return opening
            }
        }
        let store: any ResourceStore
        if let objectStore {
            let marked: String?
            do throws(ResourceStoreError) {
                marked = try objectStore.libraryIdentity()
            } catch {
                throw .store(error)
            }
            guard marked != nil else { throw .notALibrary(path: storeName, problem: .storeMissing) }
            store = objectStore
        } else {
            guard case .populated = LibraryFileSystem.directoryState(storePath) else {
                throw .notALibrary(path: storePath, problem: .storeMissing)
            }
            store = try makeStore()
        }
        let identity = try LibraryOpener.matchedIdentity(
            catalog: catalog, store: store, access: configuration.access, library: storeName)
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

    /// Before a new catalog is created: the store (a directory is created), marked with the new
    /// identity; refused when it is already marked as another library's (nothing is created then).
    private func prepareNewStore(identity: String, objectStore: (any ResourceStore)?) throws(LibraryError) {
        let store: any ResourceStore
        if let objectStore {
            store = objectStore
        } else {
            let created = FileSystemPath.createDirectories(storePath)
            guard created == 0 else {
                throw .io(path: storePath, reason: "cannot create the resource directory: \(FileSystemPath.errorText(created))")
            }
            store = try makeStore()
        }
        let marked: String
        do throws(ResourceStoreError) {
            marked = try store.claim(libraryIdentity: identity)
        } catch {
            throw .store(error)
        }
        guard marked == identity else {
            throw .notALibrary(path: storeName, problem: .identityMismatch(catalog: identity, store: marked))
        }
    }

    /// The store: a `DirectoryStore` (abandoned temporary files removed when read-write), or an
    /// `S3ResourceStore` on the endpoint with the environment's credentials.
    private func makeStore() throws(LibraryError) -> any ResourceStore {
        if case .directory = storeLocation {
            do throws(ResourceStoreError) {
                return try DirectoryStore(directory: storePath, removingAbandonedTemporaryFiles: configuration.access == .readWrite)
            } catch {
                throw .store(error)
            }
        }
        do throws(StoreLocationError) {
            return try storeLocation.open(s3Endpoint: s3Endpoint, cacheDirectory: cacheDirectory)
        } catch {
            switch error {
            case let .store(failure): throw .store(failure)
            case .invalid: throw .invalidRequest(error.description)
            }
        }
    }
}
