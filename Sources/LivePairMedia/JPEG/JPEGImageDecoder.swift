internal import CTurboJPEG
public import LivePairFormats

/// Decodes JPEG images with libjpeg-turbo, at full size or reduced in the DCT domain (1/2, 1/4,
/// 1/8), which is several times faster than decoding fully and scaling afterwards.
///
/// The pixels are returned as stored: the Exif orientation is not applied.
public struct JPEGImageDecoder: Sendable {
    /// A reduction libjpeg-turbo applies while decoding.
    public enum Scale: Int, Sendable, CaseIterable {
        /// Full size.
        case full = 1
        /// Half width and height (rounded up).
        case half = 2
        /// A quarter of the width and height (rounded up).
        case quarter = 4
        /// An eighth of the width and height (rounded up).
        case eighth = 8
    }

    /// What the JPEG header declares.
    public struct Header: Sendable, Equatable {
        /// Stored width in pixels.
        public let width: Int
        /// Stored height in pixels.
        public let height: Int

        /// A header declaring `width` x `height`.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// The decoded size at `scale` (each side divided, rounded up, as libjpeg-turbo does).
        public func size(at scale: Scale) -> (width: Int, height: Int) {
            ((width + scale.rawValue - 1) / scale.rawValue, (height + scale.rawValue - 1) / scale.rawValue)
        }

        /// The strongest reduction whose output still covers `width` x `height`
        /// (`.full` when even the full size does not).
        public func largestScale(covering width: Int, _ height: Int) -> Scale {
            Scale.allCases.reversed().first { scale in
                let size = size(at: scale)
                return size.width >= width && size.height >= height
            } ?? .full
        }
    }

    /// The limits applied; `maximumPixels` bounds the stored (full) size.
    public let limits: ParseLimits
    /// When false (the default), libjpeg warnings such as "extraneous bytes before marker" or a
    /// premature end of data are tolerated and the decoded picture is returned; when true they
    /// throw `decodeFailed`.
    public let treatsWarningsAsErrors: Bool

    /// A decoder applying `limits`.
    public init(limits: ParseLimits = .default, treatsWarningsAsErrors: Bool = false) {
        self.limits = limits
        self.treatsWarningsAsErrors = treatsWarningsAsErrors
    }

    /// Reads the size from the JPEG header, checking it is non-empty and within the pixel limit.
    public func readHeader(_ data: [UInt8]) throws(MediaError) -> Header {
        try Self.checkSignature(data)
        return try TurboJPEG.withDecompressor { handle throws(MediaError) in try header(data, handle) }
    }

    /// Decodes `data` to RGBA, reduced by `scale`.
    public func decode(_ data: [UInt8], scale: Scale = .full) throws(MediaError) -> PixelBuffer {
        try Self.checkSignature(data)
        return try TurboJPEG.withDecompressor { handle throws(MediaError) in
            let header = try header(data, handle)
            let factor = tjscalingfactor(num: 1, denom: Int32(scale.rawValue))
            guard Self.isSupported(factor) else { throw .unsupported("JPEG scaling by 1/\(scale.rawValue)") }
            let width = Int(livepair_tjscaled(Int32(header.width), factor))
            let height = Int(livepair_tjscaled(Int32(header.height), factor))
            try MediaError.checkDimensions(width: width, height: height, limit: limits.maximumPixels, context: "JPEG")
            return try PixelBuffer.make(width: width, height: height, format: .rgba8) {
                buffer, bytesPerRow throws(MediaError) in
                let result = data.withUnsafeBufferPointer { jpeg in
                    tjDecompress2(
                        handle, jpeg.baseAddress, UInt(jpeg.count), buffer.baseAddress, Int32(width),
                        Int32(bytesPerRow), Int32(height), Int32(TJPF_RGBA.rawValue), TJFLAG_LIMITSCANS)
                }
                try TurboJPEG.check(result, handle, "tjDecompress2", acceptWarnings: !treatsWarningsAsErrors)
            }
        }
    }

    /// Reads and validates the header with an existing handle.
    private func header(_ data: [UInt8], _ handle: tjhandle) throws(MediaError) -> Header {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let result = data.withUnsafeBufferPointer { jpeg in
            tjDecompressHeader3(handle, jpeg.baseAddress, UInt(jpeg.count), &width, &height, &subsampling, &colorspace)
        }
        try TurboJPEG.check(result, handle, "tjDecompressHeader3", acceptWarnings: false)
        // turbojpeg accepts FF D8 FF D9 as a 0x0 image: the size must be checked here.
        try MediaError.checkDimensions(
            width: Int(width), height: Int(height), limit: limits.maximumPixels, context: "JPEG header")
        return Header(width: Int(width), height: Int(height))
    }

    /// Rejects data that does not start with a JPEG start-of-image marker, before turbojpeg sees it.
    private static func checkSignature(_ data: [UInt8]) throws(MediaError) {
        guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8, data[2] == 0xFF else {
            throw .invalidImage(reason: "data does not start with a JPEG SOI marker")
        }
    }

    /// True when libjpeg-turbo lists `factor` among its scaling factors.
    private static func isSupported(_ factor: tjscalingfactor) -> Bool {
        if factor.num == factor.denom { return true }
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return false }
        return UnsafeBufferPointer(start: factors, count: Int(count)).contains {
            $0.num * factor.denom == factor.num * $0.denom
        }
    }
}
