#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats

/// Expands the paths given on the command line into a sorted list of regular files.
///
/// Directories are walked recursively, their entries read as bytes (names that are not valid
/// UTF-8 are kept, see `FileSystemPath`); hidden files and folders (a name starting with `.`) are
/// skipped. Symbolic links are followed, to files and to folders; a folder is walked once however
/// many ways lead to it (by device and inode), so a link loop ends. A file reached twice (two
/// spellings, a link and its target) is listed once, under the first of its paths in sorted order.
/// A FIFO, socket or device is never opened: it is reported as a problem, like a missing path.
public enum FileCollector {
    /// The result: the files found, and the paths that could not be used.
    public struct Collection: Sendable, Equatable {
        /// Regular files, sorted by path, each file once.
        public var files: [String]
        /// Paths that could not be used, in the order met, each once, with the reason.
        public var problems: [Problem]

        /// The paths that do not exist (a subset of `problems`).
        public var missing: [String] { problems.filter { $0.reason == Problem.noSuchFile }.map(\.path) }
    }

    /// A path that could not be used.
    public struct Problem: Sendable, Equatable {
        /// The reason for a path that does not exist (or a link whose target does not).
        public static let noSuchFile = "no such file or directory"
        /// The path as given or found.
        public var path: String
        /// Why, in lower case: "no such file or directory", "not a regular file (a FIFO)".
        public var reason: String
    }

    /// A file's identity on its file system.
    private struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The state of one collection.
    private struct Walk {
        var files: [FileID: String] = [:]
        var problems: [Problem] = []
        var walkedFolders: Set<FileID> = []

        mutating func add(_ path: String) {
            guard let info = FileSystemPath.status(path) else {
                let code = errno
                let reason = code == ENOENT ? Problem.noSuchFile : FileSystemPath.errorText(code)
                problems.append(Problem(path: path, reason: reason))
                return
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                walk(path, info)
            } else if let kind = FileSystemPath.nonRegularKind(info.st_mode) {
                problems.append(Problem(path: path, reason: "not a regular file (\(kind))"))
            } else {
                let id = FileID(info)
                if let known = files[id], known < path { return }
                files[id] = path
            }
        }

        mutating func walk(_ folder: String, _ info: stat) {
            guard walkedFolders.insert(FileID(info)).inserted else { return }
            guard let names = FileSystemPath.names(in: folder) else {
                problems.append(Problem(path: folder, reason: FileSystemPath.errorText(errno)))
                return
            }
            // Keep the path as the user wrote its root, so output matches the command line.
            let prefix = folder.hasSuffix("/") ? folder : folder + "/"
            for name in names.sorted() where !name.hasPrefix(".") {
                add(prefix + name)
            }
        }
    }

    /// Collects the files under `paths`.
    public static func collect(_ paths: [String]) -> Collection {
        var walk = Walk()
        for path in paths { walk.add(path) }
        var seen: Set<String> = []
        let problems = walk.problems.filter { seen.insert($0.path).inserted }
        return Collection(files: walk.files.values.sorted(), problems: problems)
    }
}
