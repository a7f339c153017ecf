#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats

/// A temporary file next to a destination, renamed over it only once complete: the pattern of
/// LivePairFormats' `AtomicFileWriter`, for writers (FFmpeg's muxer) that open the path themselves.
struct TemporaryOutputFile {
    /// The final path.
    let destination: String
    /// The temporary path, in the destination's directory (so the rename stays on one file system).
    let path: String

    /// Reserves a new, empty temporary file (`.NAME.RANDOM.tmp`) in the destination's directory.
    init(for destination: String) throws(MediaError) {
        let slash = destination.lastIndex(of: "/")
        let directory = slash.map { destination[..<$0].isEmpty ? "/" : String(destination[..<$0]) } ?? "."
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        guard !name.isEmpty else { throw .encodeFailed(reason: "\(destination) names a directory, not a file") }
        var candidate = ""
        var descriptor: Int32 = -1
        for _ in 0..<16 {
            candidate = "\(directory)/.\(name).\(UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF_FFFF).tmp"
            descriptor = FileSystemPath.open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else {
            throw .encodeFailed(reason: "cannot create a temporary file for \(destination): \(Self.errorText(errno))")
        }
        close(descriptor)
        self.destination = destination
        path = candidate
    }

    /// Flushes the finished temporary file to disk and renames it over the destination.
    func commit() throws(MediaError) {
        let descriptor = FileSystemPath.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .encodeFailed(reason: "cannot reopen \(path): \(Self.errorText(errno))") }
        let synced = fsync(descriptor)
        let syncError = errno
        close(descriptor)
        guard synced == 0 else { throw .encodeFailed(reason: "fsync \(path): \(Self.errorText(syncError))") }
        guard FileSystemPath.rename(path, destination) == 0 else {
            throw .encodeFailed(reason: "cannot rename \(path) to \(destination): \(Self.errorText(errno))")
        }
        // Make the rename itself durable; failing here cannot undo it, so it is best effort.
        let slash = destination.lastIndex(of: "/")
        let directory = slash.map { destination[..<$0].isEmpty ? "/" : String(destination[..<$0]) } ?? "."
        let directoryDescriptor = FileSystemPath.open(directory, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Removes the temporary file (after a failure or cancellation).
    func discard() { FileSystemPath.unlink(path) }

    private static func errorText(_ code: Int32) -> String {
        FileSystemPath.errorText(code)
    }
}
