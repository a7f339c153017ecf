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

    /// Where the bytes of `resource` are kept, for readers that want the file itself (read only:
    /// never modify or remove it).
    public func storagePath(for resource: LibraryAssetResource) -> String { store.path(for: resource.digest) }
}

extension LibraryAssetResource {
    /// The resources of `asset` in `library`, as PhotoKit's `PHAssetResource.assetResources(for:)`.
    public static func assetResources(for asset: Asset, in library: PhotoLibrary) throws(LibraryError) -> [LibraryAssetResource] {
        try library.assetResources(for: asset)
    }
}
