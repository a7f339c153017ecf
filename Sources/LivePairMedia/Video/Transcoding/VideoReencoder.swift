internal import CFFmpeg
import LivePairFormats

/// Decodes the input's video stream and encodes every frame with libx264 or libx265, keeping
/// each frame's presentation time (the encoder runs on the input stream's time base and writes
/// no B-frames, so packets leave in presentation order with their input timestamps) and the
/// stream's display matrix.
final class VideoReencoder {
    let inputIndex: Int32
    let width: Int
    let height: Int
    private(set) var framesEncoded = 0
    private(set) var firstPTS: Int64?
    private(set) var endPTS: Int64 = 0

    private let output: TranscodeOutput
    private let outputStream: UnsafeMutablePointer<AVStream>
    private let timeBase: AVRational
    private let defaultDuration: Int64
    private let codecLabel: String
    /// True when the encoded picture is full range (as the input's).
    private let isFullRange: Bool
    private var decoderContext: UnsafeMutablePointer<AVCodecContext>?
    private var encoderContext: UnsafeMutablePointer<AVCodecContext>?
    private var decoded: UnsafeMutablePointer<AVFrame>?
    private var converted: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private var lastPTS: Int64 = .min
    /// Durations of frames sent to the encoder and not yet written, by presentation time.
    private var pendingDurations: [Int64: Int64] = [:]

    /// Opens the decoder for `stream` (index `index` of the input) and an encoder for `codec`.
    init(
        input stream: UnsafeMutablePointer<AVStream>, index: Int32, output: TranscodeOutput,
        codec: MovieTranscoder.VideoCodec, crf: Int, limits: ParseLimits
    ) throws(MediaError) {
        inputIndex = index
        self.output = output
        guard let parameters = stream.pointee.codecpar else { throw .invalidImage(reason: "video stream without parameters") }
        let name = FFmpegCodecName.of(parameters)
        try MediaError.checkDimensions(
            width: Int(parameters.pointee.width), height: Int(parameters.pointee.height),
            limit: limits.maximumPixels, context: "\(name) video stream")
        timeBase = stream.pointee.time_base
        guard timeBase.num > 0, timeBase.den > 0 else {
            throw .invalidImage(reason: "the video stream has time base \(timeBase.num)/\(timeBase.den)")
        }
        width = max(2, Int(parameters.pointee.width) / 2 * 2)
        height = max(2, Int(parameters.pointee.height) / 2 * 2)
        let rate = stream.pointee.avg_frame_rate.num > 0 && stream.pointee.avg_frame_rate.den > 0
            ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        let hasRate = rate.num > 0 && rate.den > 0
        defaultDuration = hasRate ? max(1, av_rescale_q(1, AVRational(num: rate.den, den: rate.num), timeBase)) : 1
        codecLabel = codec == .h264 ? "libx264" : "libx265"
        outputStream = try output.addStream()

        guard let decoderCodec = avcodec_find_decoder(parameters.pointee.codec_id) else { throw .decoderUnavailable(name) }
        decoderContext = avcodec_alloc_context3(decoderCodec)
        guard let decoder = decoderContext else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avcodec_alloc_context3")
        }
        try FFmpegCall.check(avcodec_parameters_to_context(decoder, parameters), "avcodec_parameters_to_context")
        decoder.pointee.pkt_timebase = timeBase
        decoder.pointee.thread_count = 0
        try FFmpegCall.check(avcodec_open2(decoder, decoderCodec, nil), "\(name): avcodec_open2")

