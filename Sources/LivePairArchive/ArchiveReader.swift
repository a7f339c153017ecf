import CArchive
import Glibc
import LivePairCrypto
import LivePairFormats

/// Streams the members of a `.zip`, `.tar`, `.tgz` or `.tar.gz` file once, in order, in place:
/// nothing is unpacked to disk, and memory is bounded by `ArchiveLimits` whatever the archive says.
public struct ArchiveReader: Sendable {
    /// The bounds applied.
    public var limits: ArchiveLimits

    /// When set, each regular member's bytes are written, as they stream by, to a file of its own
    /// in this folder (created when missing): `ArchiveMember.spooledPath`, and the member's
    /// `content` reads that file (nothing of it is kept in memory). An import needs every byte of
    /// a member to store it; the member is still read once.
    public var spoolDirectory: String?

    /// A reader with `limits`, spooling members to `spoolDirectory` when given.
    public init(limits: ArchiveLimits = .default, spoolDirectory: String? = nil) {
        self.limits = limits
        self.spoolDirectory = spoolDirectory
    }

    /// Calls `body` with each member of the archive at `path`, in archive order, each read once.
    /// Throws when the archive cannot be opened, is damaged, or passes a limit; the members
    /// already given to `body` stay given.
    public func forEachMember(in path: String, _ body: (ArchiveMember) -> Void) throws(ArchiveError) {
        // Names come out as UTF-8 whatever the process's locale (under the C locale libarchive
        // cannot convert a zip's Unicode names): a UTF-8 character type for this thread only.
        let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
        let previous = utf8.map { uselocale($0) }
        defer {
            if let previous { uselocale(previous) }
            if let utf8 { freelocale(utf8) }
        }
        guard let handle = archive_read_new() else { throw .unreadable(archive: path, reason: "out of memory") }
        defer { archive_read_free(handle) }
        archive_read_support_filter_gzip(handle)
        archive_read_support_format_zip(handle)
        archive_read_support_format_tar(handle)
        let opened = FileSystemPath.withCString(path) { archive_read_open_filename(handle, $0, 1 << 16) }
        guard opened == ARCHIVE_OK else { throw .unreadable(archive: path, reason: Self.message(handle)) }
        var stream = ExpansionBudget(archive: path, limits: limits)
        if let spoolDirectory {
            let made = FileSystemPath.withCString(spoolDirectory) { mkdir($0, 0o700) }
            guard made == 0 || errno == EEXIST else {
                throw .unreadable(archive: path, reason: "cannot create the spool folder \(spoolDirectory)")
            }
        }
        var count = 0
        while true {
            var entry: OpaquePointer?
            let status = archive_read_next_header(handle, &entry)
            if status == ARCHIVE_EOF { return }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw .damaged(archive: path, member: nil, reason: Self.message(handle))
            }
            count += 1
            guard count <= limits.maximumMembers else {
                throw .limitExceeded(
                    archive: path, member: nil, limit: "member count", value: UInt64(count),
                    maximum: UInt64(limits.maximumMembers))
            }
            let name = try memberName(entry, archive: path)
            let kind = Self.kind(of: entry)
            guard kind == .regularFile else {
                body(
                    ArchiveMember(
                        name: name, kind: kind, content: WindowedByteSource(whole: [], name: name), sha256: [], spooledPath: nil))
                continue
            }
            let spool = spoolDirectory.map { "\($0)/\(count)" }
            // The size the header declares (a hint only, never trusted as a bound): the bytes kept
            // whole are reserved once instead of growing chunk by chunk.
            let declared = archive_entry_size_is_set(entry) != 0 ? max(0, Int(archive_entry_size(entry))) : 0
            let (content, sha256) = try readContent(
                handle, name: name, budget: &stream, spool: spool, expected: min(declared, limits.wholeMemberBytes))
            body(ArchiveMember(name: name, kind: kind, content: content, sha256: sha256, spooledPath: spool))
        }
    }

    private func memberName(_ entry: OpaquePointer, archive: String) throws(ArchiveError) -> String {
        guard let pointer = archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry) else {
            throw .damaged(archive: archive, member: nil, reason: "a member has no name")
        }
        let length = strlen(pointer)
        guard length <= limits.maximumNameBytes else {
            throw .limitExceeded(
                archive: archive, member: nil, limit: "member name length", value: UInt64(length),
                maximum: UInt64(limits.maximumNameBytes))
        }
        return FileSystemPath.string(cString: pointer)
    }

    private static func kind(of entry: OpaquePointer) -> ArchiveMember.Kind {
        switch UInt32(archive_entry_filetype(entry)) {
        case livepair_archive_regular_file: return archive_entry_hardlink(entry) == nil ? .regularFile : .other
        case livepair_archive_directory: return .directory
        default: return .other
        }
    }

    /// Reads the current member's data: whole up to `wholeMemberBytes`, else its first and last
    /// windows; with the SHA-256 of every byte; every byte also written to `spool` when given.
    private func readContent(
        _ handle: OpaquePointer, name: String, budget: inout ExpansionBudget, spool: String?, expected: Int
    ) throws(ArchiveError) -> (any ByteSource, [UInt8]) {
        var spoolFile: Int32 = -1
        if let spool {
            spoolFile = FileSystemPath.withCString(spool) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
            guard spoolFile >= 0 else {
                throw .damaged(archive: budget.archive, member: name, reason: "cannot write the spool file \(spool)")
            }
        }
        defer { if spoolFile >= 0 { close(spoolFile) } }
        var digest = SHA256()
        var head: [UInt8] = []
        if spool == nil { head.reserveCapacity(expected) }
        var tail: [UInt8] = []
        var total: UInt64 = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let keepWhole = UInt64(limits.wholeMemberBytes)
        let window = limits.windowBytes
        while true {
            let read = chunk.withUnsafeMutableBytes { archive_read_data(handle, $0.baseAddress, $0.count) }
            if read == 0 { break }
            guard read > 0 else {
                throw .damaged(archive: budget.archive, member: name, reason: Self.message(handle))
            }
            total += UInt64(read)
            guard total <= limits.maximumMemberBytes else {
                throw .limitExceeded(
                    archive: budget.archive, member: name, limit: "member size", value: total,
                    maximum: limits.maximumMemberBytes)
            }
            try budget.add(UInt64(read), member: name, consumed: UInt64(max(0, archive_filter_bytes(handle, -1))))
            let bytes = chunk[0..<read]
            bytes.withUnsafeBytes { digest.update($0) }
            if spoolFile >= 0 {
                let written = bytes.withUnsafeBytes { Self.writeAll(spoolFile, $0) }
                guard written else {
                    throw .damaged(archive: budget.archive, member: name, reason: "writing the spool file failed (errno \(errno))")
                }
                continue
            }
            if total <= keepWhole {
                head.append(contentsOf: bytes)
                continue
            }
            if head.count > window {
                // The member has just passed the whole-member size: keep its first window; what
                // followed the window starts the tail.
                tail = Array(head[window...])
                head.removeSubrange(window...)
            }
            tail.append(contentsOf: bytes)
            if tail.count > 2 * window { tail.removeFirst(tail.count - window) }
        }
        if let spool {
            close(spoolFile)
            spoolFile = -1
            do {
                return (try FileByteSource(path: spool), digest.finalize())
            } catch {
                throw .damaged(archive: budget.archive, member: name, reason: "cannot read the spool file \(spool) back")
            }
        }
        if total <= keepWhole { return (WindowedByteSource(whole: head, name: name), digest.finalize()) }
        if tail.count > window { tail.removeFirst(tail.count - window) }
        return (WindowedByteSource(head: head, tail: tail, size: total, name: name), digest.finalize())
    }

    /// Writes all of `bytes` to `descriptor`; false on an error.
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    static func message(_ handle: OpaquePointer) -> String {
        guard let text = archive_error_string(handle) else { return "unknown error" }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
    }
}

/// The expanded bytes of one archive against its limits: the total, and the ratio to the bytes
/// read from the file (a zip bomb expands far beyond what any photo or movie does).
struct ExpansionBudget {
    let archive: String
    let limits: ArchiveLimits
    private(set) var expanded: UInt64 = 0

    init(archive: String, limits: ArchiveLimits) {
        self.archive = archive
        self.limits = limits
    }

    mutating func add(_ bytes: UInt64, member: String, consumed: UInt64) throws(ArchiveError) {
        expanded += bytes
        guard expanded <= limits.maximumExpandedBytes else {
            throw .limitExceeded(
                archive: archive, member: member, limit: "expanded size", value: expanded,
                maximum: limits.maximumExpandedBytes)
        }
        guard expanded > limits.ratioGraceBytes else { return }
        let ratio = expanded / max(consumed, 1)
        guard ratio <= limits.maximumExpansionRatio else {
            throw .limitExceeded(
                archive: archive, member: member, limit: "expansion ratio", value: ratio,
                maximum: limits.maximumExpansionRatio)
        }
    }
}
