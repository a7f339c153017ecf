import LivePairFormats

/// What rendering a Live Photo edit wrote: the new still and movie (sharing a new content
/// identifier) and the adjustment data, beside the untouched originals.
public struct RenderedLivePhotoEdit: Sendable, Equatable {
    /// The identifier both rendered halves carry (new: an edit is another Live Photo).
    public let contentIdentifier: String
    /// The rendered still (`IMG_E1234.HEIC`).
    public let photoPath: String
    /// The rendered movie (`IMG_E1234.MOV`).
    public let videoPath: String
    /// The adjustment data (`IMG_1234.AAE`, LivePair's format).
    public let adjustmentsPath: String
    /// The settings recorded in the adjustment data.
    public let settings: LivePhotoEditSettings
    /// The key photo's frame, in seconds on the original movie's timeline.
    public let photoTime: Double
    /// The still-image time written into the rendered movie (seconds on its own timeline).
    public let stillImageTime: Double
    /// The part of the original movie rendered: from its first kept frame to the end of its last.
    public let renderedRange: ClosedRange<Double>
    /// Frames in the rendered movie (Bounce: twice the kept frames less one).
    public let frameCount: Int
    /// Whether the rendered movie has sound.
    public let hasAudio: Bool
    /// How the movie was made: `.remuxed` (the original's packets, byte for byte, cut by edit
    /// lists: a key photo, trim or mute edit of an H.264 or HEVC movie) or `.transcoded` (its
    /// frames encoded again as H.264: Loop, Bounce, another codec).
    public let movieHandling: OutputHandling
    /// Steps of a resumed recipe that the render did not apply (`SmartBlackAndWhite`, ...).
    public let unrenderedOperations: [String]
    /// The validation findings of the rendered pair (warnings and notes).
    public let findings: [Finding]

    /// Memberwise initializer.
    public init(
        contentIdentifier: String, photoPath: String, videoPath: String, adjustmentsPath: String,
        settings: LivePhotoEditSettings, photoTime: Double, stillImageTime: Double, renderedRange: ClosedRange<Double>,
        frameCount: Int, hasAudio: Bool, movieHandling: OutputHandling, unrenderedOperations: [String], findings: [Finding]
    ) {
        self.contentIdentifier = contentIdentifier
        self.photoPath = photoPath
        self.videoPath = videoPath
        self.adjustmentsPath = adjustmentsPath
        self.settings = settings
        self.photoTime = photoTime
        self.stillImageTime = stillImageTime
        self.renderedRange = renderedRange
        self.frameCount = frameCount
        self.hasAudio = hasAudio
        self.movieHandling = movieHandling
        self.unrenderedOperations = unrenderedOperations
        self.findings = findings
    }
}
