import Foundation
import LivePairLibrary

/// Where made derivatives (stills, placeholders, motion movies) are kept so the next request is a
/// file read. Keys name the content (the resources' digests, the kind and the size), so an entry
/// never goes stale. The embedded library keeps them in a directory beside its store; nodes that
/// share a directory store share one directory in it, so a derivative one node made is a file
/// read on every other.
public protocol DerivativeCache: Sendable {
    /// The local file holding `key`, when it is cached (may wait for a remote store).
    func file(for key: String) -> String?
    /// The local file holding `key` when it is there without waiting for anything remote (what
    /// the daemon's own threads ask).
    func fileWithoutWaiting(for key: String) -> String?
    /// A fresh temporary path, on the cache's file system, to make `key` into.
    func temporaryPath(for key: String) -> String
    /// Moves the made file at `temporaryPath` into the cache under `key` (atomically: a reader
    /// sees the whole file or none) and returns the cached file's path.
    func insert(_ temporaryPath: String, for key: String) throws(HTTPError) -> String
}

extension DerivativeCache {
    /// A cache with nothing remote: the same as `file(for:)`.
    public func fileWithoutWaiting(for key: String) -> String? { file(for: key) }
}

/// Derivatives as files in one directory (`<library>/derivatives` for `livepair serve --library`),
/// optionally kept under a byte limit, least recently used first (`bound`): derivatives can
/// always be made again.
public struct DirectoryDerivativeCache: DerivativeCache {
    /// The directory.
    public let directory: String
    /// Where derivatives are made before they are renamed in (on the same file system), each
    /// process in a locked folder of its own (`SpoolDirectory`).
    public let temporaryDirectory: String
    /// The bound on the directory's derivatives (nil: unbounded, for a cache that bounds itself).
    public let bound: CacheFolderBound?

    /// A cache in `directory`, making files in `temporaryDirectory` (default `directory/.tmp`);
    /// both created when needed, temporary files of dead processes removed. With `limit`, the
    /// derivatives past `limit` bytes are removed least recently used first (`CacheFolderBound`).
    public init(directory: String, temporaryDirectory: String? = nil, limit: UInt64? = nil) throws(HTTPError) {
        self.directory = directory
        self.temporaryDirectory = temporaryDirectory ?? directory + "/.tmp"
        // Derivative files are named by their key; the folder's own entries start with a dot.
        bound = limit.map { CacheFolderBound(directory: directory, limit: $0, isCopy: { !$0.hasPrefix(".") }) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: self.temporaryDirectory, withIntermediateDirectories: true)
        } catch {
            throw .internal("cannot create the derivative cache \(directory)", cause: error)
        }
        SpoolDirectory.removeFilesOfDeadProcesses(in: self.temporaryDirectory)
    }

    /// The cached file for `key`, when there.
    public func file(for key: String) -> String? {
        let path = directory + "/" + key
        guard access(path, R_OK) == 0 else { return nil }
        bound?.noteUse(path)
        return path
    }

    /// A temporary path in this process's locked folder, so a restart can remove what a crash left.
    public func temporaryPath(for key: String) -> String {
        SpoolDirectory.uniquePath(in: temporaryDirectory, suffix: key)
    }

    /// Renames the made file into place (and counts it against the bound).
    public func insert(_ temporaryPath: String, for key: String) throws(HTTPError) -> String {
        let path = directory + "/" + key
        var status = stat()
        let size = stat(temporaryPath, &status) == 0 ? UInt64(status.st_size) : 0
        guard rename(temporaryPath, path) == 0 else {
            unlink(temporaryPath)
            throw .internal("cannot store a derivative")
        }
        bound?.noteAddition(size)
        return path
    }
}
