/// A resource held by the store: its digest (its name) and its size in bytes.
public struct StoredResource: Sendable, Hashable {
    /// The SHA-256 of the bytes.
    public let digest: ContentDigest
    /// The size in bytes.
    public let size: UInt64

    /// Memberwise initializer.
    public init(digest: ContentDigest, size: UInt64) {
        self.digest = digest
        self.size = size
    }
}
