/// A planar YUV image: a full-size luma (Y) plane and two chroma (U = Cb, V = Cr) planes, each
/// plane a one-byte-per-sample `PixelBuffer` of format `.gray8`.
///
/// The only layout is `yuv420p` (FFmpeg's `AV_PIX_FMT_YUV420P`, 8 bits): the chroma planes have
/// half the width and half the height, rounded up. `matrix` and `isFullRange` say how the
/// samples map to RGB, so a consumer (an encoder, a GPU shader) can interpret them. Values are
/// immutable and `Sendable`; rows of each plane may be padded (`bytesPerRow`).
public struct PlanarPixelBuffer: Sendable, Equatable {
    /// How the planes are laid out.
    public enum Format: Sendable, Equatable {
        /// Y at full size, U and V at half width and half height (rounded up), 8 bits each.
        case yuv420p
    }

    /// The YCbCr matrix the samples were computed with.
    public enum ColorMatrix: Sendable, Equatable {
        /// ITU-R BT.601 (SD video, JPEG).
        case bt601
        /// ITU-R BT.709 (HD video).
        case bt709
        /// ITU-R BT.2020 (UHD and HDR video; non-constant luminance).
        case bt2020
        /// SMPTE 240M.
        case smpte240m
        /// FCC (US Title 47).
        case fcc
    }

    /// Width of the image (of the Y plane), in pixels.
    public let width: Int
    /// Height of the image (of the Y plane), in pixels.
    public let height: Int
    /// The plane layout.
    public let format: Format
    /// The luma plane, `width` x `height`.
    public let y: PixelBuffer
    /// The Cb plane, `chromaWidth` x `chromaHeight`.
    public let u: PixelBuffer
    /// The Cr plane, `chromaWidth` x `chromaHeight`.
    public let v: PixelBuffer
    /// The YCbCr matrix.
    public let matrix: ColorMatrix
    /// True for full-range samples (0-255, "JPEG"); false for limited range (Y 16-235, chroma
    /// 16-240, "MPEG"/video).
    public let isFullRange: Bool

    /// Wraps three `.gray8` planes; throws `invalidImage` unless their sizes form `yuv420p`.
    public init(y: PixelBuffer, u: PixelBuffer, v: PixelBuffer, matrix: ColorMatrix, isFullRange: Bool) throws(MediaError) {
        guard y.format == .gray8, u.format == .gray8, v.format == .gray8 else {
            throw .invalidImage(reason: "planar YUV planes must be one byte per sample")
        }
        let chroma = Self.chromaSize(width: y.width, height: y.height)
        guard u.width == chroma.width, u.height == chroma.height, v.width == chroma.width, v.height == chroma.height else {
            throw .invalidImage(
                reason: "chroma planes \(u.width)x\(u.height) and \(v.width)x\(v.height) do not fit a "
                    + "\(y.width)x\(y.height) yuv420p image")
        }
        width = y.width
        height = y.height
        format = .yuv420p
        self.y = y
        self.u = u
        self.v = v
        self.matrix = matrix
        self.isFullRange = isFullRange
    }

    /// The chroma plane size of a `yuv420p` image of `width` x `height`: half of each, rounded up.
    public static func chromaSize(width: Int, height: Int) -> (width: Int, height: Int) {
        ((width + 1) / 2, (height + 1) / 2)
    }

    /// Width of the chroma planes.
    public var chromaWidth: Int { u.width }
    /// Height of the chroma planes.
    public var chromaHeight: Int { u.height }

    /// The planes in order: Y, U, V.
    public var planes: [PixelBuffer] { [y, u, v] }

    /// The image turned anticlockwise by a multiple of 90 degrees (each plane turned alike).
    public func rotated(anticlockwiseDegrees degrees: Int) throws(MediaError) -> PlanarPixelBuffer {
        if ((degrees / 90) % 4 + 4) % 4 == 0, degrees % 90 == 0 { return self }
        return try PlanarPixelBuffer(
            y: try y.rotated(anticlockwiseDegrees: degrees), u: try u.rotated(anticlockwiseDegrees: degrees),
            v: try v.rotated(anticlockwiseDegrees: degrees), matrix: matrix, isFullRange: isFullRange)
    }
}
