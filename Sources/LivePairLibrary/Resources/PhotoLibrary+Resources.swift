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
}

extension LibraryAssetResource {
    /// The resources of `asset` in `library`, as PhotoKit's `PHAssetResource.assetResources(for:)`.
    public static func assetResources(for asset: Asset, in library: PhotoLibrary) throws(LibraryError) -> [LibraryAssetResource] {
        try library.assetResources(for: asset)
    }
}
