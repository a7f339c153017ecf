#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats

/// The record that makes replacing several files one recoverable step.
///
/// Before the first of a commit's renames, the list of renames (staged file, destination, and what
/// the destination was: absent or its device and inode) is written to `journal` in every staging
/// folder involved and flushed (`fsync` of the file and of the folder). The renames follow; the
/// journal goes with the staging folders once they are all done. A run killed between two renames
/// leaves a journal that `StagingRecovery` finishes: each staged file still present is renamed
/// over its destination if the destination is still what the journal recorded. The staged files
/// were validated as a whole before the journal was written, so completing is always right.
struct CommitJournal: Equatable {
    /// One rename: absolute paths, and the destination's identity before the commit.
    struct Entry: Equatable {
        let temporary: String
        let destination: String
        /// `"absent"` or `"<device>:<inode>"`.
        let original: String
    }

    let entries: [Entry]

    /// The journal's file name inside a staging folder.
    static let fileName = "journal"
    private static let header = "livepair-commit-journal 1\n"

    /// Whether the staging folder at `folder` holds a journal.
    static func exists(in folder: String) -> Bool {
        FileSystemPath.linkStatus("\(folder)/\(fileName)") != nil
    }

    /// What is at `path` now: `"absent"` or `"<device>:<inode>"` (links not followed).
    static func identity(of path: String) -> String {
        guard let status = FileSystemPath.linkStatus(path) else { return "absent" }
        return "\(status.st_dev):\(status.st_ino)"
    }

    /// `path` made absolute: its directory resolved (`realpath`), its file name kept.
    static func absolute(_ path: String) -> String {
        let directory = StagedOutputs.directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let resolved = FileSystemPath.withCString(directory, { realpath($0, nil) }) else { return path }
        defer { free(resolved) }
        let base = FileSystemPath.string(cString: resolved)
        return base == "/" ? "/\(name)" : "\(base)/\(name)"
    }

    /// The serialized journal: a header line, then per entry three NUL-terminated fields.
    var bytes: [UInt8] {
        var bytes = Array(Self.header.utf8)
        for entry in entries {
            for field in [entry.temporary, entry.destination, entry.original] { bytes += Array(field.utf8) + [0] }
        }
        return bytes
    }

    /// The journal in `bytes`; nil when they are not one (a torn or foreign file).
    init?(bytes: [UInt8]) {
        let header = Array(Self.header.utf8)
        guard bytes.starts(with: header) else { return nil }
        let fields = bytes[header.count...].split(separator: 0, omittingEmptySubsequences: false).dropLast()
        guard bytes.last == 0, fields.count % 3 == 0, !fields.isEmpty else { return nil }
        let texts = fields.map { String(decoding: $0, as: UTF8.self) }
        entries = stride(from: 0, to: texts.count, by: 3).map {
            Entry(temporary: texts[$0], destination: texts[$0 + 1], original: texts[$0 + 2])
        }
    }

    init(entries: [Entry]) { self.entries = entries }

    /// Writes the journal into `folder` durably: `journal.tmp`, `fsync`, rename, `fsync` of the folder.
    func write(into folder: String) throws(PackagingError) {
        let temporary = "\(folder)/\(Self.fileName).tmp"
        do throws(FormatError) {
            let descriptor = FileSystemPath.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw FormatError.io(path: temporary, reason: FileSystemPath.errorText(errno)) }
            defer { close(descriptor) }
            try FileDescriptorSink(descriptor: descriptor, path: temporary).write(bytes)
            guard fsync(descriptor) == 0, FileSystemPath.rename(temporary, "\(folder)/\(Self.fileName)") == 0 else {
                throw FormatError.io(path: temporary, reason: FileSystemPath.errorText(errno))
            }
        } catch {
            FileSystemPath.unlink(temporary)
            throw .format(error)
        }
        StagingFolder.syncDirectory(folder)
    }

    /// The journal in `folder`, if it holds a complete one.
    static func read(from folder: String) -> CommitJournal? {
        guard let source = try? FileByteSource(path: "\(folder)/\(fileName)"), source.size < 1 << 20,
            let bytes = try? source.read(at: 0, count: Int(source.size))
        else { return nil }
        return CommitJournal(bytes: bytes)
    }
}
