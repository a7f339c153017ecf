public import LivePairFormats
public import LivePairMedia

extension LivePhotoFilter {
    /// The filter as a frame processor: every frame's image filtered, its size kept.
    public var processor: LivePhotoFrameProcessor {
        let filter = self
        return { frame in try filter.apply(to: frame.image) }
    }

    /// `image` (RGBA) filtered.
    ///
    /// - Throws: `MediaError` when the image is not RGBA.
    public func apply(to image: PixelBuffer) throws(MediaError) -> PixelBuffer {
        guard image.format == .rgba8 else { throw .unsupported("the \(rawValue) filter takes RGBA images") }
        var bytes = image.packedBytes
        var index = 0
        while index + 3 < bytes.count {
            switch self {
            case .invert:
                bytes[index] = 255 - bytes[index]
                bytes[index + 1] = 255 - bytes[index + 1]
                bytes[index + 2] = 255 - bytes[index + 2]
            case .mono:
                let luma = (2126 * Int(bytes[index]) + 7152 * Int(bytes[index + 1]) + 722 * Int(bytes[index + 2]) + 5000) / 10_000
                let value = UInt8(min(255, luma))
                (bytes[index], bytes[index + 1], bytes[index + 2]) = (value, value, value)
            }
            index += 4
        }
        return try PixelBuffer(width: image.width, height: image.height, format: .rgba8, storage: bytes)
    }
}
