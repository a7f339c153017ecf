/// What `MovieTranscoder` wrote.
public struct TranscodeResult: Sendable, Equatable {
    /// How many video frames were encoded (every frame the input's video stream decodes to).
    public let frameCount: Int
    /// The video stream's duration in seconds: from the first frame's presentation time to the
    /// end of the last frame.
    public let duration: Double
    /// The encoded width in pixels (the input's, rounded down to even).
    public let width: Int
    /// The encoded height in pixels (the input's, rounded down to even).
    public let height: Int
    /// The video codec written.
    public let codec: MovieTranscoder.VideoCodec
    /// What happened to the audio: nil when the input has no audio stream.
    public let audio: AudioHandling?

    /// How the audio stream was carried over.
    public enum AudioHandling: String, Sendable, Equatable {
        /// AAC packets copied unchanged.
        case copiedAAC
        /// Decoded and encoded to AAC with FFmpeg's native encoder.
        case encodedAAC
    }
}
