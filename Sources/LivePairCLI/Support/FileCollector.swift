import Foundation

/// Expands the paths given on the command line into a sorted list of regular files: directories
/// are walked recursively (hidden files and folders skipped, symbolic links to folders not followed).
public enum FileCollector {
    /// The result: the files found, and the given paths that do not exist.
    public struct Collection: Sendable, Equatable {
        /// Regular files, sorted by path, without duplicates.
        public var files: [String]
        /// Paths that could not be found.
        public var missing: [String]
    }

    /// Collects the files under `paths`.
    public static func collect(_ paths: [String]) -> Collection {
        var files: Set<String> = []
        var missing: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                missing.append(path)
                continue
            }
            guard isDirectory.boolValue else {
                files.insert(path)
                continue
            }
            // A directory named on the command line is walked even when it is a symbolic link; paths
            // keep the root as the user wrote it, so output matches the command line.
            let prefix = path.hasSuffix("/") ? path : path + "/"
            files.formUnion(DirectoryWalker.regularFiles(under: path, prefix: prefix))
        }
        return Collection(files: files.sorted(), missing: missing)
    }
}
