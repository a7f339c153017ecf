public import Foundation
public import LivePair

/// One asset of a library, as PhotoKit's `PHAsset`: an immutable snapshot of its catalog row.
/// Its resources (still, paired movie, ...) are listed with `PhotoLibrary.assetResources(for:)`.
public struct Asset: Sendable, Hashable, Identifiable {
    /// The library-wide identifier (an uppercase UUID).
    public let localIdentifier: String
    /// Image or video.
    public var mediaType: AssetMediaType
    /// Live Photo and other refinements.
    public var mediaSubtypes: AssetMediaSubtypes
    /// Stored width of the still (or of the movie for videos), 0 when unknown.
    public var pixelWidth: Int
    /// Stored height, 0 when unknown.
    public var pixelHeight: Int
    /// Seconds: the movie's duration for videos, the paired or embedded movie's for Live Photos and
    /// motion photos, 0 for still photos.
    public var duration: Double
    /// When the photo was taken, when known.
    public var creationDate: Date?
    /// Where it was taken, when known.
    public var location: AssetLocation?
    /// Marked as a favorite.
    public var isFavorite: Bool
    /// Hidden: left out of fetches unless `FetchOptions.includeHiddenAssets`.
    public var isHidden: Bool
    /// The Live Photo pairing identifier the halves carry, when any.
    public var contentIdentifier: String?
    /// The tenant or user the asset belongs to (set by the ingestor); nil for a single-user library.
    public var owner: String?
    /// When the asset was added to the library.
    public var addedDate: Date
    /// For a Live Photo, the still's time on the paired movie's timeline in seconds: the movie's own
    /// still-image time, or, when the movie has none (`missing-still-image-time`) or one outside the
    /// movie, the derived one (`StillImageTimeDerivation`); nil otherwise.
    public var stillImageTime: Double?
    /// What validation found when the asset was created and that did not keep it out (see
    /// `UploadEffect.acceptedWithFlag`): not Photos-ready, or cosmetic. Paths are the names the
    /// resources were added with. Empty for assets without findings.
    public var findings: [Finding]
    /// True when the asset has been edited (PhotoKit's `hasAdjustments`): it has adjustment data
    /// and, for requests of `AssetVersion.current`, a render. Read from its resources, never
    /// stored apart from them; `PhotoLibrary.adjustmentData(for:)` reads the edit.
    public var hasAdjustments: Bool
    /// The owner's description of the photo (Google Photos' `description`, Photos' caption), nil
    /// when it has none. Set with `AssetChangeRequest.caption`.
    public var caption: String?

    /// The local identifier.
    public var id: String { localIdentifier }

    /// Memberwise initializer.
    public init(
        localIdentifier: String, mediaType: AssetMediaType, mediaSubtypes: AssetMediaSubtypes, pixelWidth: Int,
        pixelHeight: Int, duration: Double, creationDate: Date?, location: AssetLocation?, isFavorite: Bool,
        isHidden: Bool, contentIdentifier: String?, owner: String?, addedDate: Date, stillImageTime: Double? = nil,
        findings: [Finding] = [], hasAdjustments: Bool = false, caption: String? = nil
    ) {
        self.localIdentifier = localIdentifier
        self.mediaType = mediaType
        self.mediaSubtypes = mediaSubtypes
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.duration = duration
        self.creationDate = creationDate
        self.location = location
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.contentIdentifier = contentIdentifier
        self.owner = owner
        self.addedDate = addedDate
        self.stillImageTime = stillImageTime
        self.findings = findings
        self.hasAdjustments = hasAdjustments
        self.caption = caption
    }

    /// True for a Live Photo or motion photo.
    public var isLivePhoto: Bool { mediaSubtypes.contains(.photoLive) }
}
