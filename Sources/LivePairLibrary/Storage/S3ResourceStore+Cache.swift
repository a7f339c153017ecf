#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats
import LivePairS3

extension S3ResourceStore {
    /// A local copy of the object of `digest` in the cache directory, fetched when missing: written
    /// to a temporary file, checked against the digest, then renamed into place (so a cached copy
    /// is always whole and right). Throws `notFound` when the object does not exist. The copy is
    /// marked as used now, and kept at least `CacheFolderBound.grace` seconds; a fetch that takes
    /// the cache past `cacheLimit` removes the least recently used copies (`cacheBound`).
    public func localPath(for digest: ContentDigest) throws(ResourceStoreError) -> String {
        let path = cachePath(for: digest)
        if let info = POSIXFile.status(path), POSIXFile.isRegular(info) {
            cacheBound.noteUse(path)
            return path
        }
        let temporary = "\(path).\(getpid())-\(UInt64.random(in: 0...UInt64.max)).tmp"
        guard let descriptor = try POSIXFile.createExclusive(temporary, mode: 0o444) else {
            throw .io(path: temporary, reason: "a temporary file of that name exists")
        }
        let size: UInt64
        do throws(ResourceStoreError) {
            defer { close(descriptor) }
            do throws(S3Error) {
                _ = try client.get(bucket: bucket, key: key(for: digest), into: descriptor)
            } catch {
                throw Self.storeError(error, digest: digest)
            }
            let reader = try POSIXFile.openForReading(temporary)
            defer { close(reader) }
            let fetched = try DirectoryStore.hash(reader, path: temporary, copyingTo: nil, temporary: temporary)
            guard fetched.digest == digest else {
                throw .io(path: temporary, reason: "the object \(key(for: digest)) does not have the digest it is named by")
            }
            size = fetched.size
        } catch {
            FileSystemPath.unlink(temporary)
            throw error
        }
        guard FileSystemPath.rename(temporary, path) == 0 else {
            let failure = POSIXFile.failure(path)
            FileSystemPath.unlink(temporary)
            throw failure
        }
        cacheBound.noteAddition(size)
        return path
    }

    /// The cached copy of `digest` when this node has fetched one (no request is sent), marked as
    /// used now.
    public func localPathIfPresent(for digest: ContentDigest) -> String? {
        let path = cachePath(for: digest)
        guard let info = POSIXFile.status(path), POSIXFile.isRegular(info) else { return nil }
        cacheBound.noteUse(path)
        return path
    }

    /// Where a library opened by location caches fetched copies when not told: `LIVEPAIR_S3_CACHE`,
    /// else `$XDG_CACHE_HOME/livepair-s3`, else `$HOME/.cache/livepair-s3`, else
    /// `/tmp/livepair-s3-cache-UID`. Copies are named by their digest and checked against it when
    /// fetched, so libraries and buckets may share one cache.
    public static func defaultCacheDirectory() -> String {
        func variable(_ name: String) -> String? {
            guard let value = getenv(name) else { return nil }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
        if let cache = variable("LIVEPAIR_S3_CACHE") { return cache }
        if let cache = variable("XDG_CACHE_HOME") { return cache + "/livepair-s3" }
        if let home = variable("HOME") { return home + "/.cache/livepair-s3" }
        return "/tmp/livepair-s3-cache-\(getuid())"
    }

    /// Where the cached copy of `digest` is (or would be) kept.
    func cachePath(for digest: ContentDigest) -> String { "\(cacheDirectory)/\(digest.hex)" }

    /// Whether `name` is a cached copy's name: 64 lowercase hexadecimal digits (a digest).
    static func isCopyName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
