/// What the loader knows about a Live Photo's movie before decoding any frame.
public struct MovieMetadata: Sendable, Equatable {
    /// Duration in seconds.
    public let duration: Double
    /// Nominal frames per second, or nil when unknown.
    public let frameRate: Double?
    /// The still-image time in seconds (Apple's `still-image-time`), or nil when absent.
    public let stillImageTime: Double?
    /// True when the movie has an audio track.
    public let hasAudio: Bool
    /// The content identifier the movie carries, or nil.
    public let contentIdentifier: ContentIdentifier?
    /// The presentation times of the video frames on the movie timeline, in seconds, ascending.
    public let frameTimes: [Double]
    /// The coded size of the video (before display rotation).
    public let codedSize: PixelSize
    /// The display rotation, anticlockwise in degrees, a multiple of 90 (-90 is a quarter turn clockwise).
    public let rotationDegrees: Int
    /// The video codec (`"hevc"`, `"h264"`, ...).
    public let codec: String
    /// The presentation times of the key frames (sync samples), ascending; empty when unknown.
    public let keyFrameTimes: [Double]

    /// A metadata value.
    public init(
        duration: Double, frameRate: Double?, stillImageTime: Double?, hasAudio: Bool,
        contentIdentifier: ContentIdentifier?, frameTimes: [Double], codedSize: PixelSize, rotationDegrees: Int,
        codec: String, keyFrameTimes: [Double] = []
    ) {
        self.duration = duration
        self.frameRate = frameRate
        self.stillImageTime = stillImageTime
        self.hasAudio = hasAudio
        self.contentIdentifier = contentIdentifier
        self.frameTimes = frameTimes
        self.codedSize = codedSize
        self.rotationDegrees = rotationDegrees
        self.codec = codec
        self.keyFrameTimes = keyFrameTimes
    }

    /// The key frame nearest `time`, or nil when the key frames are unknown.
    public func keyFrameTime(nearest time: Double) -> Double? {
        keyFrameTimes.min { abs($0 - time) < abs($1 - time) }
    }

    /// The size of the video as displayed (coded size turned by the rotation).
    public var uprightSize: PixelSize {
        ((rotationDegrees % 180) + 180) % 180 == 90 ? codedSize.transposed : codedSize
    }

    /// The time of the poster frame: the still-image time, else the middle of the movie.
    public var posterTime: Double { stillImageTime ?? duration / 2 }

    /// The index in `frameTimes` of the frame nearest `time` (0 when there are no frame times).
    public func frameIndex(nearest time: Double) -> Int {
        var best = 0
        for (index, frameTime) in frameTimes.enumerated() where abs(frameTime - time) < abs(frameTimes[best] - time) {
            best = index
        }
        return best
    }
}
