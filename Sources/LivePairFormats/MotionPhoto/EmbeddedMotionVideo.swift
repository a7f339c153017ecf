/// Who wrote a motion photo.
public enum MotionPhotoVendor: String, Sendable, Equatable {
    /// Google Motion Photo (Camera / GCamera XMP), including other Android writers using it.
    case google
    /// Samsung (SEF trailer or `sefd` box).
    case samsung
}

/// How the embedded video was found.
public enum MotionPhotoLocationMethod: String, Sendable, Equatable {
    /// From the XMP Container directory item lengths.
    case containerDirectory = "container-directory"
    /// From the legacy MicroVideoOffset.
    case microVideoOffset = "micro-video-offset"
    /// From the Samsung SEF MotionPhoto_Data entry.
    case sefTrailer = "sef-trailer"
    /// From a HEIC top-level `mpvd` box.
    case mpvdBox = "mpvd-box"
    /// From a bounded backwards scan for an `ftyp` box.
    case ftypScan = "ftyp-scan"
}

/// The byte range of the video embedded in a motion photo.
public struct EmbeddedMotionVideo: Sendable, Equatable {
    /// Who wrote the file.
    public let vendor: MotionPhotoVendor
    /// File offset of the video's first byte.
    public let fileOffset: UInt64
    /// Length of the video in bytes.
    public let length: UInt64
    /// Presentation timestamp of the still in microseconds; nil when unset (-1) or absent.
    public let presentationTimestampUs: Int64?
    /// The exact Apple still-image time LivePair wrote in the XMP (`LivePair:StillImageTime`) when
    /// it made the motion photo from a Live Photo; nil in other motion photos.
    public let stillImageTime: LivePairStillImageTime?
    /// How the video was found.
    public let method: MotionPhotoLocationMethod
    /// Whether `ftyp` was found at `fileOffset + 4`.
    public let ftypVerified: Bool
    /// Disagreements noticed on the way (stated places without a video, suspicious lengths).
    public let warnings: [String]

    /// Memberwise initializer.
    public init(
        vendor: MotionPhotoVendor, fileOffset: UInt64, length: UInt64, presentationTimestampUs: Int64?,
        method: MotionPhotoLocationMethod, ftypVerified: Bool, warnings: [String],
        stillImageTime: LivePairStillImageTime? = nil
    ) {
        self.stillImageTime = stillImageTime
        self.vendor = vendor
        self.fileOffset = fileOffset
        self.length = length
        self.presentationTimestampUs = presentationTimestampUs
        self.method = method
        self.ftypVerified = ftypVerified
        self.warnings = warnings
    }
}

/// The outcome of looking for an embedded video.
public enum MotionPhotoLookup: Sendable, Equatable {
    /// Nothing claims a video and none was found.
    case notMotionPhoto
    /// The video was found.
    case video(EmbeddedMotionVideo)
    /// The metadata claims a video (MotionPhoto = 1, MicroVideo = 1, a SEF MotionPhoto_Data entry)
    /// but none is where it says nor anywhere the scan looked. `reasons` say what was tried.
    case claimedButMissing(reasons: [String])

    /// The video, when found.
    public var video: EmbeddedMotionVideo? {
        if case let .video(video) = self { return video }
        return nil
    }
}
