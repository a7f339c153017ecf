/// Why an image or movie could not be decoded, encoded or probed. Every throwing API in
/// LivePairMedia throws only this type; a C library failure never traps.
public enum MediaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C library has no decoder (or encoder) for this codec on this system.
    case decoderUnavailable(String)
    /// A C library call failed: `code` is its negative return code (an FFmpeg `AVERROR`, or -1
    /// for turbojpeg) and `message` names the call and says what the library reported.
    case decodeFailed(code: Int32, message: String)
    /// The input is structurally unusable: not the expected format, zero or inconsistent sizes,
    /// missing tiles, an impossible transform.
    case invalidImage(reason: String)
    /// The image has more pixels than the configured limit (`ParseLimits.maximumPixels`);
    /// nothing was allocated for it.
    case tooLarge(pixels: Int, limit: Int)
    /// The caller cancelled the work; partial results were discarded.
    case cancelled
    /// The input uses a feature this module does not handle (a pixel layout, a rotation angle).
    case unsupported(String)
    /// Encoding an image failed (PNG or JPEG output).
    case encodeFailed(reason: String)

    /// A stable kebab-case code for reports and JSON output.
    public var code: String {
        switch self {
        case .decoderUnavailable: return "decoder-unavailable"
        case .decodeFailed: return "decode-failed"
        case .invalidImage: return "invalid-image"
        case .tooLarge: return "image-too-large"
        case .cancelled: return "cancelled"
        case .unsupported: return "unsupported"
        case .encodeFailed: return "encode-failed"
        }
    }

    /// A sentence that says what went wrong.
    public var description: String {
        switch self {
        case let .decoderUnavailable(codec): return "no \(codec) codec is available in the installed libraries"
        case let .decodeFailed(code, message): return "\(message) (code \(code))"
        case let .invalidImage(reason): return "invalid image: \(reason)"
        case let .tooLarge(pixels, limit): return "image has \(pixels) pixels, above the limit of \(limit)"
        case .cancelled: return "cancelled"
        case let .unsupported(what): return "unsupported: \(what)"
        case let .encodeFailed(reason): return "encoding failed: \(reason)"
        }
    }
}

extension MediaError {
    /// Throws `tooLarge` when `width` x `height` exceeds `limit`, and `invalidImage` when either
    /// side is not positive. The product is computed without overflow.
    static func checkDimensions(width: Int, height: Int, limit: Int, context: String) throws(MediaError) {
        guard width > 0, height > 0 else {
            throw .invalidImage(reason: "\(context) has size \(width)x\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > limit {
            throw .tooLarge(pixels: overflow ? Int.max : pixels, limit: limit)
        }
    }
}
