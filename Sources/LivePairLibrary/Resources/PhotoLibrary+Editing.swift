public import LivePair
public import LivePairFormats

extension PhotoLibrary {
    /// The resources of `asset` that `version` reads: for `.current` the render and adjustment
    /// data in place of the originals they edit; for `.original` and `.unadjusted` the originals
    /// (and camera adjustments) without the edit.
    public func assetResources(for asset: Asset, version: AssetVersion) throws(LibraryError) -> [LibraryAssetResource] {
        let resources = try assetResources(for: asset)
        guard version == .current else { return resources.filter { !$0.type.isEdit } }
        let replaced: [AssetResourceType: AssetResourceType] = [
            .fullSizePhoto: .photo, .fullSizePairedVideo: .pairedVideo, .fullSizeVideo: .video,
        ]
        let renderedOriginals = Set(resources.compactMap { replaced[$0.type] })
        return resources.filter { !renderedOriginals.contains($0.type) }
    }

    /// The key photo's time, in seconds on the movie `version` reads: for `.current`, the
    /// still-image time of the rendered movie (`fullSizePairedVideo`) of an edited Live Photo, read
    /// from its headers (nil when it has none); otherwise `asset.stillImageTime`, the original's.
    public func stillImageTime(for asset: Asset, version: AssetVersion) throws(LibraryError) -> Double? {
        guard version == .current else { return asset.stillImageTime }
        return try stillImageTime(for: asset, version: version, resources: try assetResources(for: asset))
    }

    /// `stillImageTime(for:version:)` with `asset`'s resources already read (`assetResources(for:)`),
    /// so a caller that has them (a page of the asset list) does not read them again.
    public func stillImageTime(
        for asset: Asset, version: AssetVersion, resources: [LibraryAssetResource]
    ) throws(LibraryError) -> Double? {
        guard version == .current, let render = resources.first(where: { $0.type == .fullSizePairedVideo })
        else { return asset.stillImageTime }
        let identification = StoredResourceIdentification(store: store, identifier: ResourceIdentifier(), decodes: false)
        do throws(ResourceStoreError) {
            return try identification.identify(
                StoredResource(digest: render.digest, size: render.size), as: .pairedVideo, localCopy: nil
            ).stillImageTime
        } catch {
            throw .store(error)
        }
    }

    /// The adjustment data of `asset`'s edit, as PhotoKit's `PHAdjustmentData` (format identifier,
    /// format version, data), read from its `.adjustmentData` resource; nil when the asset has no
    /// edit. Throws `unreadableResource` when the stored `.AAE` cannot be read (it is kept all the
    /// same, byte for byte, and served as it is).
    public func adjustmentData(for asset: Asset) throws(LibraryError) -> AdjustmentData? {
        try adjustmentSidecar(for: asset)?.adjustmentData
    }

    /// The whole `.AAE` property list of `asset`'s edit (editor, timestamp, render types beside the
    /// adjustment data); nil when the asset has no edit.
    public func adjustmentSidecar(for asset: Asset) throws(LibraryError) -> AdjustmentSidecar? {
        guard let resource = try assetResources(for: asset).first(where: { $0.type == .adjustmentData }) else { return nil }
        let bytes = try AssetResourceManager(library: self).data(for: resource)
        do throws(FormatError) {
            return try AdjustmentSidecar.read(bytes)
        } catch {
            throw .unreadableResource(name: resource.originalFilename ?? "the adjustment data", reason: error.description)
        }
    }
}
