public import LivePairMedia

/// The size, fit and crop a request asks for, and how to apply them to an upright image.
public struct ImageGeometry: Hashable, Sendable {
    /// The target size in pixels, or `PixelSize.maximum` for the original size.
    public let targetSize: PixelSize
    /// Aspect fit or aspect fill.
    public let contentMode: ContentMode
    /// None, fast or exact.
    public let resizeMode: ResizeMode
    /// The part of the upright image wanted; nil for all of it.
    public let crop: NormalizedRect?
    /// The share (0 to 1) of the fitted size, in both dimensions, that a cheap source must
    /// reach to serve as the degraded result (see `ImageRequestOptions.degradedMinimumCoverage`).
    public let degradedMinimumCoverage: Double

    /// A geometry. `degradedMinimumCoverage` is clamped to 0...1 (a value that is not a number
    /// gives the default, 0).
    public init(
        targetSize: PixelSize, contentMode: ContentMode = .aspectFit, resizeMode: ResizeMode = .fast,
        crop: NormalizedRect? = nil,
        degradedMinimumCoverage: Double = ImageRequestOptions.defaultDegradedMinimumCoverage
    ) {
        self.targetSize = targetSize
        self.contentMode = contentMode
        self.resizeMode = resizeMode
        self.crop = crop == .unit ? nil : crop
        self.degradedMinimumCoverage = degradedMinimumCoverage.isNaN
            ? ImageRequestOptions.defaultDegradedMinimumCoverage : min(max(degradedMinimumCoverage, 0), 1)
    }

    /// True when the original size is wanted (the sentinel, or resize mode `.none`).
    public var wantsOriginalSize: Bool { targetSize.isMaximum || resizeMode == .none }

    /// The size an upright source of `width` x `height` is scaled to (after the crop): the
    /// content-mode size, never larger than the source, at least 1x1.
    public func outputSize(sourceWidth width: Int, sourceHeight height: Int) -> PixelSize {
        let (croppedWidth, croppedHeight) = croppedSize(width: width, height: height)
        guard !wantsOriginalSize else { return PixelSize(width: croppedWidth, height: croppedHeight) }
        let scale = min(1, scaleFactor(width: croppedWidth, height: croppedHeight))
        return PixelSize(
            width: max(1, Int((Double(croppedWidth) * scale).rounded())),
            height: max(1, Int((Double(croppedHeight) * scale).rounded())))
    }

    /// The factor that takes an upright source of `width` x `height` (before the crop) to the
    /// target size; at most 1 means the source is large enough. 0 for the original size.
    public func sourceScale(width: Int, height: Int) -> Double {
        guard !wantsOriginalSize else { return width > 0 && height > 0 ? 1 : 0 }
        let (croppedWidth, croppedHeight) = croppedSize(width: width, height: height)
        return scaleFactor(width: croppedWidth, height: croppedHeight)
    }

    /// True when an upright source of `width` x `height` is large enough for this geometry.
    public func isCovered(byWidth width: Int, height: Int) -> Bool {
        guard width > 0, height > 0 else { return false }
        return wantsOriginalSize ? false : sourceScale(width: width, height: height) <= 1.0001
    }

    /// The share of the fitted size that an upright source of `width` x `height` covers, in the
    /// smaller of its two proportions, when the full upright image is `fullWidth` x `fullHeight`
    /// (both before the crop). The fitted size is `outputSize` of the full image: the target
    /// size with the content mode, never more than the image itself (its whole size for
    /// original-size requests). 0 for empty sizes.
    public func coverage(sourceWidth width: Int, sourceHeight height: Int, fullWidth: Int, fullHeight: Int) -> Double {
        guard width > 0, height > 0, fullWidth > 0, fullHeight > 0 else { return 0 }
        let fitted = outputSize(sourceWidth: fullWidth, sourceHeight: fullHeight)
        let (croppedWidth, croppedHeight) = croppedSize(width: width, height: height)
        return min(Double(croppedWidth) / Double(fitted.width), Double(croppedHeight) / Double(fitted.height))
    }

