internal import CFFmpeg
public import LivePairFormats

/// Transcodes any movie FFmpeg reads into a QuickTime `.mov` whose video is re-encoded to H.264
/// (libx264) or HEVC (libx265, tagged `hvc1` so Apple's players accept it).
///
/// What is kept:
/// - every decoded video frame with its presentation time (the encoder runs on the input
///   stream's time base and writes no B-frames, so sample times equal presentation times and
///   no composition offsets are needed), and the average frame rate;
/// - the video stream's display matrix (copied to the output stream, so the `tkhd` matrix and
///   ffprobe's rotation match the input's);
/// - the main audio stream: AAC is copied as is, anything else is encoded to AAC with FFmpeg's
///   native encoder; no audio stream is written when the input has none;
/// - the container's global metadata tags that the `mov` muxer writes (creation time, ...).
///
/// Other streams (timed metadata, subtitles, data) are dropped. Odd frame sizes are rounded
/// down to even ones (4:2:0 needs them), scaling by at most one pixel per side. Pixels are
/// encoded as 8-bit 4:2:0; 10-bit input is converted. The movie index (`moov`) is written after
/// the media data, as cameras do.
///
/// The output is written to a temporary file in the destination's directory and renamed over the
/// destination only when complete; on any error or cancellation no file is left behind.
public struct MovieTranscoder: Sendable {
    /// The video codec to encode to.
    public enum VideoCodec: String, Sendable, CaseIterable {
        /// H.264 / AVC with libx264 (`avc1`).
        case h264
        /// HEVC / H.265 with libx265 (`hvc1`).
        case hevc

        /// The constant rate factor used when none is given: visually close to camera output.
        public var defaultCRF: Int { self == .h264 ? 20 : 24 }
    }

    /// The movie to read.
    public let inputPath: String
    /// The codec to encode the video to.
    public let codec: VideoCodec
    /// The encoder's constant rate factor (0 best to 51 smallest; clamped).
    public let crf: Int
    /// Limits applied to the input (`maximumPixels` bounds the video frame size).
    public let limits: ParseLimits

    /// A transcoder for the movie at `inputPath` to `codec` at constant rate factor `crf`
    /// (`codec.defaultCRF` when nil).
    public init(inputPath: String, codec: VideoCodec, crf: Int? = nil, limits: ParseLimits = .default) {
        self.inputPath = inputPath
        self.codec = codec
        self.crf = min(max(crf ?? codec.defaultCRF, 0), 51)
        self.limits = limits
    }

    /// Transcodes the input into a new movie at `outputPath` (created or replaced atomically).
    ///
    /// - Parameter cancellation: polled between packets and by FFmpeg's I/O; once set, the work
    ///   stops, the temporary file is removed and `MediaError.cancelled` is thrown.
    /// - Throws: `decodeFailed` when FFmpeg cannot read, decode, encode or write;
    ///   `invalidImage` when the input has no video stream; `decoderUnavailable` when a codec is
    ///   missing; `tooLarge` above the pixel limit; `encodeFailed` when the temporary file cannot
    ///   be created or renamed; `cancelled`.
    public func transcode(to outputPath: String, cancellation: CancellationFlag? = nil) throws(MediaError)
        -> TranscodeResult
    {
        FFmpegCall.prepare()
        let flag = cancellation ?? CancellationFlag()
        if flag.isCancelled { throw .cancelled }
        let temporary = try TemporaryOutputFile(for: outputPath)
        do throws(MediaError) {
            let result = try withExtendedLifetime(flag) { () throws(MediaError) -> TranscodeResult in
                try run(writingTo: temporary.path, cancellation: flag)
            }
            if flag.isCancelled { throw .cancelled }
            try temporary.commit()
            return result
        } catch {
            temporary.discard()
            throw flag.isCancelled ? .cancelled : error
        }
    }

    /// Demuxes, transcodes and muxes into `path`. Every FFmpeg object is freed on return.
    private func run(writingTo path: String, cancellation: CancellationFlag) throws(MediaError) -> TranscodeResult {
        let input = try TranscodeInput(path: inputPath, cancellation: cancellation)
        guard let inputFormat = input.context else { throw .invalidImage(reason: "\(inputPath): no input") }
        let videoIndex = av_find_best_stream(inputFormat, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard let videoStream = input.stream(videoIndex) else {
            throw .invalidImage(reason: "\(inputPath) has no video stream")
        }
        let output = try TranscodeOutput(path: path, cancellation: cancellation)
        let video = try VideoReencoder(
            input: videoStream, index: videoIndex, output: output, codec: codec, crf: crf, limits: limits)
        let audioIndex = av_find_best_stream(inputFormat, AVMEDIA_TYPE_AUDIO, -1, videoIndex, nil, 0)
        let audio = try input.stream(audioIndex).map { stream throws(MediaError) in
            try AudioTranscoder(input: stream, index: audioIndex, output: output)
        }
        if let outputFormat = output.context {
            av_dict_copy(&outputFormat.pointee.metadata, inputFormat.pointee.metadata, 0)
        }
        try output.start(path: path)

        var packetStorage = av_packet_alloc()
        defer { av_packet_free(&packetStorage) }
        guard let packet = packetStorage else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "av_packet_alloc")
        }
        while true {
            if cancellation.isCancelled { throw .cancelled }
            let read = av_read_frame(inputFormat, packet)
            if FFmpegCall.isEndOfFile(read) { break }
            if cancellation.isCancelled { throw .cancelled }
            try FFmpegCall.check(read, "av_read_frame")
            defer { av_packet_unref(packet) }
            if packet.pointee.stream_index == video.inputIndex {
                try video.handle(packet)
            } else if let audio, packet.pointee.stream_index == audio.inputIndex {
                try audio.handle(packet)
            }
        }
        try video.finish()
        try audio?.finish()
        guard video.framesEncoded > 0 else {
            throw .invalidImage(reason: "\(inputPath): the video stream decoded to no frame")
        }
        try output.finish()
        return TranscodeResult(
            frameCount: video.framesEncoded, duration: video.duration, width: video.width, height: video.height,
            codec: codec, audio: audio?.handling)
    }
}
