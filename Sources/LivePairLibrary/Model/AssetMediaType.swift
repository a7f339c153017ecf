/// What an asset is, as PhotoKit's `PHAssetMediaType`.
public enum AssetMediaType: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Not known (no resource of a format LivePair reads).
    case unknown = 0
    /// A photo, Live Photo or motion photo.
    case image = 1
    /// A movie.
    case video = 2

    /// `image`, `video` or `unknown`.
    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .image: return "image"
        case .video: return "video"
        }
    }
}
