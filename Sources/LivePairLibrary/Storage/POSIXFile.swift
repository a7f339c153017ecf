#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats

/// The few system calls the resource store makes, with `EINTR` retried and failures turned into
/// `ResourceStoreError.io`; paths reach the system through `FileSystemPath` (bytes, not UTF-8).
enum POSIXFile {
    /// The C library's text for `code`.
    static func errorText(_ code: Int32) -> String {
        FileSystemPath.errorText(code)
    }

    /// The error for the current `errno` on `path`.
    static func failure(_ path: String, _ code: Int32 = errno) -> ResourceStoreError {
        .io(path: path, reason: errorText(code))
    }

    /// Opens `path` read-only. The open never blocks (a FIFO without a writer returns at once, for
    /// the caller's regular-file check to refuse); the descriptor is then set back to blocking.
    static func openForReading(_ path: String) throws(ResourceStoreError) -> Int32 {
        while true {
            let descriptor = FileSystemPath.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            if descriptor >= 0 {
                let flags = fcntl(descriptor, F_GETFL)
                if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
                return descriptor
            }
            if errno != EINTR { throw failure(path) }
        }
    }

    /// Creates `path` exclusively for writing; nil when it exists already.
    static func createExclusive(_ path: String, mode: mode_t = 0o644) throws(ResourceStoreError) -> Int32? {
        while true {
            let descriptor = FileSystemPath.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if descriptor >= 0 { return descriptor }
            if errno == EEXIST { return nil }
            if errno != EINTR { throw failure(path) }
        }
    }

    /// Reads up to `count` bytes at `offset` into `buffer`; fewer only at the end of the file.
    static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: UInt64, path: String
    ) throws(ResourceStoreError) -> Int {
        var filled = 0
        while filled < count {
            let got = pread(descriptor, buffer + filled, count - filled, off_t(offset) + off_t(filled))
            if got > 0 {
                filled += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                throw failure(path)
            }
        }
        return filled
    }

    /// Writes all `count` bytes at `buffer`.
    static func write(
        _ descriptor: Int32, _ buffer: UnsafeRawPointer, count: Int, path: String
    ) throws(ResourceStoreError) {
        var written = 0
        while written < count {
            let put = systemWrite(descriptor, buffer + written, count - written)
            if put > 0 {
                written += put
            } else if put < 0 && errno == EINTR {
                continue
            } else {
                throw failure(path, put == 0 ? EIO : errno)
            }
        }
    }

    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(descriptor, buffer, count)
        #else
        return Darwin.write(descriptor, buffer, count)
        #endif
    }

    /// Creates the hard link `destination` to `source`; returns the `errno` on failure, 0 on success.
    static func hardLink(_ source: String, _ destination: String) -> Int32 {
        #if canImport(Glibc)
        return FileSystemPath.link(source, destination) == 0 ? 0 : errno
        #else
        return FileSystemPath.link(source, destination) == 0 ? 0 : errno
        #endif
    }

    /// Flushes a file's data and metadata to disk.
    static func sync(_ descriptor: Int32, path: String) throws(ResourceStoreError) {
        while fsync(descriptor) != 0 {
            if errno != EINTR { throw failure(path) }
        }
    }

    /// When the system last started, in seconds since 1970 (now minus the time since boot).
    static let bootTime: Double = {
        #if os(Linux)
        var sinceBoot = timespec()
        var now = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &sinceBoot) == 0, clock_gettime(CLOCK_REALTIME, &now) == 0 else { return 0 }
        return Double(now.tv_sec - sinceBoot.tv_sec) + Double(now.tv_nsec - sinceBoot.tv_nsec) / 1e9
        #else
        return 0
        #endif
    }()

    /// True when `info`'s last status change (creation, link, rename) happened before the system
    /// last started (with a minute's margin for clock adjustments): whoever wrote the file then is
    /// gone, and a file not flushed before a power loss may have lost bytes.
    static func changedBeforeBoot(_ info: stat) -> Bool {
        Double(info.st_ctim.tv_sec) < bootTime - 60
    }

    /// Flushes a directory's entries to disk, so that a rename or unlink in it survives a crash.
    static func syncDirectory(_ path: String) throws(ResourceStoreError) {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        try sync(descriptor, path: path)
    }

    /// Takes an exclusive `flock` on the open file `descriptor` (waiting for it, or not when
    /// `waiting` is false); true when it is held. The lock belongs to the open file description:
    /// it is released when the descriptor is closed, also when its process dies, and it is seen by
    /// every process on the machine whatever its PID namespace (unlike a process id).
    static func lockExclusively(_ descriptor: Int32, waiting: Bool) -> Bool {
        while flock(descriptor, LOCK_EX | (waiting ? 0 : LOCK_NB)) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    /// True when `path` still names the file open as `descriptor` (same device and inode).
    static func names(_ path: String, theFileOpenAs descriptor: Int32) -> Bool {
        guard let named = status(path), let open = status(descriptor) else { return false }
        return named.st_dev == open.st_dev && named.st_ino == open.st_ino
    }

    /// The status of `path`, or nil when it does not exist.
    static func status(_ path: String) -> stat? {
        FileSystemPath.status(path)
    }

    /// The status of an open file.
    static func status(_ descriptor: Int32) -> stat? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? info : nil
    }

    /// True when `info` describes a regular file.
    static func isRegular(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG }

    /// True when `info` describes a directory.
    static func isDirectory(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }

    /// Creates `path` as a directory; an existing directory is fine. Returns true when it was created.
    @discardableResult
    static func makeDirectory(_ path: String) throws(ResourceStoreError) -> Bool {
        if FileSystemPath.mkdir(path, 0o755) == 0 { return true }
        let code = errno
        if code == EEXIST, let info = status(path), isDirectory(info) { return false }
        throw failure(path, code)
    }

    /// The names in directory `path`, without `.` and `..`.
    static func names(in path: String) throws(ResourceStoreError) -> [String] {
        guard let names = FileSystemPath.names(in: path) else { throw failure(path) }
        return names
    }
}
