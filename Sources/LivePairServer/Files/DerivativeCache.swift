import Foundation

/// Where made derivatives (stills, placeholders, motion movies) are kept so the next request is a
/// file read. Keys name the content (the resources' digests, the kind and the size), so an entry
/// never goes stale. The embedded library keeps them in a directory beside its store; a
/// multi-node service would keep them in its object store (not written yet).
public protocol DerivativeCache: Sendable {
    /// The local file holding `key`, when it is cached.
    func file(for key: String) -> String?
    /// A fresh temporary path, on the cache's file system, to make `key` into.
    func temporaryPath(for key: String) -> String
    /// Moves the made file at `temporaryPath` into the cache under `key` (atomically: a reader
    /// sees the whole file or none) and returns the cached file's path.
    func insert(_ temporaryPath: String, for key: String) throws(HTTPError) -> String
}

/// Derivatives as files in one directory (`<library>/derivatives` for `livepair serve --library`).
public struct DirectoryDerivativeCache: DerivativeCache {
    /// The directory.
    public let directory: String

    /// A cache in `directory` (created when needed; temporary files of dead processes removed).
    public init(directory: String) throws(HTTPError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(atPath: directory + "/.tmp", withIntermediateDirectories: true)
        } catch {
            throw .internal("cannot create the derivative cache \(directory)")
        }
        SpoolDirectory.removeFilesOfDeadProcesses(in: directory + "/.tmp")
    }

    /// The cached file for `key`, when there.
    public func file(for key: String) -> String? {
        let path = directory + "/" + key
        return access(path, R_OK) == 0 ? path : nil
    }

    /// A temporary path named after this process, so a restart can remove what a crash left.
    public func temporaryPath(for key: String) -> String {
        SpoolDirectory.uniquePath(in: directory + "/.tmp", suffix: key)
    }

    /// Renames the made file into place.
    public func insert(_ temporaryPath: String, for key: String) throws(HTTPError) -> String {
        let path = directory + "/" + key
        guard rename(temporaryPath, path) == 0 else {
            unlink(temporaryPath)
            throw .internal("cannot store a derivative")
        }
        return path
    }
}
