internal import CFFmpeg

extension PixelBuffer {
    /// Source rows per libswscale call in `scaled(toWidth:height:filter:cancellation:)`: about a
    /// megapixel, a few milliseconds of work.
    static let scalingBandPixels = 1 << 20

    /// The image resampled to `newWidth` x `newHeight` like `scaled(toWidth:height:filter:)`, fed
    /// to libswscale in bands of source rows (about a megapixel each, top to bottom, as slices of
    /// one scaling context, so the result is the same as one call's), with `cancellation` checked
    /// before each band: scaling a 24 MP image stops within a few milliseconds of a cancel.
    ///
    /// - Throws: `MediaError.cancelled` once the flag is set; otherwise as `scaled(toWidth:height:filter:)`.
    public func scaled(
        toWidth newWidth: Int, height newHeight: Int, filter: ScalingFilter = .area, cancellation: CancellationFlag
    ) throws(MediaError) -> PixelBuffer {
        if cancellation.isCancelled { throw .cancelled }
        guard newWidth > 0, newHeight > 0 else { throw .invalidImage(reason: "cannot scale to \(newWidth)x\(newHeight)") }
        if newWidth == width, newHeight == height { return self }
        let bandRows = max(16, Self.scalingBandPixels / max(1, width))
        guard height > bandRows else {
            let image = try scaled(toWidth: newWidth, height: newHeight, filter: filter)
            if cancellation.isCancelled { throw .cancelled }
            return image
        }
        let (pixels, overflow) = newWidth.multipliedReportingOverflow(by: newHeight)
        guard !overflow, pixels <= Int(Int32.max) / 4 else {
            throw .tooLarge(pixels: overflow ? .max : pixels, limit: Int(Int32.max) / 4)
        }
        guard let sourceWidth = Int32(exactly: width), let sourceHeight = Int32(exactly: height) else {
            throw .invalidImage(reason: "cannot scale a \(width)x\(height) image")
        }
        FFmpegCall.prepare()
        // libswscale's SIMD input code may read a little past the last pixel: give it slack.
        let source = hasTrailingSlack ? self : try cropped(x: 0, y: 0, width: width, height: height, packing: true)
        let pixelFormat = format == .rgba8 ? AV_PIX_FMT_RGBA : AV_PIX_FMT_GRAY8
        guard
            let context = sws_getContext(
                sourceWidth, sourceHeight, pixelFormat, Int32(newWidth), Int32(newHeight), pixelFormat,
                filter.swscaleFlags, nil, nil, nil)
        else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "sws_getContext: cannot scale")
        }
        defer { sws_freeContext(context) }
        // Padded destination rows and one spare row: swscale's SIMD paths write past `width`.
        let rowBytes = newWidth * format.bytesPerPixel
        let paddedStride = (rowBytes + 63) / 64 * 64 + 64
        guard let paddedStride32 = Int32(exactly: paddedStride), let stride = Int32(exactly: source.bytesPerRow) else {
            throw .tooLarge(pixels: pixels, limit: Int(Int32.max) / 4)
        }
        var storage = [UInt8](repeating: 0, count: paddedStride * (newHeight + 1))
        var written: Int32 = 0
        var failure: MediaError?
        storage.withUnsafeMutableBufferPointer { destination in
            source.storage.withUnsafeBufferPointer { sourceBytes in
                guard let base = sourceBytes.baseAddress else { return }
                let destinationPlanes: [UnsafeMutablePointer<UInt8>?] = [destination.baseAddress, nil, nil, nil]
                let destinationStrides: [Int32] = [paddedStride32, 0, 0, 0]
                let strides: [Int32] = [stride, 0, 0, 0]
                var row = 0
                while row < height {
                    if cancellation.isCancelled {
                        failure = .cancelled
                        return
                    }
                    let rows = min(bandRows, height - row)
                    let planes: [UnsafePointer<UInt8>?] = [base + row * source.bytesPerRow, nil, nil, nil]
                    let result = sws_scale(
                        context, planes, strides, Int32(row), Int32(rows), destinationPlanes, destinationStrides)
                    if result < 0 {
                        failure = .decodeFailed(code: result, message: "sws_scale: \(FFmpegCall.message(for: result))")
                        return
                    }
                    written += result
                    row += rows
                }
            }
        }
        if let failure { throw failure }
        guard written == Int32(newHeight) else {
            throw .decodeFailed(code: livepair_averror_invaliddata(), message: "sws_scale wrote \(written) of \(newHeight) rows")
        }
        let padded = PixelBuffer(
            unchecked: newWidth, height: newHeight, bytesPerRow: paddedStride, format: format, storage: storage)
        return try padded.cropped(x: 0, y: 0, width: newWidth, height: newHeight, packing: true)
    }
}
