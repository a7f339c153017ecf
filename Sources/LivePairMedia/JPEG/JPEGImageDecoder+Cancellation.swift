internal import CTurboJPEG
import LivePairFormats

extension JPEGImageDecoder {
    /// How many restart strips `decode(_:scale:cancellation:)` splits `data` into (1 when it
    /// decodes it whole).
    public static func restartStripCount(_ data: [UInt8]) -> Int {
        JPEGRestartStrips(data).map { max(1, $0.strips.count) } ?? 1
    }

    /// Decodes `data` to RGBA, reduced by `scale`, in pieces that `cancellation` can stop,
    /// spread over the machine's cores.
    ///
    /// A baseline JPEG whose restart markers fall on MCU-row boundaries (cameras that write one
    /// restart interval per MCU row, like the iPhone's) is decoded as horizontal strips of at
    /// least a megapixel (`JPEGRestartStrips`), in parallel, each into its own rows of the
    /// output, the flag checked before each, so a cancelled decode stops within one strip's
    /// work (a few milliseconds). Other JPEGs are decoded whole, the flag checked before and
    /// after. The pixels equal `decode(_:scale:)`'s except for the chroma upsampling of the rows
    /// next to a seam.
    ///
    /// - Throws: `MediaError.cancelled` once the flag is set; otherwise as `decode(_:scale:)`.
    public func decode(_ data: [UInt8], scale: Scale = .full, cancellation: CancellationFlag) throws(MediaError)
        -> PixelBuffer
    {
        if cancellation.isCancelled { throw .cancelled }
        guard let strips = JPEGRestartStrips(data), strips.strips.count > 1 else {
            let image = try decode(data, scale: scale)
            if cancellation.isCancelled { throw .cancelled }
            return image
        }
        let header = try readHeader(data)
        let factor = tjscalingfactor(num: 1, denom: Int32(scale.rawValue))
        let width = Int(livepair_tjscaled(Int32(header.width), factor))
        let height = Int(livepair_tjscaled(Int32(header.height), factor))
        try MediaError.checkDimensions(width: width, height: height, limit: limits.maximumPixels, context: "JPEG")
        let warningsAreErrors = treatsWarningsAsErrors
        // Strips are whole MCU rows (multiples of 8 rows), so their scaled rows tile the output
        // exactly: every row is written by one strip, and the storage needs no zeroing.
        return try PixelBuffer.makeUninitialized(width: width, height: height, format: .rgba8) {
            buffer, bytesPerRow throws(MediaError) in
            guard let base = buffer.baseAddress else { return }
            try ParallelPieces.run(
                count: strips.strips.count, output: UnsafeMutableRawPointer(base), isCancelled: { cancellation.isCancelled }
            ) { index, output throws(MediaError) in
                let strip = strips.strips[index]
                let firstRow = Int(livepair_tjscaled(Int32(strip.firstRow), factor))
                let rows = min(Int(livepair_tjscaled(Int32(strip.height), factor)), height - firstRow)
                guard rows > 0 else { return }
                try TurboJPEG.withDecompressor { handle throws(MediaError) in
                    let result = strip.data.withUnsafeBufferPointer { jpeg in
                        tjDecompress2(
                            handle, jpeg.baseAddress, UInt(jpeg.count),
                            output.assumingMemoryBound(to: UInt8.self) + firstRow * bytesPerRow, Int32(width),
                            Int32(bytesPerRow), Int32(rows), Int32(TJPF_RGBA.rawValue), TJFLAG_LIMITSCANS)
                    }
                    try TurboJPEG.check(result, handle, "tjDecompress2 (strip)", acceptWarnings: !warningsAreErrors)
                }
            }
            if cancellation.isCancelled { throw .cancelled }
        }
    }
}
