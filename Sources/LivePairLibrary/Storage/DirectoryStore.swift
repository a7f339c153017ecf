#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats
import LivePairCrypto

/// The library's content-addressed file store: each resource is kept once, under the SHA-256 of
/// its bytes, at `<directory>/ab/cdef…` (the first two hexadecimal digits name a subdirectory).
///
/// Every write goes to a temporary file in `<directory>/.tmp`, is flushed (`fsync`), renamed to its
/// final name and the rename flushed (the subdirectory is `fsync`ed), so a stored resource is
/// complete and durable when `store` returns, and a crash leaves at worst a temporary file that the
/// next `DirectoryStore` on the directory removes (a temporary file is locked with `flock` while it
/// is written, so only files no live writer holds are removed). With `StoreDurability.deferred` the flushes are
/// left to one `flush(_:)` for a whole group of files (the ingestor's group commit): the file is
/// linked into place without replacing an intact one, so a name once flushed never silently
/// points to an unflushed copy. Storing bytes that are already there reuses the file (hashed again
/// first when it dates from before the last restart, since it may be an unflushed file cut short by
/// a power loss). Several threads and processes may store, even the same content, at once.
///
/// The store knows nothing about assets: the catalog decides which digests are in use, and
/// removes files only after the rows that use them are gone.
public final class DirectoryStore: ResourceStore {
    /// The store's root directory.
    public let directory: String
    /// Where files are written before they get their final name.
    let temporaryDirectory: String
    /// Bytes read and written at a time.
    static let chunkSize = 1 << 20

