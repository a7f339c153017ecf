internal import CFFmpeg
public import LivePairFormats

/// Decodes one coded HEVC image (a HEIF grid tile or a whole `hvc1` item) with FFmpeg's HEVC
/// decoder.
///
/// The tile's `hvcC` record becomes the decoder's extradata, so its length-prefixed NAL units are
/// sent unchanged as one packet, followed by a flush. The decoded frame must be at least the size
/// the item's `ispe` declares; a larger coded frame is cropped to the `ispe` size.
public struct HEVCImageDecoder: Sendable {
    /// The limits applied; `maximumPixels` bounds the tile size.
    public let limits: ParseLimits
    /// Threads FFmpeg may use inside one decode (1 when tiles are decoded in parallel).
    public let threadCount: Int

    /// A decoder applying `limits`, using `threadCount` decoding threads (0 lets FFmpeg choose).
    public init(limits: ParseLimits = .default, threadCount: Int = 1) {
        self.limits = limits
        self.threadCount = max(0, threadCount)
    }

    /// Decodes `tile` to an RGBA buffer of the tile's `ispe` size.
    public func decode(_ tile: HEVCTile) throws(MediaError) -> PixelBuffer {
        try MediaError.checkDimensions(
            width: tile.width, height: tile.height, limit: limits.maximumPixels, context: "HEVC item \(tile.itemID)")
        let padded = try decodeTopLeft(of: tile, width: tile.width, height: tile.height)
        return try padded.cropped(x: 0, y: 0, width: padded.width, height: padded.height, packing: true)
    }

    /// Decodes `tile` and returns its top-left `width` x `height` pixels as RGBA, in a buffer
    /// whose rows may be padded (see `PixelConversion.convertToPaddedBuffer`). Grid assembly
    /// copies from it into the final image.
    ///
    /// With a `reduction` above 1 the top-left `width * reduction` x `height * reduction`
    /// pixels are averaged down to `width` x `height` (each output pixel the mean of a
    /// `reduction` x `reduction` block) in the same libswscale call that converts to RGBA.
    func decodeTopLeft(of tile: HEVCTile, width: Int, height: Int, reduction: Int = 1) throws(MediaError) -> PixelBuffer {
        try MediaError.checkDimensions(
            width: tile.width, height: tile.height, limit: limits.maximumPixels, context: "HEVC item \(tile.itemID)")
        let sourceWidth = width * reduction, sourceHeight = height * reduction
        guard width > 0, height > 0, reduction > 0, sourceWidth <= tile.width, sourceHeight <= tile.height else {
            throw .invalidImage(
                reason: "item \(tile.itemID): \(width)x\(height) at 1/\(reduction) requested from a \(tile.width)x\(tile.height) tile")
        }
        var result: PixelBuffer?
        try withDecodedFrame(tile) { frame throws(MediaError) in
            let planes = SourcePlanes(frame: frame, width: sourceWidth, height: sourceHeight)
            result = try PixelConversion.convertToPaddedBuffer(
                planes, format: .rgba8, width: width, height: height, filter: reduction == 1 ? .bilinear : .area)
        }
        guard let result else { throw .decodeFailed(code: livepair_averror_invaliddata(), message: "no picture") }
        return result
    }

    /// Runs the FFmpeg decoder on `tile` and hands the decoded frame to `body`.
    private func withDecodedFrame(
        _ tile: HEVCTile, _ body: (UnsafePointer<AVFrame>) throws(MediaError) -> Void
    ) throws(MediaError) {
        FFmpegCall.prepare()
        let context = "HEVC item \(tile.itemID)"
        guard !tile.configuration.record.isEmpty, let extradataSize = Int32(exactly: tile.configuration.record.count)
        else { throw .invalidImage(reason: "\(context) has no hvcC record") }
        guard !tile.data.isEmpty, let packetSize = Int32(exactly: tile.data.count) else {
            throw .invalidImage(reason: "\(context) has no coded data")
        }
        try Self.checkNALUnitFraming(tile, context: context)
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_HEVC) else { throw .decoderUnavailable("HEVC") }

