import LivePairFormats

/// Something that went wrong while reading a file, with a stable code.
public struct IdentityIssue: Sendable, Equatable {
    /// A kebab-case code: `truncated`, `invalid-structure`, `limit-exceeded`, `unsupported-format`,
    /// `read-failed`, `motion-photo-video-missing`.
    public let code: String
    /// What is wrong, in terms of the file.
    public let message: String

    /// An issue with `code` and `message`.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The issue for a format error. A read failure's message is the reason alone: the issue
    /// belongs to an identity that names the path, and reports put the path in front.
    public init(_ error: FormatError) {
        if case let .io(_, reason) = error {
            self.init(code: error.code, message: reason)
        } else {
            self.init(code: error.code, message: error.description)
        }
    }
}

/// Where a motion photo keeps its video and what it says about it.
public struct MotionPhotoInfo: Sendable, Equatable {
    /// `google` (Camera/GCamera XMP) or `samsung` (SEF trailer or `mpvd` box).
    public let vendor: String
    /// File offset of the embedded video; nil when the file claims a video that is not there.
    public let videoOffset: UInt64?
    /// Length of the embedded video in bytes.
    public let videoLength: UInt64?
    /// The presentation timestamp of the still in the video, in microseconds; nil when unset (-1) or absent.
    public let presentationTimestampUs: Int64?
    /// How the video was located: `container-directory`, `micro-video-offset`, `sef-trailer`, `mpvd-box`, `ftyp-scan`.
    public let locatedBy: String?

    /// Memberwise initializer.
    public init(
        vendor: String, videoOffset: UInt64?, videoLength: UInt64?, presentationTimestampUs: Int64?, locatedBy: String?
    ) {
        self.vendor = vendor
        self.videoOffset = videoOffset
        self.videoLength = videoLength
        self.presentationTimestampUs = presentationTimestampUs
        self.locatedBy = locatedBy
    }
}

/// Everything LivePair knows about one file: what it is, what part it plays, and the values that
/// pairing and validation use. Produced by `ResourceIdentifier`.
public struct ResourceIdentity: Sendable, Equatable {
    /// The path the file was read from.
    public var path: String
    /// Size in bytes.
    public var fileSize: UInt64 = 0
    /// The file's device and inode when it was read from the file system: equal for hard links,
    /// which pairing then counts as identical copies without reading them.
    public var fileID: FileID?
    /// The format, by content.
    public var format: FileFormat = .unknown
    /// The role.
    public var role: ResourceRole = .unknown
    /// The pairing identifier, from the maker note (stills) or the movie metadata (movies).
    public var contentIdentifier: ContentIdentifier?
    /// For movies: where the identifier was found (`moov/meta`, or `moov/udta/meta` as ffmpeg writes it).
    public var contentIdentifierLocation: MetadataLocation?
    /// Identifiers found elsewhere in the same file that differ from `contentIdentifier` (for
    /// movies, an older one left in `moov/udta/meta`): readers disagree on which one the file has.
    public var conflictingContentIdentifiers: [ContentIdentifier] = []
    /// For HEIF stills: the id of an item other than the primary image whose XMP claims a motion
    /// photo (Google's readers ask the primary's XMP only, so they find no video).
    public var motionPhotoXMPItemNotPrimary: UInt32?
    /// For Live Photo movies: the still's time on the movie timeline, in seconds.
    public var stillImageTime: Double?
    /// For movies with a still-image time: the video frame nearest it (nil without video frames).
    public var stillImageFrame: StillImageFrame?
    /// Stored pixel width (before orientation): the primary image, or the video track's coded size.
    public var width: Int?
    /// Stored pixel height.
    public var height: Int?
    /// EXIF orientation 1-8: from the still's EXIF, or derived from the movie's track matrix.
    public var orientation: Int?
    /// Duration in seconds (movies; for motion photos, the embedded video's).
    public var duration: Double?
    /// Video codec as ffprobe names it (`h264`, `hevc`, ...).
    public var videoCodec: String?
    /// Audio codec as ffprobe names it (`aac`, `pcm_s16le`, ...), nil without audio.
    public var audioCodec: String?
    /// Video frames per second.
    public var frameRate: Double?
    /// When the photo or movie was taken; nil when unknown (zero dates count as unknown).
    public var captureDate: CaptureDate?
    /// Where it was taken: the still's EXIF GPS position, or the movie's
    /// `com.apple.quicktime.location.ISO6709`; nil when absent.
    public var location: GPSCoordinate?
    /// Camera maker.
    public var make: String?
    /// Camera model.
    public var model: String?
    /// For motion photos: the embedded video.
    public var motionPhoto: MotionPhotoInfo?
    /// What could not be read. Empty when the whole file was understood.
    public var issues: [IdentityIssue] = []
    /// For an `.AAE` edit file: what its adjustment data says.
    public var adjustment: AdjustmentInfo?

    /// An empty identity for `path`.
    public init(path: String) { self.path = path }

    /// True when every part of the file that was looked at could be read.
    public var isComplete: Bool { issues.isEmpty }
}
