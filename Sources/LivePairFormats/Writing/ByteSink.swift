#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a writer sends its output, in order. Writers never seek: they produce a file front to back.
public protocol ByteSink: AnyObject {
    /// Appends `bytes`. Throws `FormatError.io` when they cannot be written.
    func write(_ bytes: ArraySlice<UInt8>) throws(FormatError)
    /// Bytes written so far.
    var bytesWritten: UInt64 { get }
}

extension ByteSink {
    /// Appends all of `bytes`.
    public func write(_ bytes: [UInt8]) throws(FormatError) { try write(bytes[...]) }

    /// Copies `range` of `source` to the sink in chunks of `chunkSize` bytes, so a movie's media
    /// data streams through a small buffer and is never loaded whole. From a file to a file the
    /// kernel copies (`sendfile`), without passing the bytes through user space.
    public func copy(
        from source: any ByteSource, range: Range<UInt64>, chunkSize: Int = 1 << 20
    ) throws(FormatError) {
        var offset = range.lowerBound
        if let fileSink = self as? FileDescriptorSink, let fileSource = source as? FileByteSource {
            offset = try fileSink.copyInKernel(from: fileSource, range: range)
        }
        while offset < range.upperBound {
            let count = Int(min(UInt64(chunkSize), range.upperBound - offset))
            let chunk = try source.readExactly(at: offset, count: count, context: "\(source.name) bytes at \(offset)")
            try write(chunk[...])
            offset += UInt64(count)
        }
    }
}

/// A sink that collects everything in memory (tests, small outputs).
public final class MemoryByteSink: ByteSink {
    /// The bytes written.
    public private(set) var bytes: [UInt8] = []

    /// An empty sink.
    public init() {}

    /// Appends `bytes`.
    public func write(_ bytes: ArraySlice<UInt8>) throws(FormatError) { self.bytes.append(contentsOf: bytes) }

    /// Bytes written so far.
    public var bytesWritten: UInt64 { UInt64(bytes.count) }
}

/// A sink writing to an open file descriptor (it does not own or close it).
public final class FileDescriptorSink: ByteSink {
    private let descriptor: Int32
    private let path: String
    /// Bytes written so far.
    public private(set) var bytesWritten: UInt64 = 0

    /// A sink writing to `descriptor`; `path` names the file in errors.
    public init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Copies as much of `range` of `source` as the kernel will with `sendfile` (file to file,
    /// page cache to page cache) and returns the offset reached; the caller copies the rest through
    /// user space when the kernel refuses.
    func copyInKernel(from source: FileByteSource, range: Range<UInt64>) throws(FormatError) -> UInt64 {
        #if canImport(Glibc)
        var offset = range.lowerBound
        while offset < range.upperBound {
            var input = off_t(offset)
            let wanted = Int(min(range.upperBound - offset, 1 << 30))
            let copied = sendfile(descriptor, source.descriptor, &input, wanted)
            if copied > 0 {
                offset += UInt64(copied)
                bytesWritten += UInt64(copied)
            } else if copied < 0 && errno == EINTR {
                continue
            } else if copied == 0 {
                throw .truncated(context: "\(source.name) bytes at \(offset)", needed: range.upperBound - offset, available: 0)
            } else if [ENOSYS, EXDEV, EINVAL, EOPNOTSUPP, EBADF].contains(errno) {
                return offset
            } else {
                throw .io(path: path, reason: AtomicFileWriter.errorText(errno))
            }
        }
        return offset
        #else
        return range.lowerBound
        #endif
    }

    /// Writes all of `bytes`, retrying short writes and interruptions.
    public func write(_ bytes: ArraySlice<UInt8>) throws(FormatError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var done = 0
            while done < raw.count {
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, base + done, raw.count - done)
                #else
                let written = Darwin.write(descriptor, base + done, raw.count - done)
                #endif
                if written > 0 {
                    done += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    failure = written < 0 ? errno : EIO
                    return
                }
            }
        }
        if failure != 0 { throw .io(path: path, reason: AtomicFileWriter.errorText(failure)) }
        bytesWritten += UInt64(bytes.count)
    }
}
