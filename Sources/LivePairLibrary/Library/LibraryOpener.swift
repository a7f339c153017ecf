import Foundation
import LivePairFormats

/// `PhotoLibrary.open`'s decisions: whether the directory gets a new library, holds a healthy one,
/// or is refused. The directory is locked (`flock`) while this runs, so no process sees a library
/// that another is creating half made.
struct LibraryOpener {
    let root: String
    let configuration: LibraryConfiguration
    /// The store the library's resources are really in when it is not the directory's own
    /// (`PhotoLibrary.open(at:store:)`): an interrupted creation is redone only when it is empty too.
    var resourceStore: (any ResourceStore)? = nil

    private var catalogPath: String { root + "/" + PhotoLibrary.catalogFileName }
    private var storePath: String { root + "/" + PhotoLibrary.resourcesDirectoryName }

    /// Opens or creates the library, or throws why it may not.
    func open() throws(LibraryError) -> PhotoLibrary {
        let mode = configuration.openMode
        if case .missing = LibraryFileSystem.directoryState(root) {
            guard mode != .openExisting, configuration.access == .readWrite else { throw .libraryNotFound(path: root) }
            let created = FileSystemPath.createDirectories(root)
            guard created == 0 else {
                throw .io(path: root, reason: "cannot create the library directory: \(FileSystemPath.errorText(created))")
            }
        }
        let lock = try LibraryFileSystem.DirectoryLock(root)
        defer { lock.release() }
        switch LibraryFileSystem.directoryState(root) {
        case .missing:
            throw .libraryNotFound(path: root)
        case let .unusable(reason):
            throw .io(path: root, reason: reason)
        case .empty:
            guard mode != .openExisting, configuration.access == .readWrite else { throw .libraryNotFound(path: root) }
            return try create()
        case .populated:
            if LibraryFileSystem.exists(creationMarkerPath) {
                // A creation that was interrupted (its process died: this lock is free again).
                guard mode != .openExisting, configuration.access == .readWrite else { throw .libraryNotFound(path: root) }
                return try resumeCreation()
            }
            guard mode != .createNew else { throw .directoryNotEmpty(path: root) }
            return try openExisting()
        }
    }

    /// The file that marks a library being created: written first, removed last, so a creation
    /// cut short (the process killed) is recognised and done again, never taken for a library.
    static let creationMarkerName = ".livepair-creating"
    private var creationMarkerPath: String { root + "/" + Self.creationMarkerName }

    /// A new library in the empty directory: the creation marker; the store, marked with a new
    /// identity; the catalog carrying the same identity; then the creation marker goes.
    private func create() throws(LibraryError) -> PhotoLibrary {
        guard LibraryFileSystem.createDurably(creationMarkerPath, in: root) else {
            throw .io(path: creationMarkerPath, reason: "cannot create the file")
        }
        let library = try createStoreAndCatalog()
        guard LibraryFileSystem.removeDurably(creationMarkerPath, in: root) else {
            throw .io(path: creationMarkerPath, reason: "cannot remove the file")
        }
        return library
    }

    /// Starts an interrupted creation over: what it wrote (a catalog, the store's marker) is
    /// removed and the library created again. Refused when the store holds a resource file, which
    /// an interrupted creation never does.
    private func resumeCreation() throws(LibraryError) -> PhotoLibrary {
        if case .populated = LibraryFileSystem.directoryState(storePath) {
            let stored: [ContentDigest]
            do throws(ResourceStoreError) {
                stored = try DirectoryStore(directory: storePath, removingAbandonedTemporaryFiles: false).allDigests()
            } catch {
                throw .store(error)
            }
            guard stored.isEmpty else { throw .notALibrary(path: root, problem: .creationInterrupted) }
        }
        if let resourceStore {
            let stored: [ContentDigest]
            do throws(ResourceStoreError) {
                stored = try resourceStore.allDigests()
            } catch {
                throw .store(error)
            }
            guard stored.isEmpty else { throw .notALibrary(path: root, problem: .creationInterrupted) }
        }
        for suffix in ["", "-wal", "-shm", "-journal"] { LibraryFileSystem.unlink(catalogPath + suffix) }
        LibraryFileSystem.unlink(storePath + "/" + DirectoryStore.identityFileName)
        let library = try createStoreAndCatalog()
        guard LibraryFileSystem.removeDurably(creationMarkerPath, in: root) else {
            throw .io(path: creationMarkerPath, reason: "cannot remove the file")
        }
        return library
    }

    private func createStoreAndCatalog() throws(LibraryError) -> PhotoLibrary {
        let identity = UUID().uuidString
        let store = try makeStore()
        do throws(ResourceStoreError) {
            try store.claim(libraryIdentity: identity)
        } catch {
            throw .store(error)
        }
        let catalog = try SQLiteCatalog(
            path: catalogPath, library: root, opening: .new(identity: identity),
            durableCommits: configuration.durableCommits, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        return try PhotoLibrary(directory: root, configuration: configuration, catalog: catalog, store: store, identity: identity,
            locations: (.sqlite(path: catalogPath), .directory(storePath)))
    }

    /// The library in a directory with entries, checked: catalog recognised, store present, the
    /// same identity in both (a store without a marker, from before markers, is marked now when
    /// read-write).
    private func openExisting() throws(LibraryError) -> PhotoLibrary {
        let catalog = try SQLiteCatalog(
            path: catalogPath, library: root, opening: .existing(configuration.access),
            durableCommits: configuration.durableCommits, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        guard case .populated = LibraryFileSystem.directoryState(storePath) else {
            throw .notALibrary(path: root, problem: .storeMissing)
        }
        let store = try makeStore()
        let identity = try Self.matchedIdentity(catalog: catalog, store: store, access: configuration.access, library: root)
        return try PhotoLibrary(directory: root, configuration: configuration, catalog: catalog, store: store, identity: identity,
            locations: (.sqlite(path: catalogPath), .directory(storePath)))
    }

    /// The identity `catalog` and `store` share, or nil for a catalog from before identities with
    /// an unmarked store (read-only); a store without a marker is marked now when read-write.
    /// Refused (`LibraryError.notALibrary`, naming `library`) when they belong to different libraries.
    static func matchedIdentity(
        catalog: any Catalog, store: any ResourceStore, access: LibraryAccess, library: String
    ) throws(LibraryError) -> String? {
        let catalogIdentity = try catalog.read { (reader: any CatalogReader) throws(LibraryError) in try reader.libraryIdentity() }
        var storeIdentity: String?
        do throws(ResourceStoreError) {
            storeIdentity = try store.libraryIdentity()
            if storeIdentity == nil, let catalogIdentity, access == .readWrite {
                storeIdentity = try store.claim(libraryIdentity: catalogIdentity)
            }
        } catch {
            throw .store(error)
        }
        if let catalogIdentity, let storeIdentity, catalogIdentity != storeIdentity {
            throw .notALibrary(path: library, problem: .identityMismatch(catalog: catalogIdentity, store: storeIdentity))
        }
        if catalogIdentity == nil, let storeIdentity {
            throw .notALibrary(path: library, problem: .identityMismatch(catalog: "none", store: storeIdentity))
        }
        return catalogIdentity != nil && catalogIdentity == storeIdentity ? catalogIdentity : nil
    }

    private func makeStore() throws(LibraryError) -> DirectoryStore {
        do throws(ResourceStoreError) {
            return try DirectoryStore(
                directory: storePath, removingAbandonedTemporaryFiles: configuration.access == .readWrite)
        } catch {
            throw .store(error)
        }
    }
}
