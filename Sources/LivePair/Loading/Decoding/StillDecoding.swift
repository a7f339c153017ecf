public import LivePairMedia

/// Decodes stills for the loader. The loader calls it from background threads; implementations
/// must be thread-safe and should check `cancellation` between stages. Tests inject counting
/// or blocking fakes.
public protocol StillDecoding: Sendable {
    /// The cheapest honest upright image of the still at `path`, large enough for `geometry`
    /// when the file has such a source (an embedded thumbnail, a DCT-scaled decode), else the
    /// full decode. The loader scales and crops it afterwards; when it says it is full quality
    /// the loader uses it for the final result too instead of decoding again.
    func decodePreview(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PreviewImage

    /// The full-quality upright image of the still at `path`, at least as large as `geometry`
    /// needs (a reduced decode is allowed when it still covers the target size).
    func decodeFull(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PixelBuffer
}

/// What `StillDecoding.decodePreview` returns.
public struct PreviewImage: Sendable {
    /// The upright image.
    public let image: PixelBuffer
    /// True when it is what `decodeFull` would return (no cheaper source covered the target).
    public let isFullQuality: Bool

    /// A preview.
    public init(image: PixelBuffer, isFullQuality: Bool) {
        self.image = image
        self.isFullQuality = isFullQuality
    }
}
