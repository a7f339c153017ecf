#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats
import LivePairS3
import Synchronization

/// A resource store in an S3-compatible bucket, shared by every node of a deployment: each
/// resource is the object `<prefix><ab>/<abcdef…>` named by the SHA-256 of its bytes.
///
/// - **Written once.** A new object is PUT with `If-None-Match: *` and its SHA-256 (the server
///   checks the bytes against it), so two nodes storing the same content at once cannot clobber
///   each other and a cut upload never becomes an object. A PUT is durable when it returns: there
///   is nothing to flush.
/// - **Kept alive while in use.** Storing content that is already there rewrites the same bytes
///   (no precondition), which renews the object's LastModified: the garbage collection removes only
///   unreferenced objects older than a grace period (by LastModified) and re-checks the catalog
///   under its write lock, so an object another node has just stored, or found already stored,
///   and is about to commit is never removed.
/// - **Read in ranges.** `byteSource(for:)` reads with ranged GETs, so parsers and resource
///   streams fetch only what they read; `localPath(for:)` fetches a whole object into a local cache
///   (verified by digest) for the decoders that need a file. Creating an asset identifies its
///   files from the uploads still on the node's disk, or in ranges: it never fetches a whole object.
public final class S3ResourceStore: ResourceStore {
    /// The client talking to the server.
    public let client: S3Client
    /// The bucket holding the objects.
    public let bucket: String
    /// The key prefix of every object (empty, or ending with `/`).
    public let prefix: String
    /// Where `localPath(for:)` keeps fetched copies.
    public let cacheDirectory: String
    /// The bound on the fetched copies in `cacheDirectory` (its `limit`: `cacheLimit`).
    public let cacheBound: CacheFolderBound
    /// The bytes of fetched copies above which the least recently used are removed.
    public var cacheLimit: UInt64 { cacheBound.limit }
    /// Digests this store PUT with `.deferred` durability and no `flush` has named since: the PUT
    /// answered 200, so the flush need not ask again. Bounded: emptied when it grows past
    /// `unflushedLimit` (the flush then asks for those).
    private let unflushed = Mutex<Set<ContentDigest>>([])
    private static let unflushedLimit = 4_096

    /// A store in `bucket` under `prefix`, caching fetched copies in `cacheDirectory` (created with its
    /// parents when needed) up to about `cacheLimit` bytes (default: `LIVEPAIR_S3_CACHE_MAX`, else
    /// 4 GiB; see `CacheFolderBound`). The bucket must exist: a missing one fails the first
    /// request with `noSuchBucket`.
    public init(
        client: S3Client, bucket: String, prefix: String, cacheDirectory: String,
        cacheLimit: UInt64 = CacheFolderBound.limitFromEnvironment()
    ) throws(ResourceStoreError) {
        self.client = client
        self.bucket = bucket
        self.prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.cacheDirectory = cacheDirectory
        cacheBound = CacheFolderBound(
            directory: cacheDirectory, limit: cacheLimit, isCopy: Self.isCopyName,
            isTemporary: { $0.hasSuffix(".tmp") && Self.isCopyName(String($0.prefix(64))) })
        let created = FileSystemPath.createDirectories(cacheDirectory)
        guard created == 0 else { throw POSIXFile.failure(cacheDirectory, created) }
    }

    /// The object key of `digest`.
    public func key(for digest: ContentDigest) -> String { "\(prefix)\(digest.hex.prefix(2))/\(digest.hex)" }

    public func store(fileAt path: String, durability: StoreDurability = .immediate) throws(ResourceStoreError) -> StoredResource {
        let descriptor = try POSIXFile.openForReading(path)
        defer { close(descriptor) }
        guard let info = POSIXFile.status(descriptor), POSIXFile.isRegular(info) else {
            throw .io(path: path, reason: "not a regular file")
        }
        let resource = try DirectoryStore.hash(descriptor, path: path, copyingTo: nil, temporary: path)
        guard resource.size == UInt64(info.st_size) else { throw .sourceChanged(path: path) }
        try upload(resource, body: .file(descriptor: descriptor, offset: 0, length: resource.size), source: path)
        if durability == .deferred { noteUnflushed(resource.digest) }
        return resource
    }

    public func store(data: [UInt8]) throws(ResourceStoreError) -> StoredResource {
        let resource = StoredResource(digest: ContentDigest.of(data), size: UInt64(data.count))
        try upload(resource, body: .bytes(data), source: nil)
        return resource
    }

    /// Uploads the file like `store(fileAt:)`: an object store cannot take a hard link. The caller
    /// removes `path` after its commit, as with a directory store.
    public func link(fileAt path: String, durability: StoreDurability = .immediate) throws(ResourceStoreError) -> StoredResource {
        try store(fileAt: path, durability: durability)
    }

    /// Uploads the file without reading it to hash it first: `knownContent`'s digest is sent as
    /// the payload's SHA-256, which the server checks against the bytes it receives.
    public func link(fileAt path: String, knownContent: StoredResource, durability: StoreDurability) throws(ResourceStoreError)
        -> StoredResource
    {
        let descriptor = try POSIXFile.openForReading(path)
        defer { close(descriptor) }
        guard let info = POSIXFile.status(descriptor), POSIXFile.isRegular(info), UInt64(info.st_size) == knownContent.size else {
            throw .sourceChanged(path: path)
        }
        try upload(knownContent, body: .file(descriptor: descriptor, offset: 0, length: knownContent.size), source: path)
        if durability == .deferred { noteUnflushed(knownContent.digest) }
        return knownContent
    }

