public import LivePairFormats

/// One asset a Takeout export makes: its files, how they were tied together, and the metadata
/// that applies to it (sidecar first, see `TakeoutPlan`).
public struct TakeoutAsset: Sendable, Equatable {
    /// What kind of asset.
    public enum Kind: String, Sendable, Equatable {
        /// A still and a movie.
        case livePhoto = "live-photo"
        /// One file with its movie embedded.
        case motionPhoto = "motion-photo"
        /// A still alone.
        case photo
        /// A movie alone.
        case video
    }

    /// How a Live Photo's halves were tied.
    public enum PairedBy: String, Sendable, Equatable {
        /// Both halves carry the same content identifier.
        case identifier
        /// The identifier did not survive (Google re-encoded the movie): same folder, same stem,
        /// capture times within `TakeoutPlanner.pairingTolerance` seconds.
        case stemAndTime = "stem-and-time"
    }

    /// Where a date came from.
    public enum DateSource: String, Sendable, Equatable {
        /// The JSON sidecar's `photoTakenTime` (UTC).
        case sidecar
        /// The file's own capture date (Exif, QuickTime).
        case file
    }

    /// The kind.
    public var kind: Kind
    /// The still (live photo, motion photo, photo).
    public var photo: String?
    /// The movie (live photo, video).
    public var video: String?
    /// An `-edited` render: the asset's current version.
    public var render: String?
    /// How a Live Photo was paired (nil otherwise).
    public var pairedBy: PairedBy?
    /// The content identifier the halves share (nil when paired by stem and time, or not a Live Photo).
    public var contentIdentifier: ContentIdentifier?
    /// The sidecar that applies, and by which rule.
    public var sidecar: String?
    /// The rule that tied `sidecar`.
    public var sidecarRule: TakeoutSidecarRule?
    /// The creation date.
    public var creationDate: CaptureDate?
    /// Where `creationDate` came from.
    public var creationDateSource: DateSource?
    /// The location (sidecar's `geoData`, else the file's GPS).
    public var location: GPSCoordinate?
    /// Favourite (`favorited`).
    public var isFavorite: Bool
    /// Hidden (`archived`).
    public var isHidden: Bool
    /// The caption (`description`).
    public var caption: String?
    /// The titles of the albums whose folders hold it, sorted.
    public var albums: [String]

    /// The asset's first path: the still, else the movie.
    public var primaryPath: String { photo ?? video ?? "" }
}

/// What became of one file of a Takeout export.
public struct TakeoutFileOutcome: Sendable, Equatable {
    /// The four ends of a file.
    public enum Disposition: String, Sendable, Equatable {
        /// A photo or movie of an asset (`asset` is its primary path).
        case media
        /// A JSON sidecar applied to an asset.
        case sidecar
        /// An album's metadata file (`album` is its title).
        case albumMetadata = "album-metadata"
        /// Not taken: `reason` says why.
        case ignored
    }

    /// The path in the export's tree.
    public var path: String
    /// Where it was read.
    public var location: String
    /// Its end.
    public var disposition: Disposition
    /// The asset it went into (its primary path), for media and sidecars.
    public var asset: String?
    /// The album title, for album metadata.
    public var album: String?
    /// Why it was ignored: `trashed`, `duplicate`, `unreadable`, `not-media`, `not-a-sidecar`,
    /// `sidecar-without-media`, `unreadable-sidecar`, `album-without-title`, or the entry's own
    /// reason (`unsafe-name`, `not-a-regular-file`, `same-path-in-another-part`, `sidecar-too-large`).
    public var reason: String?
}
