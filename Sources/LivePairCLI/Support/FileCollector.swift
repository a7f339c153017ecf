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
/// many ways lead to it (by device and inode), so a link loop ends. Every path found or named is
/// listed (a path named twice once); paths that lead to one file (hard links, a symbolic link and
/// its target, two spellings) are listed each, and `links` says which file each further path repeats,
/// so that the file is read once. A FIFO, socket or device is never opened: it is reported as a
/// problem, like a missing path.
public enum FileCollector {
    /// The result: the files found, and the paths that could not be used.
    public struct Collection: Sendable, Equatable {
        /// Regular files, sorted by path, each path once (paths to one file each).
        public var files: [String]
        /// Each path of `files` that leads to the same file (device and inode) as an earlier path of
        /// `files`, mapped to the first path of that file: read that one, report both.
        public var links: [String: String]
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

    /// The state of one collection.
    ///
    /// System calls: one `stat` per path given and per symbolic link (or entry of a file system
    /// that does not report types); one `open` + `fstat` per folder; nothing per regular file or
    /// folder met in a folder, whose type and inode come from `readdir`. A regular file's identity
    /// is then its folder's device and its `d_ino` (the `st_ino` a `stat` would give); the
    /// reader's own `fstat` gives the identity reports carry (`ResourceIdentity.fileID`).
    private struct Walk {
        var files: [String: FileID] = [:]
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
                // A folder already walked is not opened again (a link loop ends here).
                guard !walkedFolders.contains(Self.id(info)) else { return }
                walk(path)
            } else if let kind = FileSystemPath.nonRegularKind(info.st_mode) {
                problems.append(Problem(path: path, reason: "not a regular file (\(kind))"))
            } else {
                addFile(path, id: Self.id(info))
            }
        }

        mutating func addFile(_ path: String, id: FileID) {
            files[path] = id
        }

        mutating func walk(_ folder: String) {
            guard let listing = FileSystemPath.listing(of: folder) else {
                problems.append(Problem(path: folder, reason: FileSystemPath.errorText(errno)))
                return
            }
            guard walkedFolders.insert(Self.id(listing.status)).inserted else { return }
            let device = UInt64(listing.status.st_dev)
            // Keep the path as the user wrote its root, so output matches the command line.
            let prefix = folder.hasSuffix("/") ? folder : folder + "/"
            for entry in listing.entries.sorted(by: { $0.name < $1.name }) where !entry.name.hasPrefix(".") {
                let path = prefix + entry.name
                switch entry.kind {
                case .regular: addFile(path, id: FileID(device: device, inode: entry.inode))
                case .directory: walk(path)
                case let .special(mode):
                    let kind = FileSystemPath.nonRegularKind(mode) ?? "not a file"
                    problems.append(Problem(path: path, reason: "not a regular file (\(kind))"))
                case .symbolicLink, .unknown: add(path)
                }
            }
        }

        static func id(_ info: stat) -> FileID {
            FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }

    /// Collects the files under `paths`.
    public static func collect(_ paths: [String]) -> Collection {
        var walk = Walk()
        for path in paths { walk.add(path) }
        var seen: Set<String> = []
        let problems = walk.problems.filter { seen.insert($0.path).inserted }
        let files = walk.files.keys.sorted()
        var firstPathOfFile: [FileID: String] = [:]
        var links: [String: String] = [:]
        for path in files {
            guard let id = walk.files[path] else { continue }
            if let first = firstPathOfFile[id] { links[path] = first } else { firstPathOfFile[id] = path }
        }
        return Collection(files: files, links: links, problems: problems)
    }
}
