import LivePair
import LivePairFormats

extension PhotoLibrary {
    /// The input of an edit of `asset`, as PhotoKit's `PHAsset.requestContentEditingInput`: the
    /// base is the render when the asset is edited (the current version), unless
    /// `options.canHandleAdjustmentData` says the editor can resume the edit's adjustment data,
    /// then it is the original; an asset never edited gives its original. The base files are
    /// local files (fetched into the S3 store's cache when needed).
    ///
    /// - Throws: `resourceMissing` or `store` when a base file cannot be had; catalog errors.
    public func requestContentEditingInput(
        for asset: Asset, options: ContentEditingInputRequestOptions = ContentEditingInputRequestOptions()
    ) throws(LibraryError) -> ContentEditingInput {
        let resources = try assetResources(for: asset)
        let hasRender = resources.contains { $0.type.isEdit && $0.type != .adjustmentData }
        var adjustmentData: AdjustmentData?
        if resources.contains(where: { $0.type == .adjustmentData }) {
            do throws(LibraryError) {
                adjustmentData = try self.adjustmentData(for: asset)
            } catch {
                if case .unreadableResource = error { adjustmentData = nil } else { throw error }
            }
        }
        var version = AssetVersion.current
        if hasRender, let adjustmentData, let canHandle = options.canHandleAdjustmentData, canHandle(adjustmentData) {
            version = .original
        }
        let still = resources.still(version: version)
        let movie = resources.movie(version: version)
        let adjustments = resources.first { $0.type == .adjustmentData }
        let original = resources.first { $0.type == .photo } ?? resources.first { $0.type == .video }
        return ContentEditingInput(
            asset: asset, baseVersion: version, baseStill: still, baseMovie: movie,
            fullSizeImagePath: try still.map(localPath(of:)), videoPath: try movie.map(localPath(of:)),
            adjustmentData: adjustmentData, adjustmentDataPath: try adjustments.map(localPath(of:)),
            originalFilename: original?.originalFilename)
    }

    /// A local file holding `resource`'s bytes (the stored file, or a cached copy).
    func localPath(of resource: LibraryAssetResource) throws(LibraryError) -> String {
        do throws(ResourceStoreError) {
            return try store.localPath(for: resource.digest)
        } catch {
            if case .notFound = error { throw .resourceMissing(resource.digest) }
            throw .store(error)
        }
    }
}
