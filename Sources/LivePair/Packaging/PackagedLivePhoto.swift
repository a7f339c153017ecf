/// How an output half was produced.
public enum OutputHandling: String, Sendable, Equatable {
    /// Only metadata changed: the image or media data is byte-identical to the input's.
    case metadataOnly = "metadata-only"
    /// The still was decoded and encoded again (PNG/WebP input, or a frame of the movie).
    case encoded
    /// The movie's streams were copied into a QuickTime container (MP4 to MOV) with new metadata.
    case remuxed
    /// The movie was re-encoded (its codec or container could not be kept).
    case transcoded
    /// A motion photo's embedded video was extracted.
    case extracted
}

/// A Live Photo pair LivePair wrote: what it contains and where.
public struct PackagedLivePhoto: Sendable, Equatable {
    /// The content identifier both halves carry.
    public let contentIdentifier: String
    /// The still's path.
    public let photoPath: String
    /// The movie's path.
    public let videoPath: String
    /// The still-image time written into the movie (seconds on its timeline, on a video frame).
    public let stillImageTime: Double
    /// How the still was produced.
    public let photoHandling: OutputHandling
    /// How the movie was produced.
    public let videoHandling: OutputHandling
    /// The validation findings of the written pair (warnings and notes; an error fails the operation).
    public let findings: [Finding]
    /// What the inputs held that the outputs do not, one sentence each (a Pixel's maker note that
    /// Apple's replaced, a Samsung SEF record): empty when nothing was lost.
    public let dropped: [String]

    /// Memberwise initializer.
    public init(
        contentIdentifier: String, photoPath: String, videoPath: String, stillImageTime: Double,
        photoHandling: OutputHandling, videoHandling: OutputHandling, findings: [Finding], dropped: [String] = []
    ) {
        self.dropped = dropped
        self.contentIdentifier = contentIdentifier
        self.photoPath = photoPath
        self.videoPath = videoPath
        self.stillImageTime = stillImageTime
        self.photoHandling = photoHandling
        self.videoHandling = videoHandling
        self.findings = findings
    }
}

/// A motion photo LivePair wrote.
public struct PackagedMotionPhoto: Sendable, Equatable {
    /// The output file.
    public let path: String
    /// Where the embedded video starts in the file.
    public let videoOffset: UInt64
    /// The embedded video's length in bytes.
    public let videoLength: UInt64
    /// The presentation timestamp written (microseconds on the video's timeline).
    public let presentationTimestampUs: Int64
    /// The validation findings of the written file (an error fails the operation).
    public let findings: [Finding]
    /// What the inputs held that the output does not, one sentence each: empty when nothing was lost.
    public let dropped: [String]

    /// Memberwise initializer.
    public init(
        path: String, videoOffset: UInt64, videoLength: UInt64, presentationTimestampUs: Int64, findings: [Finding],
        dropped: [String] = []
    ) {
        self.dropped = dropped
        self.path = path
        self.videoOffset = videoOffset
        self.videoLength = videoLength
        self.presentationTimestampUs = presentationTimestampUs
        self.findings = findings
    }
}
