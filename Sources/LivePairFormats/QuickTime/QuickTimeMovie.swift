/// The `ftyp` box.
public struct FileTypeBox: Sendable, Equatable {
    /// The major brand (`qt  ` for QuickTime movies, `isom`/`mp42` for MP4, `heic`/`mif1` for HEIF).
    public let majorBrand: FourCC
    /// The minor version.
    public let minorVersion: UInt32
    /// The compatible brands.
    public let compatibleBrands: [FourCC]

    /// Memberwise initializer.
    public init(majorBrand: FourCC, minorVersion: UInt32, compatibleBrands: [FourCC]) {
        self.majorBrand = majorBrand
        self.minorVersion = minorVersion
        self.compatibleBrands = compatibleBrands
    }

    /// Reads an `ftyp` payload.
    public init(payload: ByteReader) throws(FormatError) {
        var reader = payload
        majorBrand = try reader.fourCC()
        minorVersion = try reader.u32()
        var brands: [FourCC] = []
        while reader.remaining >= 4, brands.count < 64 { brands.append(try reader.fourCC()) }
        compatibleBrands = brands
    }

    /// Every brand: the major one first.
    public var allBrands: [FourCC] { [majorBrand] + compatibleBrands }
}

/// The still-image time of a Live Photo movie: where the photo was taken on the movie timeline.
public struct StillImageTime: Sendable, Equatable {
    /// Seconds from the start of the movie timeline (edit list applied), as ffprobe's `start_time`.
    public let seconds: Double
    /// The id of the timed-metadata track that carries it.
    public let trackID: UInt32
    /// The sample's value (-1 in Apple files, 0 from some other writers), when it could be read.
    public let sampleValue: Int8?

    /// Memberwise initializer.
    public init(seconds: Double, trackID: UInt32, sampleValue: Int8?) {
        self.seconds = seconds
        self.trackID = trackID
        self.sampleValue = sampleValue
    }
}

/// What a QuickTime or MP4 movie says about itself: brands, tracks and metadata, read from `moov`.
public struct QuickTimeMovie: Sendable, Equatable {
    /// The `ftyp` box; nil for movies that start without one (some exported Live Photo movies).
    public let fileType: FileTypeBox?
    /// `mvhd`.
    public let header: MovieHeader
    /// All tracks in file order.
    public let tracks: [Track]
    /// Items from `moov/meta` (Apple's location).
    public let metadata: [MetadataItem]
    /// Items from `moov/udta/meta` (where ffmpeg writes them).
    public let userDataMetadata: [MetadataItem]
    /// The top-level boxes of the file.
    public let topLevelBoxes: [TopLevelBox]

    /// The key Apple uses for the pairing identifier.
    public static let contentIdentifierKey = "com.apple.quicktime.content.identifier"
    /// The timed-metadata key of the still-image time.
    public static let stillImageTimeKey = "com.apple.quicktime.still-image-time"

    /// Memberwise initializer.
    public init(
        fileType: FileTypeBox?, header: MovieHeader, tracks: [Track], metadata: [MetadataItem],
        userDataMetadata: [MetadataItem], topLevelBoxes: [TopLevelBox]
    ) {
        self.fileType = fileType
        self.header = header
        self.tracks = tracks
        self.metadata = metadata
        self.userDataMetadata = userDataMetadata
        self.topLevelBoxes = topLevelBoxes
    }

    /// The value of `key`, from `moov/meta` first, then `moov/udta/meta`, with where it was found.
    public func metadataValue(_ key: String) -> (value: MetadataValue, location: MetadataLocation)? {
        if let item = metadata.first(where: { $0.key == key }) { return (item.value, .movieMeta) }
        if let item = userDataMetadata.first(where: { $0.key == key }) { return (item.value, .userDataMeta) }
        return nil
    }

    /// The main video track: the first enabled `vide` track (disabled `auxv`/`vide` tracks are auxiliary).
    public var videoTrack: Track? {
        tracks.first { $0.handlerType == "vide" && $0.header.isEnabled } ?? tracks.first { $0.handlerType == "vide" }
    }

    /// The first audio track.
    public var audioTrack: Track? { tracks.first { $0.handlerType == "soun" } }

    /// The timed-metadata track whose `mebx` keys include the still-image time.
    public var stillImageTimeTrack: Track? {
        tracks.first { $0.handlerType == "meta" && $0.metadataKeyNames.contains(Self.stillImageTimeKey) }
    }
}
