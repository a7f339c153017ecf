public import LivePairFormats

/// One member of an archive part, as an `ExportArchiveStreaming` gives it.
public struct ExportArchiveMember: Sendable {
    /// The name stored in the archive.
    public var name: String
    /// Whether it is a regular file (folders, links and devices are not read).
    public var isRegularFile: Bool
    /// Whether it is a folder entry (not a file: not reported).
    public var isDirectory: Bool
    /// Its bytes (whole, or its first and last bytes: `WindowedByteSource`).
    public var content: any ByteSource
    /// A digest of all its bytes (SHA-256), computed as they streamed by; nil when not computed.
    public var digest: [UInt8]?
    /// A file holding all of its bytes, when the reader was asked to spool them.
    public var spooledPath: String?

    /// A member.
    public init(
        name: String, isRegularFile: Bool, isDirectory: Bool, content: any ByteSource, digest: [UInt8]? = nil,
        spooledPath: String? = nil
    ) {
        self.spooledPath = spooledPath
        self.name = name
        self.isRegularFile = isRegularFile
        self.isDirectory = isDirectory
        self.content = content
        self.digest = digest
    }
}

/// Reads archive parts (`.zip`, `.tgz`) member by member, once each, in place. The core links
/// no C library: the archive bridge (libarchive) provides the implementation and is injected.
public protocol ExportArchiveStreaming: Sendable {
    /// Calls `body` with each member of the archive at `path`, in order; throws when the archive
    /// cannot be read to its end (the members already given stay given). With `spoolDirectory`,
    /// each regular member's bytes are also written to a file there as they stream by
    /// (`ExportArchiveMember.spooledPath`): still one read of the part.
    func forEachMember(in path: String, spoolDirectory: String?, _ body: (ExportArchiveMember) -> Void) throws

    /// The digest (as `ExportArchiveMember.digest`) of `count` bytes of `source` at `offset`, or
    /// nil when they cannot be read (a motion photo's embedded video, compared with a loose movie).
    func digest(of source: any ByteSource, offset: UInt64, count: UInt64) -> [UInt8]?
}
