/// What a resource is within an asset, as PhotoKit's `PHAssetResourceType`. The raw value is the
/// name stored in the catalog.
public enum AssetResourceType: String, Sendable, Hashable, CaseIterable {
    /// The still of a photo, Live Photo or motion photo.
    case photo
    /// A movie that is an asset on its own.
    case video
    /// An audio file.
    case audio
    /// An alternate still (for example the JPEG of a RAW+JPEG pair).
    case alternatePhoto
    /// The edited still.
    case fullSizePhoto
    /// The edited movie.
    case fullSizeVideo
    /// Edit data (an AAE sidecar).
    case adjustmentData
    /// The movie of a Live Photo.
    case pairedVideo
    /// The edited movie of a Live Photo.
    case fullSizePairedVideo
    /// The unedited still an edit was based on.
    case adjustmentBasePhoto
    /// The adjustments the camera made to the original itself (an `IMG_O1234.AAE` beside the
    /// original: Portrait depth, photographic styles), kept byte for byte. LivePair's own type:
    /// PhotoKit keeps them inside its library. Part of the original: a revert keeps it.
    case originalAdjustmentData

    /// True for the types that hold a still.
    public var isStill: Bool { [.photo, .alternatePhoto, .fullSizePhoto, .adjustmentBasePhoto].contains(self) }
    /// The types an edit adds and a revert removes: the render (still and movie) and the
    /// adjustment data (PhotoKit's current version).
    public static let editTypes: [AssetResourceType] = [.fullSizePhoto, .fullSizeVideo, .fullSizePairedVideo, .adjustmentData]

    /// True for the types an edit adds and a revert removes (`editTypes`).
    public var isEdit: Bool { Self.editTypes.contains(self) }

    /// True for the types that hold a movie.
    public var isMovie: Bool { [.video, .fullSizeVideo, .pairedVideo, .fullSizePairedVideo].contains(self) }
}
