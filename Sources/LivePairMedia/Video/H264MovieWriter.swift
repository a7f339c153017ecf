internal import CFFmpeg

/// Encodes RGBA frames as an H.264 (yuv420p) MP4 movie with libavcodec and libavformat, for web
/// playback where HEVC does not play, optionally with the audio of another movie (AAC copied,
/// anything else encoded to AAC with FFmpeg's native encoder, through `AudioTranscoder`).
///
/// Memory stays bounded by a few frames whatever the movie's length (no encoder lookahead).
/// Frames keep the presentation times they are given (on a 1/90000 s clock). Sizes are rounded
/// down to even numbers, as 4:2:0 chroma needs; frames of another size are scaled by libswscale.
/// The writer writes straight to `path`: callers that need an atomic result write to a temporary
/// path and rename it. Not `Sendable`: one owner appends frames in order, then calls `finish()`.
public final class H264MovieWriter {
    /// The encoded width in pixels (even).
    public let width: Int
    /// The encoded height in pixels (even).
    public let height: Int
    /// How many frames were appended.
    public private(set) var frameCount = 0
    /// True when the movie gets an audio stream (the audio source has one).
    public var hasAudio: Bool { audio != nil }
    /// How the audio is carried: `.copiedAAC` or `.encodedAAC`; nil without audio.
    public var audioHandling: TranscodeResult.AudioHandling? { audio?.handling }

    /// The clock frames are timed on (ticks per second): the video track's timescale.
    public static let clock: Int32 = 90_000
    private let output: TranscodeOutput
    private let cancellation: CancellationFlag
    private var audio: AudioCarrier?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var lastPTS: Int64 = -1
    /// The interval between the last two frames appended (a thirtieth of a second before the
    /// second frame): the duration of a packet the encoder leaves without one, so the last
    /// frame is shown for a frame's time rather than none.
    private var lastInterval = Int64(clock / 30)
    private var finished = false

    /// Creates the movie at `path` for frames of `width` x `height` (rounded down to even sizes),
    /// without audio.
    ///
    /// - Throws: `decoderUnavailable("H.264 encoder")` when libavcodec has no H.264 encoder,
    ///   `decodeFailed` when a library call fails (for example the file cannot be created).
    public convenience init(path: String, width: Int, height: Int) throws(MediaError) {
        try self.init(path: path, width: width, height: height, audioFrom: nil)
    }

