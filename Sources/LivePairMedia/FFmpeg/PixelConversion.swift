internal import CFFmpeg

extension PixelBuffer.ScalingFilter {
    /// The swscale flag for this filter.
    var swscaleFlags: Int32 {
        switch self {
        case .area: return SWS_AREA
        case .bilinear: return SWS_BILINEAR
        }
    }
}

/// libswscale conversions (format change and resampling).
enum PixelConversion {
    /// Converts (and resamples when sizes differ) `source` into `destination`, a buffer of
    /// `width` x `height` pixels of `format` with rows `bytesPerRow` apart. Exactly `width`
    /// pixels are written per row.
    static func convert(
        _ source: SourcePlanes, into destination: UnsafeMutablePointer<UInt8>, format: PixelBuffer.Format,
        width: Int, height: Int, bytesPerRow: Int, filter: PixelBuffer.ScalingFilter = .bilinear
    ) throws(MediaError) {
        let rowBytes = width * format.bytesPerPixel
        guard rowBytes <= bytesPerRow else {
            throw .invalidImage(reason: "destination rows of \(bytesPerRow) bytes cannot hold \(width) pixels")
        }
        let converted = try convertToPaddedBuffer(source, format: format, width: width, height: height, filter: filter)
        converted.storage.withUnsafeBytes { scratch in
            guard let from = scratch.baseAddress else { return }
            for row in 0..<height {
                UnsafeMutableRawPointer(destination + row * bytesPerRow).copyMemory(
                    from: from + row * converted.bytesPerRow, byteCount: rowBytes)
            }
        }
    }

    /// Converts (and resamples) `source` into a new buffer of `width` x `height` whose rows are
    /// padded: swscale's SIMD paths write whole 8- or 16-pixel groups past `width` (measured
    /// with FFmpeg 5.1: a 56-pixel RGBA row gets 64 pixels, a 4-pixel gray row 8), so swscale
    /// never writes into memory sized exactly for the image.
    static func convertToPaddedBuffer(
        _ source: SourcePlanes, format: PixelBuffer.Format, width: Int, height: Int,
        filter: PixelBuffer.ScalingFilter = .bilinear
    ) throws(MediaError) -> PixelBuffer {
        let rowBytes = width * format.bytesPerPixel
        let paddedStride = (rowBytes + 63) / 64 * 64 + 64
        guard let paddedStride32 = Int32(exactly: paddedStride) else {
            throw .tooLarge(pixels: width * height, limit: Int(Int32.max) / 4)
        }
        let context = try makeContext(
            from: source, toWidth: width, height: height, format: format == .rgba8 ? AV_PIX_FMT_RGBA : AV_PIX_FMT_GRAY8,
            filter: filter)
        defer { sws_freeContext(context) }
        if source.isYUV {
            // YUV input: set the matrix and range explicitly (RGB output is always full range).
            _ = sws_setColorspaceDetails(
                context, sws_getCoefficients(source.colorMatrix), source.isFullRange ? 1 : 0,
                sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        }
        // One spare row as well, in case a path writes ahead vertically.
        var storage = [UInt8](repeating: 0, count: paddedStride * (height + 1))
        let written = storage.withUnsafeMutableBufferPointer { buffer in
            let destinationPlanes: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            let destinationStrides: [Int32] = [paddedStride32, 0, 0, 0]
            return sws_scale(
                context, source.planes, source.strides, 0, Int32(source.height), destinationPlanes, destinationStrides)
        }
        try checkScaled(written, height: height)
        return PixelBuffer(unchecked: width, height: height, bytesPerRow: paddedStride, format: format, storage: storage)
    }

    /// A libswscale context from `source` to `width` x `height` of `format`, after checking that
    /// both sizes are positive and fit swscale's integers and that swscale reads the source's
    /// pixel format. The caller frees it with `sws_freeContext`.
    static func makeContext(
        from source: SourcePlanes, toWidth width: Int, height: Int, format: AVPixelFormat, filter: PixelBuffer.ScalingFilter
    ) throws(MediaError) -> OpaquePointer {
        FFmpegCall.prepare()
        guard source.width > 0, source.height > 0, width > 0, height > 0,
            let sourceWidth = Int32(exactly: source.width), let sourceHeight = Int32(exactly: source.height),
            let targetWidth = Int32(exactly: width), let targetHeight = Int32(exactly: height)
        else {
            throw .invalidImage(reason: "cannot convert \(source.width)x\(source.height) to \(width)x\(height)")
        }
        guard sws_isSupportedInput(source.format) > 0 else {
            let name = av_get_pix_fmt_name(source.format).map { String(cString: $0) } ?? "\(source.format.rawValue)"
            throw .unsupported("pixel format \(name)")
        }
        guard
            let context = sws_getContext(
                sourceWidth, sourceHeight, source.format, targetWidth, targetHeight, format, filter.swscaleFlags, nil, nil,
                nil)
        else {
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "\(format.rawValue)"
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "sws_getContext: cannot convert to \(name)")
        }
        return context
    }

    /// Checks what `sws_scale` returned: an error, or fewer rows than `height`.
    static func checkScaled(_ written: Int32, height: Int) throws(MediaError) {
        try FFmpegCall.check(written, "sws_scale")
        guard written == height else {
            throw .decodeFailed(code: livepair_averror_invaliddata(), message: "sws_scale wrote \(written) of \(height) rows")
        }
    }
}
