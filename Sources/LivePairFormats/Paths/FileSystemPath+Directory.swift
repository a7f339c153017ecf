#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a directory with what `readdir` already says about each entry (its type and inode),
/// so that a walk needs no `stat` for the regular files and folders it meets.
extension FileSystemPath {
    /// What a directory entry is, from its `d_type`.
    public enum EntryKind: Sendable, Equatable {
        /// A regular file.
        case regular
        /// A directory.
        case directory
        /// A symbolic link (its target is not known without a `stat`).
        case symbolicLink
        /// A FIFO, socket or device, with the file-type bits of its mode (`S_IFIFO`...).
        case special(mode_t)
        /// The file system does not say (`DT_UNKNOWN`): ask `stat`.
        case unknown
    }

    /// One entry of a directory, as `readdir` returns it.
    public struct DirectoryEntry: Sendable {
        /// The name, read as bytes (see `FileSystemPath`).
        public let name: String
        /// What it is.
        public let kind: EntryKind
        /// Its inode number (`d_ino`): for a regular file, the `st_ino` a `stat` would give.
        public let inode: UInt64
    }

    /// A directory's own status (from `fstat` of the open directory) and its entries.
    public struct DirectoryListing: Sendable {
        /// The directory's status: its device and inode identify it.
        public let status: stat
        /// The entries other than `.` and `..`, in the order `readdir` returned them.
        public let entries: [DirectoryEntry]
    }

    /// Opens the directory `path`, takes its status from the open directory and reads its entries
    /// (one `open`, one `fstat`, the `getdents` calls); nil with `errno` set when it cannot be opened.
    public static func listing(of path: String) -> DirectoryListing? {
        guard let directory = withCString(path, { opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var status = stat()
        guard fstat(dirfd(directory), &status) == 0 else { return nil }
        var entries: [DirectoryEntry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                string(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            guard name != "." && name != ".." else { continue }
            entries.append(DirectoryEntry(name: name, kind: kind(entry.pointee.d_type), inode: UInt64(entry.pointee.d_ino)))
        }
        return DirectoryListing(status: status, entries: entries)
    }

    /// The kind for a `d_type` value.
    private static func kind(_ type: UInt8) -> EntryKind {
        switch Int(type) {
        case Int(DT_REG): return .regular
        case Int(DT_DIR): return .directory
        case Int(DT_LNK): return .symbolicLink
        case Int(DT_UNKNOWN): return .unknown
        // DTTOIF: the type is the mode's file-type bits shifted down by 12.
        default: return .special(mode_t(type) << 12)
        }
    }
}
