public import LivePairFormats

/// The encoded format of a still LivePair creates (from a movie frame, or converted from PNG/WebP).
public enum StillEncoding: String, Sendable, Equatable, CaseIterable {
    /// HEIC through libheif's x265 encoder (what iPhones write).
    case heic
    /// JPEG through turbojpeg.
    case jpeg

    /// The file extension LivePair gives such a still.
    public var fileExtension: String { self == .heic ? "HEIC" : "JPG" }
}

/// The codec a movie that cannot be re-muxed is transcoded to.
public enum TranscodeCodec: String, Sendable, Equatable, CaseIterable {
    /// HEVC (tagged `hvc1`), what iPhones record.
    case hevc
    /// H.264, for the widest playback.
    case h264
}

/// How packaging operations write their outputs.
public struct PackagingOptions: Sendable {
    /// The format of stills LivePair encodes itself. Stills that are already HEIC or JPEG are kept
    /// as they are (only their metadata changes).
    public var stillEncoding: StillEncoding = .heic
    /// The codec movies are transcoded to when they are not H.264 or HEVC in MOV or MP4.
    public var transcodeCodec: TranscodeCodec = .hevc
    /// Quality of encoded stills (1-100).
    public var stillQuality: Int = 90
    /// Whether existing outputs may be replaced. When false an existing output is an error and
    /// nothing is written.
    public var overwrite = false
    /// Whether outputs are flushed to disk (`fsync`, file and folder) before the operation reports
    /// success. Turning it off trades crash durability for speed; outputs are still atomic.
    public var durable = true
    /// Parser limits for the inputs.
    public var limits: ParseLimits = .default
    /// A capture date and place written into the Live Photo's halves (`make` and `restamp` of a
    /// HEIC or JPEG still: its Exif; of a re-muxed movie: its `moov/meta`), as an export writes the
    /// library's date and place; nil keeps the inputs' own.
    public var captureStamp: CaptureStamp?
    /// Wraps every output's byte sink (tests inject a sink that fails part-way).
    public var interposeSink: (@Sendable (any ByteSink) -> any ByteSink)?

    /// The defaults: HEIC stills, HEVC transcodes, no overwriting.
    public init() {}
}
