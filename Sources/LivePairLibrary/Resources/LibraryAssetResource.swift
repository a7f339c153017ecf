/// One file of an asset, as PhotoKit's `PHAssetResource`: what it is, the name and type it came
/// with, and where its bytes are (by digest, in the library's resource store).
///
/// `originalFilename` is data only: it is kept exactly as given (it may contain `/`, `..` or NUL)
/// and never used as a path; exports use `exportFilename`.
public struct LibraryAssetResource: Sendable, Hashable {
    /// The asset it belongs to.
    public let assetLocalIdentifier: String
    /// Its place among the asset's resources (0 for the first added).
    public let ordinal: Int
    /// What it is within the asset.
    public let type: AssetResourceType
    /// The SHA-256 of its bytes: its name in the resource store.
    public let digest: ContentDigest
    /// Size in bytes.
    public let size: UInt64
    /// The file name it was added with, exactly as given; nil when none was given.
    public let originalFilename: String?
    /// Its uniform type identifier (`public.heic`, `com.apple.quicktime-movie`, ...), when known.
    public let uniformTypeIdentifier: String?

    /// Memberwise initializer.
    public init(
        assetLocalIdentifier: String, ordinal: Int, type: AssetResourceType, digest: ContentDigest, size: UInt64,
        originalFilename: String?, uniformTypeIdentifier: String?
    ) {
        self.assetLocalIdentifier = assetLocalIdentifier
        self.ordinal = ordinal
        self.type = type
        self.digest = digest
        self.size = size
        self.originalFilename = originalFilename
        self.uniformTypeIdentifier = uniformTypeIdentifier
    }

    /// A safe file name for exporting: the last path component of the original name with control
    /// characters (NUL included) and `:` replaced and leading dots removed; when nothing usable
    /// remains, `<asset>-<type>` with an extension from the type identifier.
    public var exportFilename: String {
        ExportFilename.sanitized(
            originalFilename, fallbackStem: "\(assetLocalIdentifier)-\(type.rawValue)",
            fallbackExtension: UniformTypeIdentifiers.preferredExtension(uniformTypeIdentifier))
    }
}
