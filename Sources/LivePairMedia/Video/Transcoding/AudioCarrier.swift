internal import CFFmpeg

/// Carries the main audio stream of a movie into another movie being written, packet by packet
/// in step with its video (`pump(through:)`), through `AudioTranscoder` (AAC copied, anything
/// else encoded to AAC). Used by `H264MovieWriter`.
final class AudioCarrier {
    /// Whether the audio was copied or encoded.
    var handling: TranscodeResult.AudioHandling { transcoder.handling }

    private let input: TranscodeInput
    private let transcoder: AudioTranscoder
    private let cancellation: CancellationFlag
    private let ticksPerSecond: Double
    /// Seconds of the input's timeline at the output's time zero.
    private let offset: Double
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var ended = false

    /// The audio of the movie at `moviePath` (in its bytes `range` when given), as a new stream
    /// of `output` (before its header is written); nil when the movie has no audio stream. With
    /// `window`, only that part of its timeline, moved to start at zero; with `gain`, every sample
    /// scaled by it (`AudioTranscoder`).
    static func open(
        moviePath: String, range: Range<UInt64>?, output: TranscodeOutput, cancellation: CancellationFlag,
        window: Range<Double>? = nil, gain: Float = 1
    ) throws(MediaError) -> AudioCarrier? {
        let input = try TranscodeInput(path: moviePath, range: range, cancellation: cancellation)
        guard let format = input.context else { return nil }
        let index = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0, let stream = input.stream(index) else { return nil }
        let transcoder = try AudioTranscoder(input: stream, index: index, output: output, window: window, gain: gain)
        return try AudioCarrier(
            input: input, transcoder: transcoder, timeBase: stream.pointee.time_base, cancellation: cancellation,
            offset: window?.lowerBound ?? 0)
    }

    private init(
        input: TranscodeInput, transcoder: AudioTranscoder, timeBase: AVRational, cancellation: CancellationFlag,
        offset: Double
    ) throws(MediaError) {
        self.offset = offset
        self.input = input
        self.transcoder = transcoder
        self.cancellation = cancellation
        ticksPerSecond = Double(timeBase.den) / Double(max(1, timeBase.num))
        packet = av_packet_alloc()
        guard packet != nil else { throw .decodeFailed(code: livepair_averror(ENOMEM), message: "av_packet_alloc") }
    }

    deinit { av_packet_free(&packet) }

    /// Writes the audio packets that start before `seconds` of the output's timeline (and the
    /// first one at or after it).
    func pump(through seconds: Double) throws(MediaError) {
        guard let format = input.context, let packet else { return }
        while !ended {
            if cancellation.isCancelled { throw .cancelled }
            let read = av_read_frame(format, packet)
            if FFmpegCall.isEndOfFile(read) {
                ended = true
                return
            }
            try FFmpegCall.check(read, "av_read_frame (audio)")
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == transcoder.inputIndex else { continue }
            let noValue = livepair_av_nopts_value()
            let stamp = packet.pointee.pts != noValue ? packet.pointee.pts : packet.pointee.dts
            try transcoder.handle(packet)
            if stamp != noValue, Double(stamp) / ticksPerSecond - offset >= seconds { return }
        }
    }

    /// Writes the rest of the audio and flushes the encoder.
    func finish() throws(MediaError) {
        try pump(through: .infinity)
        try transcoder.finish()
    }
}
