internal import CFFmpeg

/// Writes the main audio stream of a movie, as AAC, into an MP4 of its own: AAC packets are
/// copied unchanged; any other codec (an iPhone's QuickTime `lpcm`) is decoded and encoded with
/// FFmpeg's native `aac` encoder at the input's sample rate and channel layout (`AudioTranscoder`).
/// No video is read or written. `MotionPhotoMovieAssembler` takes the audio track from it.
///
/// The output is written to a temporary file in the destination's directory and renamed over the
/// destination only when complete; on any error no file is left behind.
public struct AACAudioEncoder: Sendable {
    /// The movie to read.
    public let inputPath: String
    /// The movie's byte range inside `inputPath` (a motion photo's video); nil for the whole file.
    public let range: Range<UInt64>?

    /// An encoder of the audio of the movie at `inputPath` (in its bytes `range` when given).
    public init(inputPath: String, range: Range<UInt64>? = nil) {
        self.inputPath = inputPath
        self.range = range
    }

    /// Writes the audio to a new MP4 at `outputPath`.
    ///
    /// - Returns: how the audio was carried (copied or encoded); nil, and no file written, when the
    ///   movie has no audio stream.
    /// - Throws: `unsupported` for audio AAC cannot take (a sample rate the encoder does not offer:
    ///   there is no resampler), `decoderUnavailable`, `decodeFailed` when FFmpeg cannot read,
    ///   decode, encode or write, `encodeFailed` when the file cannot be created or renamed.
    public func encode(to outputPath: String, cancellation: CancellationFlag? = nil) throws(MediaError)
        -> TranscodeResult.AudioHandling?
    {
        FFmpegCall.prepare()
        let flag = cancellation ?? CancellationFlag()
        if flag.isCancelled { throw .cancelled }
        let input = try TranscodeInput(path: inputPath, range: range, cancellation: flag)
        guard let format = input.context else { throw .invalidImage(reason: "\(inputPath): no input") }
        let index = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0, let stream = input.stream(index) else { return nil }
        let temporary = try TemporaryOutputFile(for: outputPath)
        do throws(MediaError) {
            let handling = try withExtendedLifetime(flag) { () throws(MediaError) -> TranscodeResult.AudioHandling in
                let output = try TranscodeOutput(path: temporary.path, cancellation: flag, formatName: "mp4")
                let audio = try AudioTranscoder(input: stream, index: index, output: output)
                try output.start(path: temporary.path)
                var packetStorage = av_packet_alloc()
                defer { av_packet_free(&packetStorage) }
                guard let packet = packetStorage else {
                    throw .decodeFailed(code: livepair_averror(ENOMEM), message: "av_packet_alloc")
                }
                while true {
                    if flag.isCancelled { throw .cancelled }
                    let read = av_read_frame(format, packet)
                    if FFmpegCall.isEndOfFile(read) { break }
                    try FFmpegCall.check(read, "av_read_frame")
                    defer { av_packet_unref(packet) }
                    if packet.pointee.stream_index == audio.inputIndex { try audio.handle(packet) }
                }
                try audio.finish()
                try output.finish()
                return audio.handling
            }
            try temporary.commit()
            return handling
        } catch {
            temporary.discard()
            throw flag.isCancelled ? .cancelled : error
        }
    }
}
