public import LivePairMedia

/// A result of a Live Photo request: the degraded still placeholder, or the full Live Photo.
public enum LivePhotoEvent: Sendable {
    /// The placeholder (the caller's, or the cheapest honest decode of the still), upright, at
    /// the target size. Another call follows.
    case degraded(PixelBuffer)
    /// The full motion result. Nothing follows.
    case final(LivePhoto)

    /// The still image this event carries (the placeholder, or the final still).
    public var image: PixelBuffer {
        switch self {
        case let .degraded(image): return image
        case let .final(livePhoto): return livePhoto.still
        }
    }

    /// True for `.degraded`.
    public var isDegraded: Bool {
        if case .degraded = self { return true }
        return false
    }
}
