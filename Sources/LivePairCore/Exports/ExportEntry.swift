/// One file of an export as the layout readers see it: where it sits in the export's tree (the
/// path inside the archive parts, which merge into one tree, or the file's own path), where it was
/// read from, and what was read.
public struct ExportEntry: Sendable {
    /// What was read from the file.
    public enum Content: Sendable {
        /// A file identified as media, or read and found not to be media (its role says which).
        case identified(ResourceIdentity)
        /// A `.json` file's bytes.
        case json([UInt8])
        /// Not read: why (`unsafe-name`, `not-a-regular-file`, `same-path-in-another-part`,
        /// `sidecar-too-large`).
        case skipped(reason: String)
    }

    /// The path in the export's tree: `Takeout/Google Photos/Album/IMG_1234.HEIC`.
    public var path: String
    /// Where it was read: the file's path, or `PART.zip:MEMBER`.
    public var location: String
    /// What was read.
    public var content: Content
    /// A digest of the file's bytes when one was computed while reading it (archive members):
    /// equal digests and sizes mean identical files.
    public var digest: [UInt8]?
    /// For a motion photo read from an archive: the digest of its embedded video's bytes, so that
    /// a loose movie equal to it (Takeout's JPG + MP4 split) is recognised.
    public var embeddedVideoDigest: [UInt8]?
    /// A file holding all of its bytes: the file itself when read from a folder, the spooled copy
    /// of an archive member when the reader spooled (`ExportReader.spoolDirectory`); nil otherwise.
    public var file: String?

    /// An entry.
    public init(path: String, location: String, content: Content, digest: [UInt8]? = nil) {
        self.path = path
        self.location = location
        self.content = content
        self.digest = digest
    }

    /// Whether a file of this name is read as a JSON sidecar rather than identified.
    public static func isJSONName(_ path: String) -> Bool { path.lowercased().hasSuffix(".json") }
}
