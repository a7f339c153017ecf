public import LivePairMedia

/// Decodes stills for the loader. The loader calls it from background threads; implementations
/// must be thread-safe and should check `cancellation` between stages. Tests inject counting
/// or blocking fakes.
public protocol StillDecoding: Sendable {
    /// The cheapest honest upright image of the still at `path` for the degraded result: the
    /// fastest source that covers `geometry.degradedMinimumCoverage` of the fitted target size
    /// (an embedded thumbnail, a DCT-scaled decode), else the full decode. The loader crops and
    /// scales it afterwards (enlarging it to the final size when it reports `fullSize`); when it
    /// says it is full quality the loader uses it for the final result too instead of decoding again.
    func decodePreview(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PreviewImage

    /// The image the still's file already holds (the HEIC `thmb` item, the JPEG's Exif
    /// thumbnail) when it covers `geometry.degradedMinimumCoverage`, upright; nil when the file
    /// holds none. The Live Photo loader asks this first and, on nil, shows the paired movie's
    /// frame at the still time as the degraded result. The default returns `decodePreview`'s image.
    func decodeEmbeddedPreview(path: String, geometry: ImageGeometry, cancellation: CancellationFlag)
        throws(LoaderError) -> PreviewImage?

    /// The full-quality upright image of the still at `path`, at least as large as `geometry`
    /// needs (a reduced decode is allowed when it still covers the target size).
    func decodeFull(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PixelBuffer
}

extension StillDecoding {
    /// See `StillDecoding.decodeEmbeddedPreview`: `decodePreview`'s image (decoders that cannot
    /// tell an embedded image from a decode).
    public func decodeEmbeddedPreview(path: String, geometry: ImageGeometry, cancellation: CancellationFlag)
        throws(LoaderError) -> PreviewImage?
    {
        try decodePreview(path: path, geometry: geometry, cancellation: cancellation)
    }
}

/// What `StillDecoding.decodePreview` returns.
public struct PreviewImage: Sendable {
    /// The upright image.
    public let image: PixelBuffer
    /// True when it is what `decodeFull` would return (no cheaper source covered the target).
    public let isFullQuality: Bool
    /// Where the pixels came from.
    public let source: PreviewSource
    /// The upright size of the full image (after its clean-aperture crop), when known: the
    /// loader scales a degraded image to the size the full image would get. Nil leaves the
    /// degraded image at most its own size.
    public let fullSize: PixelSize?

    /// A preview.
    public init(image: PixelBuffer, isFullQuality: Bool, source: PreviewSource = .fullDecode, fullSize: PixelSize? = nil) {
        self.image = image
        self.isFullQuality = isFullQuality
        self.source = source
        self.fullSize = fullSize
    }
}
