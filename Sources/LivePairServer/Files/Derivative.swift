import LivePairLibrary

/// A web-ready derivative of an asset, made by the loader: browsers show JPEG and play H.264,
/// not HEIC or HEVC.
enum Derivative: Sendable, Hashable {
    /// The degraded first image (thumbnail or reduced decode), 320 px at most.
    case placeholder
    /// The full still at most `size` pixels on its longer side, upright.
    case still(size: Int)
    /// The movie at most `size` pixels on its longer side, H.264 with AAC audio.
    case motion(size: Int)

    /// The size of the placeholder's box.
    static let placeholderSize = 320
    /// The sizes a client may ask for.
    static let sizes = 16...4096

    /// `image/jpeg` or `video/mp4`.
    var contentType: String {
        if case .motion = self { return "video/mp4" }
        return "image/jpeg"
    }

    /// The cache key: the resources' digests, the kind and the size, so it names the content.
    func key(photo: LibraryAssetResource?, video: LibraryAssetResource?) -> String {
        let base = (photo?.digest.hex ?? "none") + "-" + (video?.digest.hex ?? "none")
        switch self {
        case .placeholder: return base + "-placeholder.jpg"
        case let .still(size): return base + "-still-\(size).jpg"
        case let .motion(size): return base + "-motion-\(size).mp4"
        }
    }
}