    /// True when an upright source of `width` x `height` may serve as the degraded result of a
    /// full image of `fullWidth` x `fullHeight`: it covers at least `degradedMinimumCoverage` of
    /// the fitted size in both dimensions (a little rounding slack is allowed).
    public func qualifiesAsDegraded(sourceWidth width: Int, sourceHeight height: Int, fullWidth: Int, fullHeight: Int)
        -> Bool
    {
        guard width > 0, height > 0 else { return false }
        return coverage(sourceWidth: width, sourceHeight: height, fullWidth: fullWidth, fullHeight: fullHeight)
            >= degradedMinimumCoverage - 0.0001
    }

    /// Crops, scales (and for `.exact` aspect fill, centre-crops to the target) an upright image.
    /// Never enlarges. With `cancellation`, large images are scaled in bands and the flag is
    /// checked before each (`MediaError.cancelled`).
    public func render(_ image: PixelBuffer, cancellation: CancellationFlag? = nil) throws(MediaError) -> PixelBuffer {
        let result = try cropped(image)
        guard !wantsOriginalSize else { return result }
        return try fitted(
            result, to: outputSize(sourceWidth: image.width, sourceHeight: image.height), cancellation: cancellation)
    }

    /// Renders a degraded (cheap, smaller) upright image of a full image of `fullWidth` x
    /// `fullHeight`: crops it, then scales it to the size the full image would get (enlarging
    /// when the source is smaller), so the degraded and final results have the same size.
    /// Original-size requests keep the source's (cropped) size: it is not enlarged to the full size.
    public func renderDegraded(
        _ image: PixelBuffer, fullWidth: Int, fullHeight: Int, cancellation: CancellationFlag? = nil
    ) throws(MediaError) -> PixelBuffer {
        let result = try cropped(image)
        guard !wantsOriginalSize, fullWidth > 0, fullHeight > 0 else { return result }
        return try fitted(result, to: outputSize(sourceWidth: fullWidth, sourceHeight: fullHeight), cancellation: cancellation)
    }

    /// Renders what `StillDecoding.decodePreview` returned like `render`: cropped, reduced to
    /// the target size when larger, never enlarged. A degraded image smaller than the target
    /// keeps the size its source has (PhotoKit's opportunistic delivery: the view scales it up).
    public func render(_ preview: PreviewImage, cancellation: CancellationFlag? = nil) throws(MediaError) -> PixelBuffer {
        try render(preview.image, cancellation: cancellation)
    }

    /// The normalized crop applied to `image`.
    private func cropped(_ image: PixelBuffer) throws(MediaError) -> PixelBuffer {
        guard let crop else { return image }
        let rect = crop.pixelRect(width: image.width, height: image.height)
        return try image.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    /// `image` scaled to `size` (area averaging when reducing, bilinear when enlarging), then
    /// centre-cropped to the target for `.exact` aspect fill.
    private func fitted(_ image: PixelBuffer, to size: PixelSize, cancellation: CancellationFlag?) throws(MediaError)
        -> PixelBuffer
    {
        var result = image
        if size.width != result.width || size.height != result.height {
            let filter: PixelBuffer.ScalingFilter = size.width > result.width || size.height > result.height ? .bilinear : .area
            if let cancellation {
                result = try result.scaled(toWidth: size.width, height: size.height, filter: filter, cancellation: cancellation)
            } else {
                result = try result.scaled(toWidth: size.width, height: size.height, filter: filter)
            }
        }
        if resizeMode == .exact, contentMode == .aspectFill {
            let width = min(result.width, targetSize.width), height = min(result.height, targetSize.height)
            if width < result.width || height < result.height {
                result = try result.cropped(
                    x: (result.width - width) / 2, y: (result.height - height) / 2, width: width, height: height)
            }
        }
        return result
    }

    private func croppedSize(width: Int, height: Int) -> (Int, Int) {
        guard let crop, width > 0, height > 0 else { return (width, height) }
        let rect = crop.pixelRect(width: width, height: height)
        return (rect.width, rect.height)
    }

    private func scaleFactor(width: Int, height: Int) -> Double {
        guard width > 0, height > 0 else { return 0 }
        let horizontal = Double(targetSize.width) / Double(width)
        let vertical = Double(targetSize.height) / Double(height)
        return contentMode == .aspectFit ? min(horizontal, vertical) : max(horizontal, vertical)
    }
}
