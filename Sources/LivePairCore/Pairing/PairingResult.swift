/// A still and a movie that form one Live Photo.
public struct LivePhotoPair: Sendable, Equatable {
    /// The identifier both halves carry; nil for weak pairs matched by name.
    public let contentIdentifier: ContentIdentifier?
    /// The still.
    public let photo: AssetResource
    /// The movie.
    public let video: AssetResource
    /// True when the halves were matched by folder, stem and capture time (`--match-names`),
    /// not by identifier. Such pairs should be stamped with a fresh identifier (`livepair restamp`).
    public let isWeak: Bool

    /// Memberwise initializer.
    public init(contentIdentifier: ContentIdentifier?, photo: AssetResource, video: AssetResource, isWeak: Bool) {
        self.contentIdentifier = contentIdentifier
        self.photo = photo
        self.video = video
        self.isWeak = isWeak
    }
}

/// Why a resource is not part of a pair.
public enum UnpairedReason: String, Sendable, Equatable {
    /// A Live Photo still whose movie is absent.
    case missingPairedVideo = "missing-paired-video"
    /// A Live Photo movie whose still is absent.
    case missingPhoto = "missing-photo"
    /// A photo or movie without a content identifier: not a Live Photo half.
    case noContentIdentifier = "no-content-identifier"
    /// A file that could not be read, or that claims a media format its content is not.
    case unreadable
    /// A file that was read and is not a photo or movie (a text file, a sidecar).
    case notMedia = "not-media"
    /// A candidate that lost to a better match for the same identifier (see `ambiguous`).
    case lostAmbiguity = "lost-ambiguity"
}

/// A resource that is not part of a pair, with why.
public struct UnpairedResource: Sendable, Equatable {
    /// The resource.
    public let resource: AssetResource
    /// Why it is alone.
    public let reason: UnpairedReason

    /// Memberwise initializer.
    public init(resource: AssetResource, reason: UnpairedReason) {
        self.resource = resource
        self.reason = reason
    }
}

/// More than one candidate for one identifier (copies in two folders, an edited and an original
/// still): which pair was chosen, by which rule, and which candidates lost.
public struct AmbiguousMatch: Sendable, Equatable {
    /// The identifier shared by every candidate.
    public let contentIdentifier: ContentIdentifier
    /// Every still that carries the identifier, in path order.
    public let photos: [String]
    /// Every movie that carries the identifier, in path order.
    public let videos: [String]
    /// The pair chosen, if one could be formed.
    public let chosen: LivePhotoPair?
    /// The rule that decided: `same-folder`, `same-stem`, `nearest-capture-time`, `first-by-path`
    /// (pairing), or `no-partner` when only stills or only movies carry the identifier (`chosen`
    /// is nil: validation's `ambiguous-pair` finding for such orphans; pairing lists them as orphans only).
    /// See `AmbiguityRule` and `decidingRule`.
    public let rule: String

    /// Memberwise initializer.
    public init(contentIdentifier: ContentIdentifier, photos: [String], videos: [String], chosen: LivePhotoPair?, rule: String) {
        self.contentIdentifier = contentIdentifier
        self.photos = photos
        self.videos = videos
        self.chosen = chosen
        self.rule = rule
    }
}

/// What kind of duplicate a group is.
public enum DuplicateKind: String, Sendable, Equatable {
    /// Further paths to one file (the same device and inode: hard links, a symbolic link and its
    /// target, two spellings of one path), found without reading it.
    case sameFile = "same-file"
    /// Files with identical bytes.
    case identicalFile = "identical-file"
    /// A loose movie whose bytes equal the video embedded in a motion photo (Google Takeout splits them).
    case motionPhotoVideo = "motion-photo-video"
}

/// Files that hold the same content as another, kept file.
public struct DuplicateGroup: Sendable, Equatable {
    /// The path that is kept (the first by path, or the one beside its Live Photo partner, or the motion photo).
    public let original: String
    /// The files that repeat it, in path order.
    public let duplicates: [String]
    /// Why they are duplicates.
    public let kind: DuplicateKind

    /// Memberwise initializer.
    public init(original: String, duplicates: [String], kind: DuplicateKind) {
        self.original = original
        self.duplicates = duplicates
        self.kind = kind
    }
}

/// The outcome of pairing a set of resources. Every resource given appears exactly once across
/// `pairs` (as a half), `motionPhotos`, `unpaired` and the `duplicates` lists; lists are sorted by path.
public struct PairingResult: Sendable, Equatable {
    /// Live Photo pairs, by the photo's path.
    public var pairs: [LivePhotoPair] = []
    /// Self-contained motion photos.
    public var motionPhotos: [AssetResource] = []
    /// Resources that are not in a pair, with the reason.
    public var unpaired: [UnpairedResource] = []
    /// Identifiers with more than one candidate.
    public var ambiguous: [AmbiguousMatch] = []
    /// Duplicate groups.
    public var duplicates: [DuplicateGroup] = []

    /// An empty result.
    public init() {}
}