        var codecContext = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&codecContext) }
        guard let decoder = codecContext else { throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avcodec_alloc_context3") }

        // The extradata must come from av_malloc, padded; avcodec_free_context frees it.
        let padding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let extradata = av_mallocz(tile.configuration.record.count + padding) else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "av_mallocz for hvcC")
        }
        tile.configuration.record.withUnsafeBytes { record in
            if let bytes = record.baseAddress { extradata.copyMemory(from: bytes, byteCount: record.count) }
        }
        decoder.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
        decoder.pointee.extradata_size = extradataSize
        decoder.pointee.thread_count = Int32(clamping: threadCount)
        // One picture per decoder: frame threading would only add threads that wait.
        decoder.pointee.thread_type = FF_THREAD_SLICE
        try FFmpegCall.check(avcodec_open2(decoder, codec, nil), "\(context): avcodec_open2")

        var packetStorage = av_packet_alloc()
        defer { av_packet_free(&packetStorage) }
        var frameStorage = av_frame_alloc()
        defer { av_frame_free(&frameStorage) }
        guard let packet = packetStorage, let frame = frameStorage else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "\(context): av_packet_alloc/av_frame_alloc")
        }
        try FFmpegCall.check(av_new_packet(packet, packetSize), "\(context): av_new_packet")
        guard let packetData = packet.pointee.data else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "\(context): av_new_packet gave no buffer")
        }
        tile.data.withUnsafeBytes { data in
            if let bytes = data.baseAddress { UnsafeMutableRawPointer(packetData).copyMemory(from: bytes, byteCount: data.count) }
        }
        packet.pointee.flags |= AV_PKT_FLAG_KEY

        try FFmpegCall.check(avcodec_send_packet(decoder, packet), "\(context): avcodec_send_packet")
        try FFmpegCall.check(avcodec_send_packet(decoder, nil), "\(context): avcodec_send_packet (flush)")
        let received = avcodec_receive_frame(decoder, frame)
        if FFmpegCall.isEndOfFile(received) || FFmpegCall.isAgain(received) {
            throw .decodeFailed(code: received, message: "\(context): the decoder produced no picture")
        }
        try FFmpegCall.check(received, "\(context): avcodec_receive_frame")
        if frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
            throw .decodeFailed(code: livepair_averror_invaliddata(), message: "\(context): the decoded picture is corrupt")
        }
        let frameWidth = Int(frame.pointee.width), frameHeight = Int(frame.pointee.height)
        guard frameWidth >= tile.width, frameHeight >= tile.height else {
            throw .invalidImage(
                reason: "\(context) decodes to \(frameWidth)x\(frameHeight), smaller than its ispe \(tile.width)x\(tile.height)")
        }
        try body(frame)
    }

    /// Checks that the item data is a whole sequence of NAL units, each preceded by a non-zero
    /// big-endian length of `nalLengthSize` bytes that fits in what remains, so that truncated
    /// or mis-framed data is reported as such rather than as a decoder failure.
    private static func checkNALUnitFraming(_ tile: HEVCTile, context: String) throws(MediaError) {
        let lengthSize = tile.configuration.nalLengthSize
        guard [1, 2, 4].contains(lengthSize) else {
            throw .invalidImage(reason: "\(context): NAL length size \(lengthSize) is not 1, 2 or 4")
        }
        let data = tile.data
        var offset = 0
        while offset < data.count {
            guard data.count - offset >= lengthSize else {
                throw .invalidImage(reason: "\(context): data ends inside a NAL unit length at byte \(offset)")
            }
            var length = 0
            for index in offset..<offset + lengthSize { length = length << 8 | Int(data[index]) }
            offset += lengthSize
            guard length > 0, length <= data.count - offset else {
                throw .invalidImage(
                    reason: "\(context): NAL unit of \(length) bytes at byte \(offset - lengthSize), \(data.count - offset) remain")
            }
            offset += length
        }
    }
}
