/// How a resource is added to a new asset, as PhotoKit's `PHAssetResourceCreationOptions`.
public struct AssetResourceCreationOptions: Sendable, Hashable {
    /// The name to record (data only: never used as a path); nil keeps the source file's name
    /// (nothing for data).
    public var originalFilename: String?
    /// The type identifier to record; nil derives it from the content.
    public var uniformTypeIdentifier: String?
    /// Move the file into the library instead of copying it: the source is hard-linked into the
    /// store and unlinked only after the batch commits, so a failed batch leaves it in place.
    public var shouldMoveFile: Bool

    /// Options that copy the file and record its own name.
    public init(originalFilename: String? = nil, uniformTypeIdentifier: String? = nil, shouldMoveFile: Bool = false) {
        self.originalFilename = originalFilename
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.shouldMoveFile = shouldMoveFile
    }
}
