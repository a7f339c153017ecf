#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats

/// The few system calls the library makes outside the resource store. Kept in a file of their own
/// that imports only the C library: with Foundation imported too, the C `stat` type resolves
/// through another module.
enum LibraryFileSystem {
    /// True when something (a file, directory or link) is at `path`.
    static func exists(_ path: String) -> Bool {
        FileSystemPath.linkStatus(path) != nil
    }

    /// Removes the file at `path`; true on success.
    @discardableResult
    static func unlink(_ path: String) -> Bool {
        FileSystemPath.unlink(path) == 0
    }

    /// Seconds since the file's status last changed (created, linked, renamed), or nil when it is gone.
    static func secondsSinceStatusChange(_ path: String) -> Double? {
        guard let status = FileSystemPath.status(path) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let changed = Double(status.st_ctim.tv_sec) + Double(status.st_ctim.tv_nsec) / 1e9
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - changed
    }

    /// Creates an empty file at `path` (an existing one is fine) and flushes `directory`, its
    /// parent; true on success.
    static func createDurably(_ path: String, in directory: String) -> Bool {
        let descriptor = FileSystemPath.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return syncDirectory(directory)
    }

    /// Removes the file at `path` (a missing one is fine) and flushes `directory`, its parent;
    /// true on success.
    static func removeDurably(_ path: String, in directory: String) -> Bool {
        guard unlink(path) || errno == ENOENT else { return false }
        return syncDirectory(directory)
    }

    private static func syncDirectory(_ path: String) -> Bool {
        let descriptor = FileSystemPath.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return fsync(descriptor) == 0
    }

    /// What reading the start of a file found.
    enum Prefix {
        /// No file there.
        case missing
        /// The first bytes (fewer when the file is shorter; none for an empty file).
        case bytes([UInt8])
        /// It could not be read; the C library's text.
        case failed(String)
    }

    /// The first `count` bytes of the file at `path`.
    static func readPrefix(of path: String, count: Int) -> Prefix {
        let descriptor = FileSystemPath.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return errno == ENOENT ? .missing : .failed(FileSystemPath.errorText(errno))
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { raw in pread(descriptor, raw.baseAddress! + filled, count - filled, off_t(filled)) }
            if got > 0 {
                filled += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                return .failed(FileSystemPath.errorText(errno))
            }
        }
        return .bytes(Array(bytes[..<filled]))
    }

    /// Whether a directory exists and has entries.
    enum DirectoryState {
        /// Nothing at the path.
        case missing
        /// A directory without entries.
        case empty
        /// A directory with entries.
        case populated
        /// Something else (a file), or unreadable; the reason.
        case unusable(String)
    }

    /// The state of the directory at `path`.
    static func directoryState(_ path: String) -> DirectoryState {
        guard let status = FileSystemPath.status(path) else {
            return errno == ENOENT ? .missing : .unusable(FileSystemPath.errorText(errno))
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return .unusable("not a directory") }
        guard let names = FileSystemPath.names(in: path) else { return .unusable(FileSystemPath.errorText(errno)) }
        return names.isEmpty ? .empty : .populated
    }

    /// Holds an exclusive `flock` on a directory while a library in it is checked or created, so
    /// that no other process sees a library half created. Released by `release()` (or when the
    /// process ends).
    final class DirectoryLock {
        private var descriptor: Int32

        /// Locks the directory at `path`, waiting for another holder.
        init(_ path: String) throws(LibraryError) {
            descriptor = FileSystemPath.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .io(path: path, reason: FileSystemPath.errorText(errno)) }
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let reason = FileSystemPath.errorText(errno)
                    close(descriptor)
                    throw .io(path: path, reason: "cannot lock the directory: \(reason)")
                }
            }
        }

        /// Releases the lock.
        func release() {
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }

        deinit { release() }
    }
}
