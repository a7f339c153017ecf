#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls that take a path, with the path converted by `FileSystemPath.withCString`, so
/// that names that are not valid UTF-8 reach the system as the bytes they were read as. They
/// return what the C function returns and leave `errno` as it set it.
extension FileSystemPath {
    /// `open(2)`.
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        withCString(path) { systemOpen($0, flags, mode) }
    }

    /// `stat(2)` (follows symbolic links); nil when it fails.
    public static func status(_ path: String) -> stat? {
        var info = stat()
        return withCString(path) { stat($0, &info) } == 0 ? info : nil
    }

    /// `lstat(2)` (a symbolic link itself); nil when it fails.
    public static func linkStatus(_ path: String) -> stat? {
        var info = stat()
        return withCString(path) { lstat($0, &info) } == 0 ? info : nil
    }

    /// `rename(2)`.
    public static func rename(_ source: String, _ destination: String) -> Int32 {
        withCString(source) { from in withCString(destination) { to in systemRename(from, to) } }
    }

    /// `unlink(2)`.
    @discardableResult
    public static func unlink(_ path: String) -> Int32 {
        withCString(path) { systemUnlink($0) }
    }

    /// `mkdir(2)`.
    public static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        withCString(path) { systemMkdir($0, mode) }
    }

    /// `rmdir(2)`.
    @discardableResult
    public static func removeDirectory(_ path: String) -> Int32 {
        withCString(path) { rmdir($0) }
    }

    /// Creates the directory `path` and its missing parents (`mkdir -p`); returns 0, or the `errno`
    /// of the first step that failed.
    public static func createDirectories(_ path: String, mode: mode_t = 0o755) -> Int32 {
        if let info = status(path) { return (info.st_mode & S_IFMT) == S_IFDIR ? 0 : EEXIST }
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, mode) != 0, errno != EEXIST { return errno }
        }
        return 0
    }

    /// `link(2)`.
    public static func link(_ source: String, _ destination: String) -> Int32 {
        withCString(source) { from in withCString(destination) { to in systemLink(from, to) } }
    }

    /// The names in directory `path` (without `.` and `..`), each read as bytes; nil with `errno`
    /// set when the directory cannot be opened.
    public static func names(in path: String) -> [String]? {
        guard let directory = withCString(path, { opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                string(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Opens `path` read-only as a regular file. The open does not block (a FIFO with no writer,
    /// a device) and anything that is not a regular file is refused before a byte is read, with a
    /// reason naming what it is. System calls: one `open`, one `fstat`.
    public static func openRegularFile(_ path: String) -> Result<RegularFile, RegularFileFailure> {
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { return .failure(RegularFileFailure(reason: errorText(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            return .failure(RegularFileFailure(reason: errorText(code)))
        }
        if let kind = nonRegularKind(info.st_mode) {
            close(descriptor)
            return .failure(RegularFileFailure(reason: "not a regular file (\(kind))"))
        }
        // O_NONBLOCK stays set: it has no effect on a regular file's reads and writes, so
        // clearing it would cost two `fcntl` calls per file for nothing.
        return .success(RegularFile(descriptor: descriptor, status: info))
    }

    /// What a file of `mode` is when it is not a regular file ("a FIFO", "a directory"...), or nil.
    public static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFLNK: return "a symbolic link"
        default: return "not a file"
        }
    }

    /// The C library's text for `code`, in the casing of LivePair's messages ("no such file or
    /// directory"): every system error in a message goes through here.
    public static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        let sentence = String(cString: text)
        return sentence.prefix(1).lowercased() + sentence.dropFirst()
    }

    private static func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags, mode)
        #else
        Darwin.open(path, flags, mode)
        #endif
    }

    private static func systemRename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 {
        #if canImport(Glibc)
        Glibc.rename(from, to)
        #else
        Darwin.rename(from, to)
        #endif
    }

    private static func systemUnlink(_ path: UnsafePointer<CChar>) -> Int32 {
        #if canImport(Glibc)
        Glibc.unlink(path)
        #else
        Darwin.unlink(path)
        #endif
    }

    private static func systemMkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.mkdir(path, mode)
        #else
        Darwin.mkdir(path, mode)
        #endif
    }

    private static func systemLink(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 {
        #if canImport(Glibc)
        Glibc.link(from, to)
        #else
        Darwin.link(from, to)
        #endif
    }
}

/// A regular file opened read-only by `FileSystemPath.openRegularFile`; the caller closes it.
public struct RegularFile: Sendable {
    /// The open descriptor.
    public let descriptor: Int32
    /// Its status when it was opened.
    public let status: stat
}

/// Why `FileSystemPath.openRegularFile` could not open a path.
public struct RegularFileFailure: Error, Equatable, Sendable {
    /// The C library's text, or "not a regular file (a FIFO)" and the like.
    public let reason: String
}
