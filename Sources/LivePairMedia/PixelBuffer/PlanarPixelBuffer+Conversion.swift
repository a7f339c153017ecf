internal import CFFmpeg

extension PlanarPixelBuffer.ColorMatrix {
    /// The matrix for an `SWS_CS_*` constant.
    init(swscale constant: Int32) {
        switch constant {
        case SWS_CS_ITU709: self = .bt709
        case SWS_CS_BT2020: self = .bt2020
        case SWS_CS_SMPTE240M: self = .smpte240m
        case SWS_CS_FCC: self = .fcc
        default: self = .bt601
        }
    }

    /// The `SWS_CS_*` constant for this matrix.
    var swscaleConstant: Int32 {
        switch self {
        case .bt601: return SWS_CS_ITU601
        case .bt709: return SWS_CS_ITU709
        case .bt2020: return SWS_CS_BT2020
        case .smpte240m: return SWS_CS_SMPTE240M
        case .fcc: return SWS_CS_FCC
        }
    }
}

extension PixelBuffer {
    /// The image converted (and resampled when the size differs) by libswscale to planar
    /// `yuv420p`: limited range, BT.601 unless `matrix` says otherwise (what H.264 encoders and
    /// most players expect). Gray images give neutral chroma (128).
    public func yuv420p(
        width newWidth: Int? = nil, height newHeight: Int? = nil, matrix: PlanarPixelBuffer.ColorMatrix = .bt601,
        filter: ScalingFilter = .area
    ) throws(MediaError) -> PlanarPixelBuffer {
        // libswscale's SIMD input code may read a little past the last pixel: give it slack.
        let source = hasTrailingSlack ? self : try cropped(x: 0, y: 0, width: width, height: height, packing: true)
        let pixelFormat = format == .rgba8 ? AV_PIX_FMT_RGBA : AV_PIX_FMT_GRAY8
        var result: Result<PlanarPixelBuffer, MediaError> = .failure(.invalidImage(reason: "empty pixel buffer"))
        source.storage.withUnsafeBufferPointer { bytes in
            guard let pointer = bytes.baseAddress else { return }
            var planes = SourcePlanes(
                packed: pointer, format: pixelFormat, bytesPerRow: source.bytesPerRow, width: width, height: height)
            planes.colorMatrix = matrix.swscaleConstant
            result = Result { () throws(MediaError) in
                try PlanarConversion.convert(
                    planes, width: newWidth ?? width, height: newHeight ?? height, isFullRange: false, filter: filter)
            }
        }
        return try result.get()
    }
}

/// libswscale conversions to planar YUV.
enum PlanarConversion {
    /// Converts (and resamples) `source` into a new `yuv420p` image of `width` x `height`.
    ///
    /// A YUV source keeps its matrix and range (swscale only resamples and changes the bit
    /// depth, no colour conversion); an RGB or gray source is converted with `source.colorMatrix`
    /// into full or limited range as `isFullRange` says. Plane rows are padded, as in
    /// `PixelConversion.convertToPaddedBuffer`, because swscale's SIMD paths write past `width`.
    static func convert(
        _ source: SourcePlanes, width: Int, height: Int, isFullRange requestedFullRange: Bool,
        filter: PixelBuffer.ScalingFilter
    ) throws(MediaError) -> PlanarPixelBuffer {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= Int(Int32.max) / 4 else {
            throw .tooLarge(pixels: overflow ? .max : pixels, limit: Int(Int32.max) / 4)
        }
        let context = try PixelConversion.makeContext(
            from: source, toWidth: width, height: height, format: AV_PIX_FMT_YUV420P, filter: filter)
        defer { sws_freeContext(context) }
        let fullRange = source.isYUV ? source.isFullRange : requestedFullRange
        let coefficients = sws_getCoefficients(source.colorMatrix)
        if source.isYUV {
            // Same matrix and range on both sides: a pure resample.
            let range: Int32 = fullRange ? 1 : 0
            _ = sws_setColorspaceDetails(context, coefficients, range, coefficients, range, 0, 1 << 16, 1 << 16)
        } else {
            _ = sws_setColorspaceDetails(
                context, sws_getCoefficients(SWS_CS_DEFAULT), 1, coefficients, fullRange ? 1 : 0, 0, 1 << 16, 1 << 16)
        }
        let chroma = PlanarPixelBuffer.chromaSize(width: width, height: height)
        let lumaStride = (width + 63) / 64 * 64 + 64, chromaStride = (chroma.width + 63) / 64 * 64 + 64
        guard let lumaStride32 = Int32(exactly: lumaStride), let chromaStride32 = Int32(exactly: chromaStride) else {
            throw .tooLarge(pixels: pixels, limit: Int(Int32.max) / 4)
        }
        // One spare row per plane as well, in case a path writes ahead vertically.
        var luma = [UInt8](repeating: 0, count: lumaStride * (height + 1))
        var cb = [UInt8](repeating: 0, count: chromaStride * (chroma.height + 1))
        var cr = [UInt8](repeating: 0, count: chromaStride * (chroma.height + 1))
        let written = luma.withUnsafeMutableBufferPointer { y in
            cb.withUnsafeMutableBufferPointer { u in
                cr.withUnsafeMutableBufferPointer { v in
                    let destinationPlanes: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress, nil]
                    let destinationStrides: [Int32] = [lumaStride32, chromaStride32, chromaStride32, 0]
                    return sws_scale(
                        context, source.planes, source.strides, 0, Int32(source.height), destinationPlanes,
                        destinationStrides)
                }
            }
        }
        try PixelConversion.checkScaled(written, height: height)
        return try PlanarPixelBuffer(
            y: PixelBuffer(unchecked: width, height: height, bytesPerRow: lumaStride, format: .gray8, storage: luma),
            u: PixelBuffer(unchecked: chroma.width, height: chroma.height, bytesPerRow: chromaStride, format: .gray8, storage: cb),
            v: PixelBuffer(unchecked: chroma.width, height: chroma.height, bytesPerRow: chromaStride, format: .gray8, storage: cr),
            matrix: PlanarPixelBuffer.ColorMatrix(swscale: source.colorMatrix), isFullRange: fullRange)
    }
}