    /// Opens (creating when needed) the store at `directory`, usually `<library>/resources` (its
    /// parent must exist), and, unless `removingAbandonedTemporaryFiles` is false (a read-only
    /// user), removes temporary files that no writer holds any more.
    public init(directory: String, removingAbandonedTemporaryFiles: Bool = true) throws(ResourceStoreError) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        temporaryDirectory = self.directory + "/.tmp"
        try prepareLayout()
        if removingAbandonedTemporaryFiles { removeAbandonedTemporaryFiles() }
    }

    /// Copies the file at `path` into the store, hashing it while it is copied (one read pass), and
    /// returns its digest and size. Identical content is stored once. Durable before it returns
    /// unless `durability` is `.deferred` (then `flush(_:)` makes it durable).
    public func store(fileAt path: String, durability: StoreDurability = .immediate) throws(ResourceStoreError) -> StoredResource {
        let source = try POSIXFile.openForReading(path)
        defer { close(source) }
        guard let info = POSIXFile.status(source), POSIXFile.isRegular(info) else {
            throw .io(path: path, reason: "not a regular file")
        }
        let (temporary, descriptor) = try createTemporaryFile()
        let resource: StoredResource
        do throws(ResourceStoreError) {
            resource = try Self.hash(source, path: path, copyingTo: descriptor, temporary: temporary)
            guard resource.size == UInt64(info.st_size) else { throw ResourceStoreError.sourceChanged(path: path) }
        } catch {
            discard(temporary: temporary, descriptor: descriptor)
            throw error
        }
        return try install(temporary: temporary, descriptor: descriptor, resource: resource, durability: durability)
    }

    /// Stores `data` and returns its digest and size. Identical content is stored once. Durable
    /// before it returns.
    public func store(data: [UInt8]) throws(ResourceStoreError) -> StoredResource {
        let resource = StoredResource(digest: ContentDigest.of(data), size: UInt64(data.count))
        if let reused = try reuseExisting(resource) { return reused }
        let (temporary, descriptor) = try createTemporaryFile()
        let written: Result<Void, ResourceStoreError> = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return .success(()) }
            do throws(ResourceStoreError) {
                try POSIXFile.write(descriptor, base, count: raw.count, path: temporary)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = written {
            discard(temporary: temporary, descriptor: descriptor)
            throw error
        }
        return try install(temporary: temporary, descriptor: descriptor, resource: resource)
    }

    /// Stores the file at `path` for a move: it is hard-linked into the store (copied when the store
    /// is on another file system or links are not allowed), so no bytes are copied. The caller
    /// removes `path` once its catalog change has committed, and never writes to it again (the
    /// store's file is the same inode). Durable before it returns unless `durability` is `.deferred`.
    public func link(fileAt path: String, durability: StoreDurability = .immediate) throws(ResourceStoreError) -> StoredResource {
        try linkFile(path, knownContent: nil, durability: durability)
    }

    /// `link(fileAt:durability:)` without reading the file to hash it: `knownContent` is taken
    /// as its digest once the linked file's size matches (else `sourceChanged`). When a link
    /// cannot be made the file is copied, and hashed as it is copied.
    public func link(fileAt path: String, knownContent: StoredResource, durability: StoreDurability) throws(ResourceStoreError)
        -> StoredResource
    {
        try linkFile(path, knownContent: knownContent, durability: durability)
    }

    private func linkFile(_ path: String, knownContent: StoredResource?, durability: StoreDurability) throws(ResourceStoreError)
        -> StoredResource
    {
        guard let info = POSIXFile.status(path), POSIXFile.isRegular(info) else {
            throw .io(path: path, reason: "not a regular file or missing")
        }
        let temporary = temporaryName()
        let code = POSIXFile.hardLink(path, temporary)
        if code == EXDEV || code == EPERM || code == EMLINK || code == ENOTSUP || code == EACCES {
            return try store(fileAt: path, durability: durability)
        }
        guard code == 0 else { throw POSIXFile.failure(path, code) }
        guard let descriptor = lockLinkedTemporary(temporary) else { return try store(fileAt: path, durability: durability) }
        let resource: StoredResource
        do throws(ResourceStoreError) {
            if let knownContent {
                guard let linked = POSIXFile.status(descriptor), UInt64(linked.st_size) == knownContent.size else {
                    throw ResourceStoreError.sourceChanged(path: path)
                }
                resource = knownContent
            } else {
                resource = try Self.hash(descriptor, path: path, copyingTo: nil, temporary: temporary)
            }
        } catch {
            discard(temporary: temporary, descriptor: descriptor)
            throw error
        }
        return try install(temporary: temporary, descriptor: descriptor, resource: resource, durability: durability)
    }

    /// Where the resource with `digest` is (or would be) kept.
    public func path(for digest: ContentDigest) -> String {
        let hex = digest.hex
        return "\(directory)/\(hex.prefix(2))/\(hex.dropFirst(2))"
    }

    /// True when a resource with `digest` is stored.
    public func contains(_ digest: ContentDigest) -> Bool {
        guard let info = POSIXFile.status(path(for: digest)) else { return false }
        return POSIXFile.isRegular(info)
    }

    /// Removes the resource with `digest`, durably unless `durability` is `.deferred` (then
    /// `flushRemovals(_:)` makes a group of removals durable at once, for example after the
    /// catalog's lock is released). Throws `notFound` when it is not stored.
    public func remove(_ digest: ContentDigest, durability: StoreDurability = .immediate) throws(ResourceStoreError) {
        let path = path(for: digest)
        guard FileSystemPath.unlink(path) == 0 else {
            let code = errno
            if code == ENOENT { throw .notFound(digest) }
            throw POSIXFile.failure(path, code)
        }
        if durability == .immediate { try POSIXFile.syncDirectory(shardDirectory(for: digest)) }
    }

    /// Makes removals done with `.deferred` durability durable: each subdirectory that held one
    /// of `digests` is flushed once. (A removal lost in a power cut only brings back an
    /// unreferenced file, which recovery removes again.)
    public func flushRemovals(_ digests: [ContentDigest]) throws(ResourceStoreError) {
        for shard in Set(digests.map(shardDirectory(for:))).sorted() { try POSIXFile.syncDirectory(shard) }
    }

    /// Every digest stored, in no particular order.
    public func allDigests() throws(ResourceStoreError) -> [ContentDigest] {
        var digests: [ContentDigest] = []
        for shard in try POSIXFile.names(in: directory) where shard.utf8.count == 2 {
            let shardPath = "\(directory)/\(shard)"
            guard let info = POSIXFile.status(shardPath), POSIXFile.isDirectory(info) else { continue }
            for name in try POSIXFile.names(in: shardPath) where name.utf8.count == 62 {
                if let digest = ContentDigest(hex: shard + name), digest.hex == shard + name { digests.append(digest) }
            }
        }
        return digests
    }

    // MARK: - Hashing and installing

    /// Reads `source` front to back in 1 MiB chunks, hashing each chunk and, when `destination` is
    /// given, writing it there: one read pass for both.
    static func hash(
        _ source: Int32, path: String, copyingTo destination: Int32?, temporary: String
    ) throws(ResourceStoreError) -> StoredResource {
        var hasher = SHA256()
        var offset: UInt64 = 0
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let got = try POSIXFile.read(source, into: buffer, count: chunkSize, at: offset, path: path)
            if got == 0 { break }
            hasher.update(UnsafeRawBufferPointer(start: buffer, count: got))
            if let destination { try POSIXFile.write(destination, buffer, count: got, path: temporary) }
            offset += UInt64(got)
        }
        return StoredResource(digest: ContentDigest(bytes: hasher.finalize()), size: offset)
    }

    /// Gives the written temporary file its final name: flushes it and renames it into place, unless
    /// an intact copy is already there. Closes `descriptor` and, on failure, removes `temporary`.
    private func install(
        temporary: String, descriptor: Int32, resource: StoredResource, durability: StoreDurability = .immediate
    ) throws(ResourceStoreError) -> StoredResource {
        if durability == .deferred {
            return try installDeferred(temporary: temporary, descriptor: descriptor, resource: resource)
        }
        do throws(ResourceStoreError) {
            if let reused = try reuseExisting(resource) {
                discard(temporary: temporary, descriptor: descriptor)
                return reused
            }
            _ = fchmod(descriptor, 0o444)
            try POSIXFile.sync(descriptor, path: temporary)
        } catch {
            discard(temporary: temporary, descriptor: descriptor)
            throw error
        }
        let destination = path(for: resource.digest)
        let code: Int32
        do throws(ResourceStoreError) {
            code = try intoShard(of: resource.digest) { FileSystemPath.rename(temporary, destination) == 0 ? 0 : errno }
        } catch {
            discard(temporary: temporary, descriptor: descriptor)
            throw error
        }
        guard code == 0 else {
            let failure = POSIXFile.failure(destination, code)
            discard(temporary: temporary, descriptor: descriptor)
            throw failure
        }
        close(descriptor)  // the lock is released only once the temporary name is gone
        try POSIXFile.syncDirectory(shardDirectory(for: resource.digest))
        return resource
    }

    /// The stored resource when an intact copy (same size) is already stored, made durable in case
    /// another writer has not finished flushing it; nil when it must be written. A file of the
    /// wrong size (damaged) is replaced by the caller's rename.
    private func reuseExisting(_ resource: StoredResource, syncing: Bool = true) throws(ResourceStoreError) -> StoredResource? {
        let destination = path(for: resource.digest)
        guard let info = POSIXFile.status(destination), POSIXFile.isRegular(info),
            UInt64(info.st_size) == resource.size
        else { return nil }
        let descriptor: Int32
        do throws(ResourceStoreError) {
            descriptor = try POSIXFile.openForReading(destination)
        } catch {
            return nil  // removed meanwhile: write it again
        }
        defer { close(descriptor) }
        if POSIXFile.changedBeforeBoot(info) {
            // Possibly renamed in but never flushed before a power loss: trust it only if its bytes still match.
            guard let again = try? Self.hash(descriptor, path: destination, copyingTo: nil, temporary: destination),
                again == resource
            else { return nil }
        }
        guard syncing else { return resource }
        try POSIXFile.sync(descriptor, path: destination)
        try POSIXFile.syncDirectory(shardDirectory(for: resource.digest))
        return resource
    }

    /// `install` for `.deferred`: no flush; the file is hard-linked to its final name, which fails
    /// when a file is there already, so an intact (possibly flushed and committed) file is never
    /// replaced by an unflushed one. Only a damaged file (wrong size or bytes) is renamed over.
    private func installDeferred(
        temporary: String, descriptor: Int32, resource: StoredResource
    ) throws(ResourceStoreError) -> StoredResource {
        // The temporary name goes first, then its lock (see `DirectoryStore+Temporary`).
        defer { discard(temporary: temporary, descriptor: descriptor) }
        if let reused = try reuseExisting(resource, syncing: false) { return reused }
        _ = fchmod(descriptor, 0o444)
        let destination = path(for: resource.digest)
        var code = try intoShard(of: resource.digest) { POSIXFile.hardLink(temporary, destination) }
        if code == EEXIST {
            if let reused = try reuseExisting(resource, syncing: false) { return reused }
            code = FileSystemPath.rename(temporary, destination) == 0 ? 0 : errno
        }
        guard code == 0 else { throw POSIXFile.failure(destination, code) }
        return resource
    }

    // MARK: - Layout

    /// The subdirectory holding `digest`.
    func shardDirectory(for digest: ContentDigest) -> String { "\(directory)/\(digest.hex.prefix(2))" }

    /// Creates the root and the temporary directory once, durably. The 256 subdirectories are made
    /// as content first needs them (`intoShard`): a new store is two directories, not 258 (on an
    /// ext4 without a journal each `mkdir` searches the inode table past the inodes deleted in the
    /// last 30 seconds, which made creating stores the test suite's largest single kernel cost).
    private func prepareLayout() throws(ResourceStoreError) {
        if let info = POSIXFile.status(temporaryDirectory), POSIXFile.isDirectory(info) { return }
        if try POSIXFile.makeDirectory(directory) {
            let parent = directory.lastIndex(of: "/").map { String(directory[..<$0]) } ?? "."
            try POSIXFile.syncDirectory(parent.isEmpty ? "/" : parent)
        }
        try POSIXFile.makeDirectory(temporaryDirectory)
        try POSIXFile.syncDirectory(directory)
    }

    /// Runs `place`, which gives a file its name in `digest`'s subdirectory (a rename or a link)
    /// and returns 0 or the `errno` it failed with. When it fails with `ENOENT` (the subdirectory
    /// was missing when it ran, or the source is), the subdirectory is made (by this writer, or
    /// found made by a concurrent one since) and made durable (the root is `fsync`ed, so a flush
    /// of the subdirectory never names an entry the root has lost), and `place` runs once more.
    /// Returns what `place` returned last.
    ///
    /// `place` runs again even when the subdirectory exists by the time it is looked at: two
    /// writers storing into a new subdirectory at once both fail first, and the one that finds it
    /// made by the other must still place its file (ending with `ENOENT` there was the one failure
    /// of two concurrent imports seen under load). A missing source fails the same way again.
    func intoShard(of digest: ContentDigest, _ place: () -> Int32) throws(ResourceStoreError) -> Int32 {
        let code = place()
        guard code == ENOENT else { return code }
        _ = try POSIXFile.makeDirectory(shardDirectory(for: digest))
        try POSIXFile.syncDirectory(directory)
        return place()
    }
}
