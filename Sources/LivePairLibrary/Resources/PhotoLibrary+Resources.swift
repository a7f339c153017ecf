import LivePairFormats

extension PhotoLibrary {
    /// The resources of `asset` (for a Live Photo: the still and the paired movie), in the order
    /// they were added.
    public func assetResources(for asset: Asset) throws(LibraryError) -> [LibraryAssetResource] {
        try assetResources(forLocalIdentifier: asset.localIdentifier)
    }

    /// The resources of the asset with `identifier` (empty when there is no such asset).
    public func assetResources(forLocalIdentifier identifier: String) throws(LibraryError) -> [LibraryAssetResource] {
        try catalog.read { (reader: any CatalogReader) throws(LibraryError) in try reader.resources(ofAsset: identifier) }
    }

    /// A local file holding the bytes of `resource`, for readers that want a file (read only:
    /// never modify or remove it): the stored file of a directory store, a cached copy of an
    /// S3 object.
    public func storagePath(for resource: LibraryAssetResource) throws(LibraryError) -> String {
        do throws(ResourceStoreError) {
            return try store.localPath(for: resource.digest)
        } catch {
            throw .store(error)
        }
    }

    /// Whether `storagePath(for:)` is the stored file itself (a directory store), so reading a
    /// part of a resource there costs no download; false for an S3 store, whose
    /// `byteSource(for:)` reads ranges with ranged GETs instead.
    public var resourcesAreLocalFiles: Bool { store is DirectoryStore }

    /// The store holding the resources' bytes (a `DirectoryStore` or an `S3ResourceStore`), for
    /// hosts that keep their own files beside it (a server's derivative cache). Never remove or
    /// change what the library stored there.
    public var resourceStore: any ResourceStore { store }

    /// Random access to the bytes of `resource` (ranged GETs for an S3 store: nothing else is fetched).
    public func byteSource(for resource: LibraryAssetResource) throws(LibraryError) -> any ByteSource {
        do throws(ResourceStoreError) {
            return try store.byteSource(for: resource.digest)
        } catch {
            throw .store(error)
        }
    }
}

extension LibraryAssetResource {
    /// The resources of `asset` in `library`, as PhotoKit's `PHAssetResource.assetResources(for:)`.
    public static func assetResources(for asset: Asset, in library: PhotoLibrary) throws(LibraryError) -> [LibraryAssetResource] {
        try library.assetResources(for: asset)
    }
}
