public import Foundation
public import LivePair
public import LivePairFormats

/// What an editor starts from, as PhotoKit's `PHContentEditingInput`: the base files (the render
/// of an edited asset, else the original; or the original with the adjustment data to resume,
/// when the editor says it can), the asset's adjustment data, and the asset's media type, dates
/// and location. Ask for one with `PhotoLibrary.requestContentEditingInput(for:options:)`; commit
/// the edit made from it as a `ContentEditingOutput` in `performChanges`.
///
/// The base files are local files the library reads (the stored file of a directory store, a
/// cached copy of an S3 object): read them, never modify them.
public struct ContentEditingInput: Sendable {
    /// The asset edited.
    public let asset: Asset
    /// Which version the base files are: `.current` (the render of an edited asset, or the
    /// original of one never edited) or `.original` (the original of an edited asset, when the
    /// editor can resume its adjustment data).
    public let baseVersion: AssetVersion
    /// The base's still (`.photo` or `.fullSizePhoto`); nil for a video.
    public let baseStill: LibraryAssetResource?
    /// The base's movie (`.pairedVideo`, `.fullSizePairedVideo`, `.video` or `.fullSizeVideo`);
    /// nil for a photo without a movie.
    public let baseMovie: LibraryAssetResource?
    /// A local file holding the base still (PhotoKit's `fullSizeImageURL`), when there is one.
    public let fullSizeImagePath: String?
    /// A local file holding the base movie (PhotoKit's `audiovisualAsset`), when there is one.
    public let videoPath: String?
    /// The asset's edit as PhotoKit's `PHAdjustmentData` (format identifier, version and the
    /// editor's bytes, exactly as stored); nil when the asset has no edit or its `.AAE` cannot be
    /// read (it is kept all the same). Given whatever the base: unlike PhotoKit, an editor that
    /// cannot resume an edit still sees what it was.
    public let adjustmentData: AdjustmentData?
    /// A local file holding the edit's stored `.AAE`, byte for byte; nil when the asset has no edit.
    public let adjustmentDataPath: String?
    /// The file name the asset's original still (or movie, for a video) was added with, which an
    /// edit's files are named after (`IMG_3582.HEIC` gives `IMG_E3582.HEIC`).
    public let originalFilename: String?

    /// Image or video (PhotoKit's `mediaType`).
    public var mediaType: AssetMediaType { asset.mediaType }
    /// Live Photo and other refinements (PhotoKit's `mediaSubtypes`).
    public var mediaSubtypes: AssetMediaSubtypes { asset.mediaSubtypes }
    /// When the photo was taken (PhotoKit's `creationDate`).
    public var creationDate: Date? { asset.creationDate }
    /// Where it was taken (PhotoKit's `location`).
    public var location: AssetLocation? { asset.location }
    /// The base still's uniform type (`public.heic`, `public.jpeg`), else the movie's.
    public var uniformTypeIdentifier: String? { (baseStill ?? baseMovie)?.uniformTypeIdentifier }

    /// Memberwise initializer.
    init(
        asset: Asset, baseVersion: AssetVersion, baseStill: LibraryAssetResource?, baseMovie: LibraryAssetResource?,
        fullSizeImagePath: String?, videoPath: String?, adjustmentData: AdjustmentData?, adjustmentDataPath: String?,
        originalFilename: String?
    ) {
        self.asset = asset
        self.baseVersion = baseVersion
        self.baseStill = baseStill
        self.baseMovie = baseMovie
        self.fullSizeImagePath = fullSizeImagePath
        self.videoPath = videoPath
        self.adjustmentData = adjustmentData
        self.adjustmentDataPath = adjustmentDataPath
        self.originalFilename = originalFilename
    }
}

/// Options of `PhotoLibrary.requestContentEditingInput(for:options:)`, as PhotoKit's
/// `PHContentEditingInputRequestOptions`.
public struct ContentEditingInputRequestOptions: Sendable {
    /// Asked with an edited asset's adjustment data: true when the editor can resume that edit,
    /// so the base is the original (and the editor re-applies the adjustments); false, or no
    /// handler (the default), makes the render the base.
    public var canHandleAdjustmentData: (@Sendable (AdjustmentData) -> Bool)?

    /// Options with the given handler (none by default: the base is the current version).
    public init(canHandleAdjustmentData: (@Sendable (AdjustmentData) -> Bool)? = nil) {
        self.canHandleAdjustmentData = canHandleAdjustmentData
    }
}
