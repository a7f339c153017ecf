/// How a request delivers its results (PhotoKit's `PHImageRequestOptionsDeliveryMode`).
public enum DeliveryMode: String, Hashable, Sendable, CaseIterable {
    /// A fast degraded result first, then the final one (unless the request is synchronous).
    case opportunistic
    /// Only the final, full-quality result.
    case highQualityFormat
    /// Only one result, the cheapest honest one (it is delivered as final, not degraded).
    case fastFormat
}

/// How the result is resized to the target size (PhotoKit's `PHImageRequestOptionsResizeMode`).
public enum ResizeMode: String, Hashable, Sendable, CaseIterable {
    /// No resizing: the image at the size the decode produced (the original size for a full decode).
    case none
    /// Resized efficiently: the result may be somewhat larger than the target size (a DCT-scaled
    /// JPEG decode or a thumbnail, without a final resample).
    case fast
    /// Resized to match the target size exactly, as the content mode says (aspect-fill results
    /// are cropped to the target size around the centre).
    case exact
}

/// How an image is fitted to the target size (PhotoKit's `PHImageContentMode`).
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
    /// The whole image, as large as fits inside the target size.
    case aspectFit
    /// The image as small as covers the target size (cropped to it with `.exact`).
    case aspectFill
}

/// Options of an image or Live Photo request (PhotoKit's `PHImageRequestOptions` and
/// `PHLivePhotoRequestOptions` in one).
public struct ImageRequestOptions: Sendable {
    /// Degraded-then-final, final only, or fast only. Default: `.opportunistic`.
    public var deliveryMode: DeliveryMode
    /// How the result is resized. Default: `.fast`.
    public var resizeMode: ResizeMode
    /// The part of the upright image wanted, in unit coordinates; nil for the whole image.
    public var normalizedCropRect: NormalizedRect?
    /// When true the request runs on the calling thread and the handler is called exactly once,
    /// with the final result, before the request call returns. Default: false.
    public var isSynchronous: Bool
    /// Called with the fraction done (0 to 1) while reading and decoding, from a background
    /// thread. Never called after the request's terminal result.
    public var progressHandler: (@Sendable (_ progress: Double) -> Void)?
    /// How much of the fitted target size a cheap source (the HEIC `thmb` item, the JPEG's Exif
    /// thumbnail, a DCT-scaled JPEG decode) must cover, in both dimensions, to serve as the
    /// degraded result. The degraded image is delivered at the size its source has (never
    /// enlarged; like PhotoKit's opportunistic delivery, the view scales it up). 0 (the default)
    /// takes any embedded image: the fastest image the files already hold. 1 asks for sources at
    /// or above the target size only. Final results always come from a source at or above the
    /// target size. Clamped to 0...1.
    public var degradedMinimumCoverage: Double
    /// The pixel layout of the images `ImageManager.requestImageInPixelFormat(for:targetSize:contentMode:options:resultHandler:)`
    /// delivers. Default: `.rgba8`.
    public var pixelFormat: ImagePixelFormat
    /// Which version of an edited asset is read (PhotoKit's `version`), when the request is given
    /// an asset's files with the render of its edit (`ImageSource.asset(resourceFileURLs:)`, or
    /// `LivePhotoManager.requestLivePhoto(resourceFileURLs:...)` with the render's files among
    /// them): `.current` (the default) reads the render where there is one, `.unadjusted` and
    /// `.original` the original. Files without a render are read as given whatever the version.
    public var version: AssetVersion

    /// The default `degradedMinimumCoverage`: 0, any embedded image qualifies (an iPhone HEIC's
    /// 416x312 `thmb` item, a JPEG's 160x120 Exif thumbnail), whatever the target size.
    public static let defaultDegradedMinimumCoverage = 0.0

    /// Options with PhotoKit's defaults unless given.
    public init(
        deliveryMode: DeliveryMode = .opportunistic, resizeMode: ResizeMode = .fast,
        normalizedCropRect: NormalizedRect? = nil, isSynchronous: Bool = false,
        progressHandler: (@Sendable (_ progress: Double) -> Void)? = nil,
        degradedMinimumCoverage: Double = ImageRequestOptions.defaultDegradedMinimumCoverage,
        pixelFormat: ImagePixelFormat = .rgba8, version: AssetVersion = .current
    ) {
        self.deliveryMode = deliveryMode
        self.resizeMode = resizeMode
        self.normalizedCropRect = normalizedCropRect
        self.isSynchronous = isSynchronous
        self.progressHandler = progressHandler
        self.degradedMinimumCoverage = degradedMinimumCoverage
        self.pixelFormat = pixelFormat
        self.version = version
    }

    /// The geometry these options ask for at `targetSize` with `contentMode`.
    func geometry(targetSize: PixelSize, contentMode: ContentMode) -> ImageGeometry {
        ImageGeometry(
            targetSize: targetSize, contentMode: contentMode, resizeMode: resizeMode, crop: normalizedCropRect,
            degradedMinimumCoverage: degradedMinimumCoverage)
    }
}
