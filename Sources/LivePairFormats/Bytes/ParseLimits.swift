/// Every bound the parsers apply to sizes and counts declared by a file.
///
/// Files are untrusted: a box may claim 2^63 bytes, a table 2^32 entries. Parsers compare declared
/// sizes with the bytes actually available and with these limits *before* allocating, and throw
/// `FormatError.limitExceeded` when a limit is passed. One value is threaded through every parser.
public struct ParseLimits: Sendable, Equatable {
    /// Deepest nesting of boxes (ISO-BMFF) or IFDs (TIFF) followed.
    public var maximumDepth: Int
    /// Most boxes read from one file, across all levels.
    public var maximumBoxCount: Int
    /// Most entries accepted in one table (`stts`, `stsz`, `stco`, `iloc`, IFD entries, ...).
    public var maximumTableEntries: Int
    /// Largest metadata block read into memory: `moov`, HEIF `meta`, Exif, XMP, maker note.
    public var maximumMetadataBytes: Int
    /// Most IFDs followed through next-IFD links and sub-IFD pointers.
    public var maximumIFDChainLength: Int
    /// Most HEIF items accepted.
    public var maximumItemCount: Int
    /// Most pixels (width times height) accepted for one image.
    public var maximumPixels: Int
    /// Most bytes a compressed stream (raw DEFLATE in `.AAE` edit data) may inflate to: a
    /// DEFLATE bomb stops here with `FormatError.limitExceeded`.
    public var maximumInflatedBytes: Int
    /// Most values one property list or JSON document may hold, counting every string, number,
    /// array and dictionary (a binary plist's shared references are counted each time they are used).
    public var maximumPropertyListObjects: Int

    /// Limits that accept every real camera file seen, with a wide margin, while bounding memory
    /// to a few tens of megabytes per file.
    public static let `default` = ParseLimits(
        maximumDepth: 32,
        maximumBoxCount: 100_000,
        maximumTableEntries: 4_000_000,
        maximumMetadataBytes: 64 << 20,
        maximumIFDChainLength: 64,
        maximumItemCount: 10_000,
        maximumPixels: 1 << 28,
        maximumInflatedBytes: 16 << 20,
        maximumPropertyListObjects: 200_000)

    /// Memberwise initializer.
    public init(
        maximumDepth: Int, maximumBoxCount: Int, maximumTableEntries: Int, maximumMetadataBytes: Int,
        maximumIFDChainLength: Int, maximumItemCount: Int, maximumPixels: Int,
        maximumInflatedBytes: Int = 16 << 20, maximumPropertyListObjects: Int = 200_000
    ) {
        self.maximumDepth = maximumDepth
        self.maximumBoxCount = maximumBoxCount
        self.maximumTableEntries = maximumTableEntries
        self.maximumMetadataBytes = maximumMetadataBytes
        self.maximumIFDChainLength = maximumIFDChainLength
        self.maximumItemCount = maximumItemCount
        self.maximumPixels = maximumPixels
        self.maximumInflatedBytes = maximumInflatedBytes
        self.maximumPropertyListObjects = maximumPropertyListObjects
    }

    /// Throws when a declared table of `count` entries of `entrySize` bytes is over the entry limit
    /// or larger than the `available` bytes that could hold it.
    public func checkTable(
        _ count: UInt64, entrySize: Int, available: Int, context: String
    ) throws(FormatError) {
        if count > UInt64(maximumTableEntries) {
            throw .limitExceeded(
                context: context, limit: "table entry count", value: count, maximum: UInt64(maximumTableEntries))
        }
        let needed = count * UInt64(max(entrySize, 0))
        if needed > UInt64(available) {
            throw .truncated(context: context, needed: needed, available: UInt64(available))
        }
    }

    /// Throws when a metadata block of `size` bytes is above `maximumMetadataBytes`.
    public func checkMetadataSize(_ size: UInt64, context: String) throws(FormatError) {
        if size > UInt64(maximumMetadataBytes) {
            throw .limitExceeded(
                context: context, limit: "metadata size", value: size, maximum: UInt64(maximumMetadataBytes))
        }
    }
}
