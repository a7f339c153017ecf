import LivePairFormats

/// Where a library keeps the bytes of its resources: content-addressed (each resource once, named
/// by the SHA-256 of its bytes), written once, read in ranges. Two implementations:
/// `DirectoryStore` (files in a local directory, the embedded default) and `S3ResourceStore`
/// (objects in an S3-compatible bucket, shared by several nodes).
///
/// The store knows nothing about assets: the catalog decides which digests are in use, and
/// resources are removed only after the rows that use them are gone.
public protocol ResourceStore: Sendable {
    /// Copies the file at `path` into the store and returns its digest and size. Identical content
    /// is stored once. Durable before it returns unless `durability` is `.deferred` (then
    /// `flush(_:)` makes it durable).
    func store(fileAt path: String, durability: StoreDurability) throws(ResourceStoreError) -> StoredResource

    /// Stores `data` and returns its digest and size, durably. Identical content is stored once.
    func store(data: [UInt8]) throws(ResourceStoreError) -> StoredResource

    /// Stores the file at `path` for a move (the caller removes `path` once its catalog change has
    /// committed): a hard link where the store can make one, else a copy.
    func link(fileAt path: String, durability: StoreDurability) throws(ResourceStoreError) -> StoredResource

    /// `link(fileAt:durability:)` for a file whose digest and size the caller computed while
    /// writing it (an upload hashed as it was spooled), so its bytes are not read again to hash
    /// them. The caller vouches for `knownContent`: only for a file it wrote itself, that nothing
    /// writes any more (a directory store checks the size; an S3 store sends the digest, which
    /// the server checks against the bytes).
    func link(fileAt path: String, knownContent: StoredResource, durability: StoreDurability) throws(ResourceStoreError)
        -> StoredResource

    /// Makes the resources of `digests`, stored with `.deferred` durability, durable. Throws
    /// `notFound` for a digest that is not stored.
    func flush(_ digests: [ContentDigest]) throws(ResourceStoreError)

    /// True when a resource with `digest` is stored (false too when the store cannot be asked).
    func contains(_ digest: ContentDigest) -> Bool

    /// Removes the resource with `digest`, durably unless `durability` is `.deferred` (then
    /// `flushRemovals(_:)` makes a group of removals durable). Throws `notFound` when it is not stored.
    func remove(_ digest: ContentDigest, durability: StoreDurability) throws(ResourceStoreError)

    /// Makes removals done with `.deferred` durability durable.
    func flushRemovals(_ digests: [ContentDigest]) throws(ResourceStoreError)

    /// Every digest stored, in no particular order.
    func allDigests() throws(ResourceStoreError) -> [ContentDigest]

    /// Random access to the bytes of the resource with `digest` (parsers read only the ranges they
    /// need). Throws `notFound` when it is not stored.
    func byteSource(for digest: ContentDigest) throws(ResourceStoreError) -> any ByteSource

    /// Random access to the bytes of `resource`, whose size the caller knows (a catalog row's):
    /// as `byteSource(for:)`, without asking the store for the size first.
    func byteSource(for resource: StoredResource) throws(ResourceStoreError) -> any ByteSource

    /// A local file holding the bytes of `digest`, for readers that need a file (decoders): the
    /// stored file itself, or a copy fetched into a local cache. Read only: never modify it.
    func localPath(for digest: ContentDigest) throws(ResourceStoreError) -> String

    /// A local file holding the bytes of `digest` when one is at hand without a transfer (the
    /// stored file itself, or a copy cached earlier), else nil. Read only: never modify it.
    func localPathIfPresent(for digest: ContentDigest) -> String?

    /// How many seconds ago the resource with `digest` was written (nil when it is not stored): a
    /// resource nothing references is removed only once older than a grace period, since another
    /// writer may be about to commit a batch that uses it.
    func secondsSinceWritten(_ digest: ContentDigest) -> Double?

    /// The identity of the library the store belongs to (its marker, written by `claim`), or nil
    /// when the store carries no marker. Throws when the marker cannot be read.
    func libraryIdentity() throws(ResourceStoreError) -> String?

    /// Marks the store as `identity`'s, durably and write-once, unless it is marked already;
    /// returns the identity the store carries afterwards (the existing one when it had a marker).
    /// Safe when several processes or nodes claim at once: exactly one marker is written, complete.
    @discardableResult
    func claim(libraryIdentity identity: String) throws(ResourceStoreError) -> String
}

extension ResourceStore {
    /// Copies the file at `path` into the store, durably before it returns.
    public func store(fileAt path: String) throws(ResourceStoreError) -> StoredResource {
        try store(fileAt: path, durability: .immediate)
    }

    /// Stores the file at `path` for a move, durably before it returns.
    public func link(fileAt path: String) throws(ResourceStoreError) -> StoredResource {
        try link(fileAt: path, durability: .immediate)
    }

    /// A store that learns nothing from the size asks for it as `byteSource(for:)` does.
    public func byteSource(for resource: StoredResource) throws(ResourceStoreError) -> any ByteSource {
        try byteSource(for: resource.digest)
    }

    /// A store that cannot use a known digest hashes the file again.
    public func link(fileAt path: String, knownContent: StoredResource, durability: StoreDurability) throws(ResourceStoreError)
        -> StoredResource
    {
        try link(fileAt: path, durability: durability)
    }
}
