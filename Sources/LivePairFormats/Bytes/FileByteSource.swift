#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte source over a file opened read-only, read with `pread` (positioned reads, no shared
/// cursor, so one source may be read from several threads). The file is never written.
///
/// This is the one place the format layer calls the C library (libc), for I/O speed:
/// identification reads a few small ranges per file.
public final class FileByteSource: ByteSource, @unchecked Sendable {
    // Sendable: `descriptor`, `size` and `name` are immutable after init; pread does not move a cursor.
    let descriptor: Int32
    /// Size of the file when it was opened.
    public let size: UInt64
    /// The path.
    public let name: String
    /// The file's device and inode, from the same `fstat` as `size`.
    public let fileID: FileID

    /// Opens `path` for reading. Throws `FormatError.io` when it cannot be opened or is not a
    /// regular file (a FIFO, socket or device is refused without blocking and without a read).
    public init(path: String) throws(FormatError) {
        switch FileSystemPath.openRegularFile(path) {
        case let .success(file):
            descriptor = file.descriptor
            size = UInt64(file.status.st_size)
            name = path
            fileID = FileID(device: UInt64(file.status.st_dev), inode: UInt64(file.status.st_ino))
        case let .failure(failure):
            throw .io(path: path, reason: failure.reason)
        }
    }

    deinit { close(descriptor) }

    /// Reads up to `count` bytes at `offset`, retrying short reads until the end of the file.
    public func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let wanted = Int(min(UInt64(count), size - offset))
        var failure: Int32 = 0
        // Filled by pread directly: no zero-filling of a buffer that is about to be overwritten.
        var buffer = [UInt8](unsafeUninitializedCapacity: wanted) { raw, initialized in
            var filled = 0
            while filled < wanted {
                let got = pread(descriptor, raw.baseAddress! + filled, wanted - filled, off_t(offset) + off_t(filled))
                if got > 0 {
                    filled += got
                } else if got == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
            initialized = filled
        }
        if failure != 0 {
            buffer.removeAll()
            throw .io(path: name, reason: Self.errorText(failure))
        }
        return buffer
    }

    private static func errorText(_ code: Int32) -> String {
        FileSystemPath.errorText(code)
    }
}
