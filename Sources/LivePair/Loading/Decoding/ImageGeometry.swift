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

    /// A geometry.
    public init(
        targetSize: PixelSize, contentMode: ContentMode = .aspectFit, resizeMode: ResizeMode = .fast,
        crop: NormalizedRect? = nil
    ) {
        self.targetSize = targetSize
        self.contentMode = contentMode
        self.resizeMode = resizeMode
        self.crop = crop == .unit ? nil : crop
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

    /// Crops, scales (and for `.exact` aspect fill, centre-crops to the target) an upright image.
    public func render(_ image: PixelBuffer) throws(MediaError) -> PixelBuffer {
        var result = image
        if let crop {
            let rect = crop.pixelRect(width: image.width, height: image.height)
            result = try result.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        }
        guard !wantsOriginalSize else { return result }
        let size = outputSize(sourceWidth: image.width, sourceHeight: image.height)
        if size.width != result.width || size.height != result.height {
            result = try result.scaled(toWidth: size.width, height: size.height, filter: .area)
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