    /// Checks that every object is there (a PUT is durable when it returns): a HEAD for each,
    /// except those this store has just PUT with `.deferred` durability (their PUT answered 200).
    /// Another node may still remove an object between a flush and a commit: callers that name
    /// it in a catalog row check it again under the catalog's write lock, as with any store.
    public func flush(_ digests: [ContentDigest]) throws(ResourceStoreError) {
        let unique = Set(digests)
        let confirmed = unflushed.withLock { set in unique.filter { set.remove($0) != nil } }
        for digest in unique.subtracting(confirmed).sorted(by: { $0.hex < $1.hex }) where !contains(digest) {
            throw .notFound(digest)
        }
    }

    private func noteUnflushed(_ digest: ContentDigest) {
        unflushed.withLock { set in
            if set.count >= Self.unflushedLimit { set.removeAll() }
            set.insert(digest)
        }
    }

    public func contains(_ digest: ContentDigest) -> Bool {
        (try? client.head(bucket: bucket, key: key(for: digest))) != nil
    }

    /// Deletes the object (a DELETE is durable when it returns, whatever `durability` says).
    public func remove(_ digest: ContentDigest, durability: StoreDurability = .immediate) throws(ResourceStoreError) {
        do throws(S3Error) {
            _ = try client.head(bucket: bucket, key: key(for: digest))
            try client.delete(bucket: bucket, key: key(for: digest))
        } catch {
            throw Self.storeError(error, digest: digest)
        }
        unflushed.withLock { _ = $0.remove(digest) }
        FileSystemPath.unlink(cachePath(for: digest))
    }

    /// Nothing to do: each DELETE was durable when it returned.
    public func flushRemovals(_ digests: [ContentDigest]) throws(ResourceStoreError) {}

    public func allDigests() throws(ResourceStoreError) -> [ContentDigest] { try digests(under: prefix) }

    /// The digests of one shard (`<prefix><ab>/`, `ab` chosen at random among the 256): an open
    /// costs one listing of about 1/256 of the objects, however many the bucket holds, and over
    /// opens every shard is looked at. The whole prefix is swept by
    /// `PhotoLibrary.removeUnreferencedResources(olderThan:)`.
    public func digestsToSweepOnOpen() throws(ResourceStoreError) -> [ContentDigest] {
        try digests(inShard: UInt8.random(in: 0...UInt8.max))
    }

    /// The digests whose keys are under `<prefix><shard in two hex digits>/`.
    func digests(inShard shard: UInt8) throws(ResourceStoreError) -> [ContentDigest] {
        let hex = String(shard, radix: 16)
        return try digests(under: prefix + (hex.count == 1 ? "0" + hex : hex) + "/")
    }

    /// The digests of the resource objects whose keys start with `keyPrefix` (other objects,
    /// such as the identity marker, are not resources and are left out).
    private func digests(under keyPrefix: String) throws(ResourceStoreError) -> [ContentDigest] {
        let objects: [S3ObjectSummary]
        do throws(S3Error) {
            objects = try client.list(bucket: bucket, prefix: keyPrefix)
        } catch {
            throw .objectStore(error)
        }
        return objects.compactMap { object in
            let name = object.key.dropFirst(prefix.count)
            guard name.utf8.count == 67, let digest = ContentDigest(hex: String(name.suffix(64))),
                key(for: digest) == object.key
            else { return nil }
            return digest
        }
    }

    public func byteSource(for digest: ContentDigest) throws(ResourceStoreError) -> any ByteSource {
        let info: S3ObjectInfo
        do throws(S3Error) {
            info = try client.head(bucket: bucket, key: key(for: digest))
        } catch {
            throw Self.storeError(error, digest: digest)
        }
        return S3ObjectByteSource(client: client, bucket: bucket, key: key(for: digest), size: info.size)
    }

    /// Ranged reads of the object without a HEAD first: the size is the caller's. A missing object
    /// fails the first read.
    public func byteSource(for resource: StoredResource) throws(ResourceStoreError) -> any ByteSource {
        S3ObjectByteSource(client: client, bucket: bucket, key: key(for: resource.digest), size: resource.size)
    }

    public func secondsSinceWritten(_ digest: ContentDigest) -> Double? {
        guard let info = try? client.head(bucket: bucket, key: key(for: digest)), let written = info.lastModified else {
            return nil
        }
        return Double(Int64(time(nil)) - written)
    }

    // MARK: - Uploading

    /// PUTs a new object write-once; when it exists already (412), rewrites the same bytes so its
    /// LastModified says it is in use again (see the type's notes on garbage collection).
    private func upload(_ resource: StoredResource, body: S3Body, source: String?) throws(ResourceStoreError) {
        let digestBytes = Self.bytes(of: resource.digest)
        let key = key(for: resource.digest)
        do throws(S3Error) {
            do throws(S3Error) {
                try client.put(bucket: bucket, key: key, body: body, writeOnce: true, contentSHA256: digestBytes)
            } catch where error.kind == .preconditionFailed {
                try client.put(bucket: bucket, key: key, body: body, writeOnce: false, contentSHA256: digestBytes)
            }
        } catch {
            if error.kind == .checksumMismatch, let source { throw .sourceChanged(path: source) }
            throw .objectStore(error)
        }
    }

    /// The 32 bytes of a digest.
    static func bytes(of digest: ContentDigest) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var hex = digest.hex.utf8.makeIterator()
        while let high = hex.next(), let low = hex.next() {
            bytes.append(nibble(high) << 4 | nibble(low))
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8 { character <= 0x39 ? character - 0x30 : character - 0x61 + 10 }

    /// `notFound` for a missing object, the S3 error otherwise.
    static func storeError(_ error: S3Error, digest: ContentDigest) -> ResourceStoreError {
        error.kind == .noSuchKey ? .notFound(digest) : .objectStore(error)
    }
}
