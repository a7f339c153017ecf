import LivePairFormats

/// Opens a resource's bytes for the pairing layer's duplicate checks (byte-identical files, loose
/// movies equal to a motion photo's embedded video). Inject your own to read from object storage,
/// or in tests to count reads.
///
/// Pairing reads contents only for files that could be duplicates (equal sizes and equal identities,
/// or a movie whose size equals a motion photo's embedded video), in chunks, and stops at the
/// first difference.
public protocol ResourceContentSource: Sendable {
    /// Opens the bytes of the file at `path`. Throwing makes the file count as different from every other.
    func open(path: String) throws -> any ByteSource
}

/// The default content source: the file system, read with `FileByteSource` (positioned reads).
public struct FileContentSource: ResourceContentSource {
    /// A content source over the file system.
    public init() {}

    /// Opens `path` read-only.
    public func open(path: String) throws -> any ByteSource {
        try FileByteSource(path: path)
    }
}
