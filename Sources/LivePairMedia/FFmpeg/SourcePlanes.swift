internal import CFFmpeg

/// Source planes handed to libswscale: up to four plane pointers and their strides.
struct SourcePlanes {
    /// FFmpeg's pixel format of the planes.
    var format: AVPixelFormat
    /// Plane pointers (Y, U, V, A or a single packed plane).
    var planes: [UnsafePointer<UInt8>?]
    /// Bytes between rows of each plane.
    var strides: [Int32]
    /// Width and height of the area to read from the top-left corner.
    var width: Int, height: Int
    /// True for full-range ("JPEG") YUV, false for limited ("MPEG") range.
    var isFullRange: Bool
    /// The `SWS_CS_*` matrix for YUV sources.
    var colorMatrix: Int32

    /// The planes of a decoded frame, reading only its top-left `width` x `height`.
    init(frame: UnsafePointer<AVFrame>, width: Int, height: Int) {
        let data = frame.pointee.data
        let lines = frame.pointee.linesize
        planes = [UnsafePointer(data.0), UnsafePointer(data.1), UnsafePointer(data.2), UnsafePointer(data.3)]
        strides = [lines.0, lines.1, lines.2, lines.3]
        self.width = width
        self.height = height
        let (plain, jpegRange) = Self.withoutDeprecatedRange(AVPixelFormat(rawValue: frame.pointee.format))
        format = plain
        isFullRange = jpegRange || frame.pointee.color_range == AVCOL_RANGE_JPEG
        colorMatrix = Self.swscaleMatrix(for: frame.pointee.colorspace)
    }

    /// A single packed plane (RGBA or gray) of an existing pixel buffer.
    init(packed pointer: UnsafePointer<UInt8>, format: AVPixelFormat, bytesPerRow: Int, width: Int, height: Int) {
        planes = [pointer, nil, nil, nil]
        strides = [Int32(clamping: bytesPerRow), 0, 0, 0]
        self.format = format
        self.width = width
        self.height = height
        isFullRange = true
        colorMatrix = SWS_CS_DEFAULT
    }

    /// True for a YUV format (not RGB, at least three components): its matrix and range matter.
    var isYUV: Bool {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 && descriptor.pointee.nb_components >= 3
    }

    /// Maps the deprecated `yuvj*` formats to their plain equivalents plus a full-range flag,
    /// so swscale does not warn and the range is set explicitly.
    static func withoutDeprecatedRange(_ format: AVPixelFormat) -> (AVPixelFormat, Bool) {
        switch format {
        case AV_PIX_FMT_YUVJ420P: return (AV_PIX_FMT_YUV420P, true)
        case AV_PIX_FMT_YUVJ422P: return (AV_PIX_FMT_YUV422P, true)
        case AV_PIX_FMT_YUVJ444P: return (AV_PIX_FMT_YUV444P, true)
        case AV_PIX_FMT_YUVJ440P: return (AV_PIX_FMT_YUV440P, true)
        case AV_PIX_FMT_YUVJ411P: return (AV_PIX_FMT_YUV411P, true)
        default: return (format, false)
        }
    }

    /// The swscale matrix constant for a frame's colour space (BT.601 when unspecified).
    static func swscaleMatrix(for space: AVColorSpace) -> Int32 {
        switch space {
        case AVCOL_SPC_BT709: return SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020
        case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M
        case AVCOL_SPC_FCC: return SWS_CS_FCC
        default: return SWS_CS_ITU601
        }
    }
}
