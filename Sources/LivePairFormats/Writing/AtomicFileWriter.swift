#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file atomically: the content goes to a temporary file in the destination's directory,
/// which is flushed to disk (`fsync`) and then renamed over the destination. A reader sees either
/// the old file (or none) or the complete new one; a failure at any point removes the temporary
/// file and leaves the destination untouched. A replaced destination keeps its permission bits.
public enum AtomicFileWriter {
    /// Writes `destination` with the bytes `body` sends to its sink.
    ///
    /// - Parameters:
    ///   - destination: the path to create or replace.
    ///   - interpose: wraps the file sink (tests inject a sink that fails after some bytes).
    ///   - body: produces the content, front to back.
    public static func write(
        to destination: String,
        interpose: ((any ByteSink) -> any ByteSink)? = nil,
        _ body: (any ByteSink) throws(FormatError) -> Void
    ) throws(FormatError) {
        let directory = Self.directory(of: destination)
        let name = destination.split(separator: "/").last.map(String.init) ?? "output"
        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<16 {
            temporary = "\(directory)/.\(name).\(UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF_FFFF).tmp"
            descriptor = FileSystemPath.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw .io(path: destination, reason: errorText(errno)) }
        // A replaced file keeps its permission bits.
        if let existing = FileSystemPath.status(destination), (existing.st_mode & S_IFMT) == S_IFREG {
            _ = fchmod(descriptor, existing.st_mode & 0o7777)
        }
        do throws(FormatError) {
            let fileSink = FileDescriptorSink(descriptor: descriptor, path: temporary)
            let sink = interpose?(fileSink) ?? fileSink
            try body(sink)
            guard fsync(descriptor) == 0 else { throw FormatError.io(path: temporary, reason: errorText(errno)) }
            let closed = close(descriptor)
            descriptor = -1
            guard closed == 0 else { throw FormatError.io(path: temporary, reason: errorText(errno)) }
            guard FileSystemPath.rename(temporary, destination) == 0 else {
                throw FormatError.io(path: destination, reason: errorText(errno))
            }
        } catch {
            if descriptor >= 0 { close(descriptor) }
            FileSystemPath.unlink(temporary)
            throw error
        }
        // Make the rename itself durable; failing here cannot undo it, so it is best effort.
        let directoryDescriptor = FileSystemPath.open(directory, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Writes `bytes` to `destination` atomically.
    public static func write(_ bytes: [UInt8], to destination: String) throws(FormatError) {
        try write(to: destination) { sink throws(FormatError) in try sink.write(bytes) }
    }

    /// The directory part of `path` ("." for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// The C library's text for `code`.
    static func errorText(_ code: Int32) -> String {
        FileSystemPath.errorText(code)
    }
}
