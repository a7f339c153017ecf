import LivePair
import LivePairLibrary

/// A web-ready derivative of an asset, made by the loader: browsers show JPEG and play H.264,
/// not HEIC or HEVC.
enum Derivative: Sendable, Hashable {
    /// The degraded first image (thumbnail or reduced decode), 320 px at most.
    case placeholder
    /// The full still at most `size` pixels on its longer side, upright.
    case still(DerivativeSize)
    /// The movie at most `size` pixels on its longer side, H.264 with AAC audio.
    case motion(DerivativeSize)
    /// A plain video's playable copy at most `size` pixels on its longer side, H.264 with AAC audio.
    case playback(DerivativeSize)

    /// The size of the placeholder's box.
    static let placeholderSize = 320
    /// The sizes a client may ask for (each is snapped: `DerivativeSize.snapped`).
    static let sizes = 16...4096

    /// `image/jpeg` or `video/mp4`.
    var contentType: String {
        switch self {
        case .motion, .playback: return "video/mp4"
        case .placeholder, .still: return "image/jpeg"
        }
    }

    /// The cache key: the resources' digests, the kind and the size, so it names the content.
    func key(photo: LibraryAssetResource?, video: LibraryAssetResource?) -> String {
        let base = (photo?.digest.hex ?? "none") + "-" + (video?.digest.hex ?? "none")
        switch self {
        case .placeholder: return base + "-placeholder.jpg"
        case let .still(size): return base + "-still-\(size.name).jpg"
        case let .motion(size): return base + "-motion-\(size.name).mp4"
        case let .playback(size): return base + "-playback-\(size.name).mp4"
        }
    }
}

/// The size of a still or motion derivative: one of a few boxes, or the source's own size, so
/// one asset has a bounded number of derivative files whatever sizes clients ask for.
enum DerivativeSize: Sendable, Hashable {
    /// At most this many pixels on the longer side (one of `steps`).
    case box(Int)
    /// The source's size.
    case full

    /// The boxes below the source's size a request is snapped to.
    static let steps = [256, 512, 1024, 2048]

    /// `requested` snapped up to the next step (a client gets at least what it asked for), and
    /// `.full` when that step is not smaller than the source's longer side `sourceLongSide` (0:
    /// unknown) or `requested` is above every step.
    static func snapped(_ requested: Int, sourceLongSide: Int) -> DerivativeSize {
        guard let step = steps.first(where: { $0 >= requested }), sourceLongSide <= 0 || step < sourceLongSide else {
            return .full
        }
        return .box(step)
    }

    /// `256`, `512`, ... or `full`: its part of the cache key.
    var name: String {
        switch self {
        case let .box(size): return String(size)
        case .full: return "full"
        }
    }

    /// The loader's target size (`ImageManagerMaximumSize` for the source's size).
    var targetSize: PixelSize {
        switch self {
        case let .box(size): return PixelSize(width: size, height: size)
        case .full: return ImageManagerMaximumSize
        }
    }
}
