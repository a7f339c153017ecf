public import LivePair

extension Array where Element == LibraryAssetResource {
    /// The still `version` reads among an asset's resources: the rendered still for `.current`
    /// when there is one, else the `.photo`; nil for a video.
    public func still(version: AssetVersion = .current) -> LibraryAssetResource? {
        if version == .current, let render = first(where: { $0.type == .fullSizePhoto }) { return render }
        return first { $0.type == .photo }
    }

    /// The movie `version` reads among an asset's resources: for a Live Photo the rendered movie
    /// (`.fullSizePairedVideo`) for `.current` when there is one, else the `.pairedVideo`; for a
    /// video the `.fullSizeVideo` for `.current` when there is one, else the `.video`; nil when
    /// the asset has no movie of its own.
    public func movie(version: AssetVersion = .current) -> LibraryAssetResource? {
        if version == .current, let render = first(where: { $0.type == .fullSizePairedVideo || $0.type == .fullSizeVideo }) {
            return render
        }
        return first { $0.type == .pairedVideo } ?? first { $0.type == .video }
    }
}

extension Array where Element == LibraryAssetResource {
    /// The resources as `version` shows them, for readers that look for `.photo`, `.pairedVideo`
    /// and `.video`: for `.current` each render takes the place and the type of the original it
    /// renders (`fullSizePhoto` as `.photo`, `fullSizePairedVideo` as `.pairedVideo`,
    /// `fullSizeVideo` as `.video`) and the edit's other resources stay; for `.original` and
    /// `.unadjusted` the edit's resources are left out.
    public func shown(as version: AssetVersion) -> [LibraryAssetResource] {
        guard version == .current else { return filter { !$0.type.isEdit } }
        let renders: [AssetResourceType: AssetResourceType] = [
            .fullSizePhoto: .photo, .fullSizePairedVideo: .pairedVideo, .fullSizeVideo: .video,
        ]
        let rendered = Set(compactMap { renders[$0.type] })
        return compactMap { resource in
            if rendered.contains(resource.type) { return nil }
            guard let type = renders[resource.type] else { return resource }
            return LibraryAssetResource(
                assetLocalIdentifier: resource.assetLocalIdentifier, ordinal: resource.ordinal, type: type,
                digest: resource.digest, size: resource.size, originalFilename: resource.originalFilename,
                uniformTypeIdentifier: resource.uniformTypeIdentifier)
        }
    }
}
