import Foundation
import LivePairLibrary
import LivePairS3

/// Derivatives kept in the S3 bucket of a multi-node service's store (objects
/// `<prefix>.derivatives/<key>`), so a derivative one node made is reused by every node; each node
/// keeps the ones it used in a local directory, so its next request is a file read. Those local
/// copies can be fetched again, so they are bounded like the store's cache of fetched resources
/// (`localBound`: the store's cache limit, least recently used first).
public struct ObjectStoreDerivativeCache: DerivativeCache {
    /// The S3 client.
    public let client: S3Client
    /// The bucket.
    public let bucket: String
    /// The key prefix of the derivative objects.
    public let keyPrefix: String
    /// This node's copies.
    public let local: DirectoryDerivativeCache
    /// The bound on this node's copies (the store's `cacheLimit`, for this folder alone).
    public let localBound: CacheFolderBound

    /// A cache beside `store` (in its bucket, next to its prefix), with local copies in `localDirectory`.
    public init(beside store: S3ResourceStore, localDirectory: String) throws(HTTPError) {
        client = store.client
        bucket = store.bucket
        let trimmed = store.prefix.hasSuffix("/") ? String(store.prefix.dropLast()) : store.prefix
        keyPrefix = trimmed + ".derivatives/"
        local = try DirectoryDerivativeCache(directory: localDirectory)
        // Derivative files are named by their key; the folder's own entries start with a dot.
        localBound = CacheFolderBound(directory: localDirectory, limit: store.cacheLimit, isCopy: { !$0.hasPrefix(".") })
    }

    /// The local copy, fetched from the bucket first when another node made it.
    public func file(for key: String) -> String? {
        if let path = local.file(for: key) {
            localBound.noteUse(path)
            return path
        }
        let temporary = local.temporaryPath(for: key)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        let fetched: UInt64?
        do throws(S3Error) {
            fetched = try client.get(bucket: bucket, key: keyPrefix + key, into: descriptor)
        } catch {
            fetched = nil  // not made yet (or the bucket is unreachable: made again)
        }
        close(descriptor)
        guard let size = fetched else {
            unlink(temporary)
            return nil
        }
        return try? keepLocally(temporary, for: key, size: size)
    }

    /// Only the local copy: the daemon's threads never wait for the bucket.
    public func fileWithoutWaiting(for key: String) -> String? {
        guard let path = local.file(for: key) else { return nil }
        localBound.noteUse(path)
        return path
    }

    public func temporaryPath(for key: String) -> String { local.temporaryPath(for: key) }

    /// Uploads the made file (once: another node's identical upload wins), then keeps it locally.
    public func insert(_ temporaryPath: String, for key: String) throws(HTTPError) -> String {
        let descriptor = open(temporaryPath, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            unlink(temporaryPath)
            throw .internal("cannot read a made derivative")
        }
        defer { close(descriptor) }
        do throws(S3Error) {
            try client.put(
                bucket: bucket, key: keyPrefix + key,
                body: .file(descriptor: descriptor, offset: 0, length: UInt64(status.st_size)), writeOnce: true)
        } catch where error.kind == .preconditionFailed {
            // Another node stored it first: the same content, since the key names it.
        } catch {
            unlink(temporaryPath)
            throw .internal("cannot store a derivative in the object store", cause: error)
        }
        return try keepLocally(temporaryPath, for: key, size: UInt64(status.st_size))
    }

    /// Moves the file of `size` bytes into the local folder and counts it against the bound.
    private func keepLocally(_ temporaryPath: String, for key: String, size: UInt64) throws(HTTPError) -> String {
        let path = try local.insert(temporaryPath, for: key)
        localBound.noteAddition(size)
        return path
    }
}