    /// Creates the movie at `path` for frames of `width` x `height` (rounded down to even sizes),
    /// with the main audio stream of the movie at `audioMoviePath` when it is given and has one
    /// (the movie in the file's bytes `audioRange` when that is given: a motion photo's video).
    /// Audio packets are written in step with the frames appended (up to each frame's time), the
    /// rest by `finish()`. With `audioWindow` (seconds of the audio movie's timeline) only that
    /// part of the audio is written, from time zero: the sound of a trimmed movie. `audioGain`
    /// (1: unchanged) scales every audio sample, the sound then always encoded as AAC. `cancellation`
    /// is polled by FFmpeg's I/O and between packets. `movieTimescale` sets the movie header's
    /// timescale (the muxer's default is 1000): `clock` makes every frame time exact on the
    /// movie's timeline, where a still-image time is written.
    ///
    /// - Throws: as `init(path:width:height:)`; `decodeFailed` when the audio source cannot be
    ///   read, `unsupported` when its audio cannot be encoded to AAC; `cancelled`.
    public init(
        path: String, width: Int, height: Int, audioFrom audioMoviePath: String?, audioRange: Range<UInt64>? = nil,
        audioWindow: Range<Double>? = nil, audioGain: Float = 1, movieTimescale: Int32? = nil,
        cancellation: CancellationFlag = CancellationFlag()
    ) throws(MediaError) {
        FFmpegCall.prepare()
        self.width = max(2, width / 2 * 2)
        self.height = max(2, height / 2 * 2)
        self.cancellation = cancellation
        try MediaError.checkDimensions(width: self.width, height: self.height, limit: 1 << 26, context: "H.264 movie")
        output = try TranscodeOutput(path: path, cancellation: cancellation, formatName: "mp4")
        guard let codec = avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_H264) else {
            throw .decoderUnavailable("H.264 encoder")
        }
        stream = try output.addStream()
        codecContext = avcodec_alloc_context3(codec)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let stream, let encoder = codecContext, let frame, packet != nil else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avformat_new_stream/avcodec_alloc_context3")
        }
        encoder.pointee.width = Int32(self.width)
        encoder.pointee.height = Int32(self.height)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointee.time_base = AVRational(num: 1, den: Self.clock)
        encoder.pointee.gop_size = 30
        encoder.pointee.max_b_frames = 0
        // Frames stream through: one encoding thread and no rate-control lookahead, so x264 holds
        // a few frames rather than the 40-frame lookahead and per-thread frames of its defaults
        // (about 300 MB of the 675 MB peak of one 1920x1440 movie). Servers run several writers at once on their media pool.
        encoder.pointee.thread_count = 1
        if output.needsGlobalHeader { encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "rc-lookahead", "0", 0)
        try FFmpegCall.check(avcodec_open2(encoder, codec, &options), "H.264: avcodec_open2")
        try FFmpegCall.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder), "avcodec_parameters_from_context")
        stream.pointee.time_base = encoder.pointee.time_base
        if let audioMoviePath {
            audio = try AudioCarrier.open(
                moviePath: audioMoviePath, range: audioRange, output: output, cancellation: cancellation,
                window: audioWindow, gain: audioGain)
        }
        try output.start(path: path, muxerOptions: movieTimescale.map { ["movie_timescale": String($0)] } ?? [:])
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(self.width)
        frame.pointee.height = Int32(self.height)
        try FFmpegCall.check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
    }

    deinit {
        // The output writes the trailer of an unfinished movie and closes the file itself.
        sws_freeContext(scaler)
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&codecContext)
    }

    /// Encodes `image` (RGBA8) shown at `presentationTime` seconds. Times must increase; a time
    /// not after the previous frame's is moved one clock tick after it.
    public func append(_ image: PixelBuffer, presentationTime: Double) throws(MediaError) {
        guard !finished, let encoder = codecContext, let frame else {
            throw .invalidImage(reason: "the movie writer is finished")
        }
        guard image.format == .rgba8 else { throw .unsupported("H.264 input must be RGBA") }
        guard let inputWidth = Int32(exactly: image.width), let inputHeight = Int32(exactly: image.height),
            let inputStride = Int32(exactly: image.bytesPerRow)
        else { throw .invalidImage(reason: "frame of \(image.width)x\(image.height)") }
        scaler = sws_getCachedContext(
            scaler, inputWidth, inputHeight, AV_PIX_FMT_RGBA, Int32(width), Int32(height), AV_PIX_FMT_YUV420P,
            Int32(SWS_BILINEAR), nil, nil, nil)
        guard let scaler else { throw .unsupported("no conversion from RGBA \(image.width)x\(image.height)") }
        try FFmpegCall.check(av_frame_make_writable(frame), "av_frame_make_writable")
        // libswscale may read a little past the last row: give it a padded copy.
        var source = image.storage
        source.append(contentsOf: [UInt8](repeating: 0, count: 64))
        let scaled = source.withUnsafeBufferPointer { bytes -> Int32 in
            var planes: [UnsafePointer<UInt8>?] = [bytes.baseAddress, nil, nil, nil]
            var strides: [Int32] = [inputStride, 0, 0, 0]
            return withUnsafeMutablePointer(to: &frame.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { destination in
                    withUnsafeMutablePointer(to: &frame.pointee.linesize) { lines in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { destinationStrides in
                            sws_scale(scaler, &planes, &strides, 0, inputHeight, destination, destinationStrides)
                        }
                    }
                }
            }
        }
        guard scaled > 0 else { throw .decodeFailed(code: scaled, message: "sws_scale") }
        var pts = Int64((max(0, presentationTime) * Double(Self.clock)).rounded())
        if pts <= lastPTS { pts = lastPTS + 1 }
        if lastPTS >= 0 { lastInterval = pts - lastPTS }
        lastPTS = pts
        frame.pointee.pts = pts
        try FFmpegCall.check(avcodec_send_frame(encoder, frame), "H.264: avcodec_send_frame")
        try writePackets()
        frameCount += 1
        try audio?.pump(through: presentationTime)
    }

    /// Flushes the encoder, writes the rest of the audio and the movie's index. Call once, after
    /// the last frame.
    public func finish() throws(MediaError) {
        guard !finished, let encoder = codecContext else { return }
        finished = true
        try FFmpegCall.check(avcodec_send_frame(encoder, nil), "H.264: avcodec_send_frame (flush)")
        try writePackets()
        try audio?.finish()
        try output.finish()
    }

    /// Moves every packet the encoder has ready into the file.
    private func writePackets() throws(MediaError) {
        guard let encoder = codecContext, let packet, let stream else { return }
        try output.writeEncodedPackets(
            from: encoder, timeBase: encoder.pointee.time_base, using: packet, as: stream, label: "H.264"
        ) { [lastInterval] packet in
            if packet.pointee.duration == 0 { packet.pointee.duration = lastInterval }
        }
    }
}
