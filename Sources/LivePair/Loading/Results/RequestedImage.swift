public import LivePairMedia

/// An image request's result in the pixel format the request asked for
/// (`ImageRequestOptions.pixelFormat`).
public enum RequestedImage: Sendable, Equatable {
    /// Packed RGBA8.
    case rgba8(PixelBuffer)
    /// Planar YUV 4:2:0.
    case yuv420p(PlanarPixelBuffer)

    /// The RGBA image, or nil for a planar one.
    public var rgba: PixelBuffer? {
        if case let .rgba8(image) = self { return image }
        return nil
    }

    /// The planar image, or nil for an RGBA one.
    public var planar: PlanarPixelBuffer? {
        if case let .yuv420p(image) = self { return image }
        return nil
    }

    /// Width in pixels.
    public var width: Int {
        switch self {
        case let .rgba8(image): return image.width
        case let .yuv420p(image): return image.width
        }
    }

    /// Height in pixels.
    public var height: Int {
        switch self {
        case let .rgba8(image): return image.height
        case let .yuv420p(image): return image.height
        }
    }

    /// The upright RGBA result `image` in `format` (converted by libswscale for `.yuv420p`).
    static func converting(_ image: PixelBuffer, to format: ImagePixelFormat) throws(MediaError) -> RequestedImage {
        switch format {
        case .rgba8: return .rgba8(image)
        case .yuv420p: return .yuv420p(try image.yuv420p())
        }
    }
}
