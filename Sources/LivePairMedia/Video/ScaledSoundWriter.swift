internal import CFFmpeg

/// Writes the sound of a movie, scaled, as an MP4 holding one AAC audio stream and nothing else:
/// the sound a Live Photo edit with a volume between 0 and 1 puts beside the original's video
/// packets (which are copied, not encoded again).
public enum ScaledSoundWriter {
    /// Writes to `path` the main audio stream of the movie at `moviePath`, only `window` of its
    /// timeline (seconds) from time zero, every sample scaled by `gain`, encoded as AAC (through
    /// `AudioTranscoder`), with the movie header's timescale `movieTimescale` (so its track's
    /// edit list and durations are on the timeline of the movie it joins).
    ///
    /// - Returns: false (and nothing written) when the movie has no audio stream.
    /// - Throws: `decodeFailed` when the movie cannot be read or the file written, `unsupported`
    ///   when its audio cannot be encoded to AAC; `cancelled`.
    public static func write(
        from moviePath: String, window: Range<Double>, gain: Float, movieTimescale: Int32, to path: String,
        cancellation: CancellationFlag = CancellationFlag()
    ) throws(MediaError) -> Bool {
        FFmpegCall.prepare()
        let output = try TranscodeOutput(path: path, cancellation: cancellation, formatName: "mp4")
        guard
            let audio = try AudioCarrier.open(
                moviePath: moviePath, range: nil, output: output, cancellation: cancellation, window: window,
                gain: gain)
        else { return false }
        try output.start(path: path, muxerOptions: ["movie_timescale": String(movieTimescale)])
        try audio.finish()
        try output.finish()
        return true
    }
}
