extension FindingCode {
    // MARK: Identifiers and pairing

    /// A Live Photo half, or a file that looks like one, has no content identifier.
    public static let missingContentIdentifier = FindingCode(rawValue: "missing-content-identifier")
    /// A still and a movie that belong together by name carry different identifiers.
    public static let identifierMismatch = FindingCode(rawValue: "identifier-mismatch")
    /// One file carries two different content identifiers (`moov/meta` and `moov/udta/meta`).
    public static let conflictingContentIdentifiers = FindingCode(rawValue: "conflicting-content-identifiers")
    /// A HEIF still's motion-photo XMP is attached to an item other than the primary image.
    public static let xmpOnNonPrimaryItem = FindingCode(rawValue: "xmp-on-non-primary-item")
    /// The content identifier is not a UUID.
    public static let malformedContentIdentifier = FindingCode(rawValue: "malformed-content-identifier")
    /// A Live Photo movie whose still is absent.
    public static let missingPairPhoto = FindingCode(rawValue: "missing-pair-photo")
    /// A Live Photo still whose movie is absent.
    public static let missingPairVideo = FindingCode(rawValue: "missing-pair-video")
    /// More than one candidate for one identifier.
    public static let ambiguousPair = FindingCode(rawValue: "ambiguous-pair")
    /// A file that repeats another file's content.
    public static let duplicateFile = FindingCode(rawValue: "duplicate-file")

    // MARK: Edits

    /// An `.AAE` edit file whose photo is not in its folder.
    public static let editDataWithoutPhoto = FindingCode(rawValue: "edit-data-without-photo")
    /// A rendered edit (`IMG_E1234`, `_edited`, `-adjusted`) whose original is not in its folder.
    public static let editRenderWithoutOriginal = FindingCode(rawValue: "edit-render-without-original")
    /// An `.AAE` edit file made on a master whose size is not the original's.
    public static let editMasterSizeMismatch = FindingCode(rawValue: "edit-master-size-mismatch")
    /// LivePair's `.AAE` edit file naming a frame filter LivePair does not have.
    public static let editUnknownFilter = FindingCode(rawValue: "edit-unknown-filter")

    // MARK: The movie's still-image time

    /// A Live Photo movie without a still-image-time track.
    public static let missingStillImageTime = FindingCode(rawValue: "missing-still-image-time")
    /// The still-image time lies outside the movie.
    public static let stillImageTimeOutOfRange = FindingCode(rawValue: "still-image-time-out-of-range")
    /// The still-image time is not on a video frame.
    public static let stillImageTimeNotOnFrame = FindingCode(rawValue: "still-image-time-not-on-frame")

    // MARK: Container and metadata

    /// The movie's identifier is only in `moov/udta/meta` (ffmpeg's place), not Apple's `moov/meta`.
    public static let nonAppleMetadataLocation = FindingCode(rawValue: "non-apple-metadata-location")
    /// The file's extension does not name its content's format.
    public static let extensionMismatch = FindingCode(rawValue: "extension-mismatch")
    /// The file cannot be read completely (truncated, malformed structure, unreadable).
    public static let corruptFile = FindingCode(rawValue: "corrupt-file")
    /// An upload that is not a photo or movie at all (a README, a `.json` sidecar, an `.AAE` edit file).
    public static let notMedia = FindingCode(rawValue: "not-media")
    /// A movie's sample tables point past the end of the file or disagree with its sample count.
    public static let sampleTableOutOfFile = FindingCode(rawValue: "sample-table-out-of-file")
    /// A movie without a video track (for example a `vide` handler damaged into something else).
    public static let missingVideoTrack = FindingCode(rawValue: "missing-video-track")
    /// A JPEG whose compressed image data does not end with the EOI marker (a cut-off scan).
    public static let truncatedImageData = FindingCode(rawValue: "truncated-image-data")

    // MARK: Consistency of the two halves

    /// The still is upright portrait and the movie landscape, or the reverse.
    public static let orientationMismatch = FindingCode(rawValue: "orientation-mismatch")
    /// The still's and the movie's upright aspect ratios differ.
    public static let aspectMismatch = FindingCode(rawValue: "aspect-mismatch")
    /// The halves were taken too far apart, or a half has no usable capture date.
    public static let captureTimeMismatch = FindingCode(rawValue: "capture-time-mismatch")

    // MARK: The video

    /// The video codec is neither H.264 nor HEVC.
    public static let unsupportedVideoCodec = FindingCode(rawValue: "unsupported-video-codec")
    /// The video is HEVC, which most web browsers cannot play.
    public static let hevcVideo = FindingCode(rawValue: "hevc-video")
    /// The movie is much shorter or longer than a camera's Live Photo or motion photo.
    public static let unusualDuration = FindingCode(rawValue: "unusual-duration")

    // MARK: Motion photos

    /// The file says it is a motion photo, but no video is at the stated place.
    public static let motionPhotoVideoMissing = FindingCode(rawValue: "motion-photo-video-missing")
    /// The motion photo's presentation timestamp lies outside its video.
    public static let motionPhotoTimestampOutOfRange = FindingCode(rawValue: "motion-photo-timestamp-out-of-range")

    // MARK: Deep validation (`--deep`)

    /// The still's primary image cannot be decoded.
    public static let undecodablePhoto = FindingCode(rawValue: "undecodable-photo")
    /// The movie's frame at the still-image time cannot be decoded.
    public static let undecodableVideo = FindingCode(rawValue: "undecodable-video")
}
