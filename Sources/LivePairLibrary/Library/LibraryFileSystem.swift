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
}
