/// How an `Ingestor` treats uploads.
public struct IngestOptions: Sendable, Hashable {
    /// What to do with a still or movie that carries no content identifier (so can have no partner).
    public enum LooseFilePolicy: Sendable, Hashable {
        /// Make it a plain photo or video asset.
        case importAsAsset
        /// Reject it (`missing-content-identifier`).
        case reject
    }

    /// Stills without a content identifier (plain photos). Default: imported as photo assets.
    public var stillsWithoutIdentifier: LooseFilePolicy
    /// Movies without a content identifier (plain videos). Default: imported as video assets.
    public var moviesWithoutIdentifier: LooseFilePolicy
    /// How old a pending half must be for `Ingestor.pendingUploads()` to list it, in seconds
    /// (default one day).
    public var pendingMaximumAge: Double
    /// Whether uploaded files are copied (the default) or moved into the library.
    public var uploadHandling: UploadFileHandling
    /// The most uploads one group commit decides together (default 64); `1` gives every upload
    /// its own flush and transaction.
    public var maximumGroupSize: Int
    /// Decode every upload before accepting it (`livepair import --deep`): a still's image, a
    /// movie's frame at its still-image time, a motion photo's embedded video. Metadata reading and
    /// the cheap integrity checks run on every upload; decoding costs about 0.2 to 1 s per file and
    /// catches damage inside the media data (`undecodable-photo`, `undecodable-video`: rejected).
    /// Default: off.
    public var decodesMedia: Bool

    /// The defaults: loose files become plain assets; pending halves are stale after a day; uploads
    /// are copied; up to 64 uploads share a commit; media data is not decoded.
    public init(
        stillsWithoutIdentifier: LooseFilePolicy = .importAsAsset, moviesWithoutIdentifier: LooseFilePolicy = .importAsAsset,
        pendingMaximumAge: Double = 86_400, uploadHandling: UploadFileHandling = .copy, maximumGroupSize: Int = 64,
        decodesMedia: Bool = false
    ) {
        self.stillsWithoutIdentifier = stillsWithoutIdentifier
        self.moviesWithoutIdentifier = moviesWithoutIdentifier
        self.pendingMaximumAge = pendingMaximumAge
        self.uploadHandling = uploadHandling
        self.maximumGroupSize = max(1, maximumGroupSize)
        self.decodesMedia = decodesMedia
    }
}
