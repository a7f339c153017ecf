/// Where a degraded (preview) image came from.
public enum PreviewSource: Hashable, Sendable, CustomStringConvertible {
    /// The HEIF `thmb` item (an HEVC image decoded by FFmpeg).
    case heifThumbnail
    /// The JPEG's Exif thumbnail (IFD1).
    case exifThumbnail
    /// libjpeg-turbo's DCT-domain reduction by 1/`denominator` (2, 4 or 8).
    case reducedDecode(denominator: Int)
    /// Every HEIC grid tile decoded and averaged down by 1/`denominator` (2, 4 or 8) as it is
    /// converted (`HEICImageDecoder.decode(_:reduction:isCancelled:)`).
    case reducedTiles(denominator: Int)
    /// The full decode (HEIC: every grid tile; JPEG: at full size).
    case fullDecode
    /// The paired movie's (or a motion photo's video's) frame at the still time: the degraded
    /// result of a Live Photo whose still holds no embedded image. It is the poster frame the
    /// Live Photo needs anyway, so it costs the request nothing extra.
    case movieFrame
    /// The movie's key frame nearest the still time, when that is not the still-time frame
    /// itself: one frame decoded without the frames between the key frame and the still time.
    case movieKeyFrame

    /// `heif-thumbnail`, `exif-thumbnail`, `dct-1/8`, `tiles-1/8`, `full-decode`, `movie-frame`, `movie-key-frame`.
    public var description: String {
        switch self {
        case .heifThumbnail: return "heif-thumbnail"
        case .exifThumbnail: return "exif-thumbnail"
        case let .reducedDecode(denominator): return "dct-1/\(denominator)"
        case let .reducedTiles(denominator): return "tiles-1/\(denominator)"
        case .fullDecode: return "full-decode"
        case .movieFrame: return "movie-frame"
        case .movieKeyFrame: return "movie-key-frame"
        }
    }
}
