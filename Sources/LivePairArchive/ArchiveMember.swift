public import LivePairFormats

/// One entry of an archive, as it was streamed.
public struct ArchiveMember: Sendable {
    /// What kind of entry it is.
    public enum Kind: String, Sendable, Equatable {
        /// A regular file: its bytes are in `content`.
        case regularFile = "file"
        /// A folder entry (no bytes).
        case directory
        /// A symbolic link, hard link, device or FIFO: never followed, never read.
        case other
    }

    /// The name as stored in the archive (bytes that are not UTF-8 carried as in `FileSystemPath`).
    public let name: String
    /// The entry's kind.
    public let kind: Kind
    /// The bytes read: whole, or the first and last windows of a large member (a
    /// `WindowedByteSource`, see `ArchiveLimits`); when the reader spools, the spooled file.
    public let content: any ByteSource
    /// The SHA-256 of all of the member's bytes, computed as they streamed by (empty for entries
    /// that are not regular files): byte-identical members are found without reading them again.
    public let sha256: [UInt8]
    /// Where all of its bytes were written as they streamed by, when the reader spools
    /// (`ArchiveReader.spoolDirectory`); the caller owns the file.
    public let spooledPath: String?
}