        guard let encoderCodec = avcodec_find_encoder_by_name(codecLabel) else {
            throw .decoderUnavailable("\(codecLabel) encoder")
        }
        encoderContext = avcodec_alloc_context3(encoderCodec)
        decoded = av_frame_alloc()
        converted = av_frame_alloc()
        packet = av_packet_alloc()
        guard let encoder = encoderContext, decoded != nil, let converted, packet != nil else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avcodec_alloc_context3/av_frame_alloc")
        }
        encoder.pointee.width = Int32(width)
        encoder.pointee.height = Int32(height)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointee.time_base = timeBase
        if hasRate { encoder.pointee.framerate = rate }
        encoder.pointee.sample_aspect_ratio = parameters.pointee.sample_aspect_ratio
        encoder.pointee.max_b_frames = 0
        encoder.pointee.thread_count = 0
        // Full-range input (yuvj*, or flagged "pc") stays full range: the frames pass through
        // unconverted and the encoder signals the range in the VUI.
        let (_, deprecatedFullRange) = SourcePlanes.withoutDeprecatedRange(AVPixelFormat(rawValue: parameters.pointee.format))
        isFullRange = deprecatedFullRange || parameters.pointee.color_range == AVCOL_RANGE_JPEG
        encoder.pointee.color_range = isFullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        encoder.pointee.color_primaries = parameters.pointee.color_primaries
        encoder.pointee.color_trc = parameters.pointee.color_trc
        encoder.pointee.colorspace = parameters.pointee.color_space
        if output.needsGlobalHeader { encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "crf", "\(crf)", 0)
        switch codec {
        case .h264:
            av_dict_set(&options, "preset", "medium", 0)
        case .hevc:
            av_dict_set(&options, "preset", "fast", 0)
            av_dict_set(&options, "x265-params", "log-level=error:bframes=0", 0)
        }
        try FFmpegCall.check(avcodec_open2(encoder, encoderCodec, &options), "\(codecLabel): avcodec_open2")
        try FFmpegCall.check(
            avcodec_parameters_from_context(outputStream.pointee.codecpar, encoder), "avcodec_parameters_from_context")
        if codec == .hevc {
            // "hvc1" (parameter sets only in the sample description) is the tag Apple players accept.
            outputStream.pointee.codecpar.pointee.codec_tag = fourCC("hvc1")
        }
        outputStream.pointee.time_base = timeBase
        outputStream.pointee.avg_frame_rate = hasRate ? rate : AVRational(num: 0, den: 1)
        try copyDisplayMatrix(from: stream)

        converted.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        converted.pointee.width = Int32(width)
        converted.pointee.height = Int32(height)
        try FFmpegCall.check(av_frame_get_buffer(converted, 0), "av_frame_get_buffer")
    }

    deinit {
        sws_freeContext(scaler)
        av_packet_free(&packet)
        av_frame_free(&converted)
        av_frame_free(&decoded)
        avcodec_free_context(&encoderContext)
        avcodec_free_context(&decoderContext)
    }

    /// The duration of the encoded stream in seconds.
    var duration: Double {
        guard let firstPTS else { return 0 }
        return Double(endPTS - firstPTS) * Double(timeBase.num) / Double(timeBase.den)
    }

    /// Decodes `input` (a packet of the video stream) and encodes the frames it yields.
    func handle(_ input: UnsafeMutablePointer<AVPacket>) throws(MediaError) {
        guard let decoder = decoderContext else { return }
        try FFmpegCall.check(avcodec_send_packet(decoder, input), "video: avcodec_send_packet")
        try drainDecoder()
    }

    /// Flushes the decoder and the encoder.
    func finish() throws(MediaError) {
        guard let decoder = decoderContext, let encoder = encoderContext else { return }
        try FFmpegCall.check(avcodec_send_packet(decoder, nil), "video: avcodec_send_packet (flush)")
        try drainDecoder()
        try FFmpegCall.check(avcodec_send_frame(encoder, nil), "\(codecLabel): avcodec_send_frame (flush)")
        try drainEncoder()
    }

    /// The output stream's display matrix: the input stream's, copied, so `tkhd` carries it.
    private func copyDisplayMatrix(from stream: UnsafeMutablePointer<AVStream>) throws(MediaError) {
        var size = 0
        guard let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else { return }
        guard let copy = av_stream_new_side_data(outputStream, AV_PKT_DATA_DISPLAYMATRIX, size) else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "av_stream_new_side_data")
        }
        copy.update(from: matrix, count: size)
    }

    private func drainDecoder() throws(MediaError) {
        guard let decoder = decoderContext, let frame = decoded else { return }
        while true {
            let received = avcodec_receive_frame(decoder, frame)
            if FFmpegCall.isAgain(received) || FFmpegCall.isEndOfFile(received) { return }
            try FFmpegCall.check(received, "video: avcodec_receive_frame")
            defer { av_frame_unref(frame) }
            try encode(frame)
        }
    }

    /// Gives one decoded frame to the encoder, converted to even-sized `yuv420p` when needed.
    private func encode(_ frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        guard let encoder = encoderContext, let converted else { return }
        let noValue = livepair_av_nopts_value()
        var pts = frame.pointee.best_effort_timestamp != noValue ? frame.pointee.best_effort_timestamp : frame.pointee.pts
        if pts == noValue { pts = lastPTS == .min ? 0 : lastPTS + defaultDuration }
        if pts <= lastPTS { pts = lastPTS + 1 }
        lastPTS = pts
        let duration = frame.pointee.pkt_duration > 0 ? frame.pointee.pkt_duration : defaultDuration
        pendingDurations[pts] = duration
        if firstPTS == nil { firstPTS = pts }
        endPTS = max(endPTS, pts + duration)

        let target: UnsafeMutablePointer<AVFrame>
        let (plainFormat, deprecatedFullRange) = SourcePlanes.withoutDeprecatedRange(
            AVPixelFormat(rawValue: frame.pointee.format))
        let frameIsFullRange = deprecatedFullRange || frame.pointee.color_range == AVCOL_RANGE_JPEG
        if plainFormat == AV_PIX_FMT_YUV420P, Int(frame.pointee.width) == width, Int(frame.pointee.height) == height,
            frameIsFullRange == isFullRange
        {
            frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            frame.pointee.color_range = isFullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
            target = frame
        } else {
            try convert(frame, into: converted)
            target = converted
        }
        target.pointee.pts = pts
        target.pointee.pict_type = AV_PICTURE_TYPE_NONE
        try FFmpegCall.check(avcodec_send_frame(encoder, target), "\(codecLabel): avcodec_send_frame")
        try drainEncoder()
    }

    /// Converts `frame` with libswscale into `destination` (`yuv420p` in the encoder's range and size).
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, into destination: UnsafeMutablePointer<AVFrame>)
        throws(MediaError)
    {
        let source = SourcePlanes(frame: frame, width: Int(frame.pointee.width), height: Int(frame.pointee.height))
        guard source.width > 0, source.height > 0, sws_isSupportedInput(source.format) > 0 else {
            throw .unsupported("video frames of pixel format \(frame.pointee.format)")
        }
        scaler = sws_getCachedContext(
            scaler, frame.pointee.width, frame.pointee.height, source.format, Int32(width), Int32(height),
            AV_PIX_FMT_YUV420P, SWS_BILINEAR, nil, nil, nil)
        guard let scaler else { throw .unsupported("no conversion from pixel format \(frame.pointee.format)") }
        let coefficients = sws_getCoefficients(source.colorMatrix)
        _ = sws_setColorspaceDetails(
            scaler, coefficients, source.isFullRange ? 1 : 0, coefficients, isFullRange ? 1 : 0, 0, 1 << 16, 1 << 16)
        try FFmpegCall.check(av_frame_make_writable(destination), "av_frame_make_writable")
        let data = destination.pointee.data, lines = destination.pointee.linesize
        let planes: [UnsafeMutablePointer<UInt8>?] = [data.0, data.1, data.2, data.3]
        let strides: [Int32] = [lines.0, lines.1, lines.2, lines.3]
        let rows = sws_scale(scaler, source.planes, source.strides, 0, frame.pointee.height, planes, strides)
        try FFmpegCall.check(rows, "sws_scale")
        destination.pointee.color_range = isFullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
    }

    /// Moves every packet the encoder has ready into the file.
    private func drainEncoder() throws(MediaError) {
        guard let encoder = encoderContext, let packet else { return }
        try output.writeEncodedPackets(from: encoder, timeBase: timeBase, using: packet, as: outputStream, label: codecLabel) {
            packet in
            if let duration = pendingDurations.removeValue(forKey: packet.pointee.pts) {
                packet.pointee.duration = duration
            } else if packet.pointee.duration <= 0 {
                packet.pointee.duration = defaultDuration
            }
            framesEncoded += 1
        }
    }
}

/// A four-character code as FFmpeg's `MKTAG` packs it (first character in the low byte).
func fourCC(_ text: StaticString) -> UInt32 {
    var value: UInt32 = 0
    text.withUTF8Buffer { bytes in
        for (index, byte) in bytes.prefix(4).enumerated() { value |= UInt32(byte) << (8 * UInt32(index)) }
    }
    return value
}
