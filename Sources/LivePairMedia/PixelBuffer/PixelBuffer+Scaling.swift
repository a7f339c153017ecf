internal import CFFmpeg

extension PixelBuffer {
    /// How `scaled(toWidth:height:filter:)` resamples.
    public enum ScalingFilter: Sendable, Equatable {
        /// Averages the source pixels under each destination pixel: best for strong reductions
        /// (thumbnails).
        case area
        /// Bilinear interpolation: smooth enlargements and mild reductions.
        case bilinear
    }

    /// The image resampled to `newWidth` x `newHeight` by libswscale (the aspect ratio is not
    /// preserved: compute the size first).
    public func scaled(toWidth newWidth: Int, height newHeight: Int, filter: ScalingFilter = .area) throws(MediaError)
        -> PixelBuffer
    {
        guard newWidth > 0, newHeight > 0 else {
            throw .invalidImage(reason: "cannot scale to \(newWidth)x\(newHeight)")
        }
        if newWidth == width, newHeight == height { return self }
        let (pixels, overflow) = newWidth.multipliedReportingOverflow(by: newHeight)
        guard !overflow, pixels <= Int(Int32.max) / 4 else { throw .tooLarge(pixels: overflow ? .max : pixels, limit: Int(Int32.max) / 4) }
        // libswscale's SIMD input code may read a little past the last pixel: give it slack.
        let source = hasTrailingSlack ? self : try copiedWithTrailingSlack()
        let pixelFormat = format == .rgba8 ? AV_PIX_FMT_RGBA : AV_PIX_FMT_GRAY8
        let sourceWidth = width, sourceHeight = height, sourceRow = source.bytesPerRow
        return try Self.make(width: newWidth, height: newHeight, format: format) {
            destination, destinationRow throws(MediaError) in
            guard let target = destination.baseAddress else { return }
            var failure: MediaError?
            source.storage.withUnsafeBufferPointer { sourceBytes in
                guard let pointer = sourceBytes.baseAddress else { return }
                let planes = SourcePlanes(
                    packed: pointer, format: pixelFormat, bytesPerRow: sourceRow, width: sourceWidth, height: sourceHeight)
                do throws(MediaError) {
                    try PixelConversion.convert(
                        planes, into: target, format: format, width: newWidth, height: newHeight,
                        bytesPerRow: destinationRow, filter: filter)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
    }

    /// A packed copy of the image with `trailingSlack` spare bytes after the last row.
    private func copiedWithTrailingSlack() throws(MediaError) -> PixelBuffer {
        let rowBytes = width * format.bytesPerPixel
        return try Self.make(width: width, height: height, format: format) { destination, destinationRow in
            storage.withUnsafeBytes { source in
                guard let from = source.baseAddress, let to = destination.baseAddress else { return }
                for row in 0..<height {
                    UnsafeMutableRawPointer(to + row * destinationRow).copyMemory(
                        from: from + row * bytesPerRow, byteCount: rowBytes)
                }
            }
        }
    }

    /// The largest size with this image's aspect ratio that fits in `maxWidth` x `maxHeight`
    /// (never larger than the image itself, never smaller than 1x1).
    public func sizeFitting(maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        guard maxWidth > 0, maxHeight > 0 else { return (1, 1) }
        let ratio = min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height), 1)
        return (max(1, Int((Double(width) * ratio).rounded())), max(1, Int((Double(height) * ratio).rounded())))
    }
}
