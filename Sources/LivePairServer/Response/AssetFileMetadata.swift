import LivePair
import LivePairLibrary

/// What a detail view shows that the catalog does not keep, read from the headers of the asset's
/// original still (or movie, for a video): the upright size and the camera.
struct AssetFileMetadata: Encodable {
    /// The width as shown: the stored width, or the height when the orientation turns it (5-8).
    var uprightWidth: Int
    /// The height as shown.
    var uprightHeight: Int
    /// EXIF orientation 1-8 (the still's, or derived from the movie's track matrix); 1 when none.
    var orientation: Int
    /// Camera maker and model, when the file names them.
    var make: String?
    var model: String?

    /// The metadata of `asset`, read from `resources`' still (or movie) in `library`; nil when the
    /// asset has neither or its bytes cannot be read.
    init?(_ asset: Asset, resources: [LibraryAssetResource], library: PhotoLibrary) {
        let wanted: [AssetResourceType] = asset.mediaType == .video ? [.video] : [.photo]
        guard let resource = resources.first(where: { wanted.contains($0.type) }),
            let source = try? library.byteSource(for: resource)
        else { return nil }
        let identity = ResourceIdentifier().identify(source: source, path: resource.originalFilename ?? resource.type.rawValue)
        orientation = identity.orientation ?? 1
        let width = identity.width ?? asset.pixelWidth
        let height = identity.height ?? asset.pixelHeight
        let turned = (5...8).contains(orientation)
        uprightWidth = turned ? height : width
        uprightHeight = turned ? width : height
        make = identity.make
        model = identity.model
    }
}
