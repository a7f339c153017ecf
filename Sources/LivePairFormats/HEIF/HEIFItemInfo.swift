/// One entry of a HEIF `iinf` box (an `infe` box of version 2 or 3).
public struct HEIFItemInfo: Sendable, Equatable {
    /// The item id.
    public let id: UInt32
    /// The item type, such as `hvc1`, `grid`, `Exif`, `mime` or `tmap`.
    public let type: FourCC
    /// The item name (often empty).
    public let name: String
    /// The MIME content type, for `mime` items (for example `application/rdf+xml` for XMP).
    public let contentType: String?
    /// The content encoding, for `mime` items, when present and not empty.
    public let contentEncoding: String?
    /// Index into `ipro` protection schemes; 0 when unprotected.
    public let protectionIndex: UInt16
    /// The hidden flag (`infe` flags & 1): the item is not meant to be shown on its own.
    public let isHidden: Bool

    /// Memberwise initializer.
    public init(
        id: UInt32, type: FourCC, name: String, contentType: String?, contentEncoding: String?,
        protectionIndex: UInt16, isHidden: Bool
    ) {
        self.id = id
        self.type = type
        self.name = name
        self.contentType = contentType
        self.contentEncoding = contentEncoding
        self.protectionIndex = protectionIndex
        self.isHidden = isHidden
    }

    /// True for an XMP item: type `mime` with content type `application/rdf+xml`.
    public var isXMP: Bool { type == "mime" && contentType == "application/rdf+xml" }
}

/// Reads `iinf` and its `infe` entries.
enum HEIFItemInfoParser {
    /// Smallest possible `infe` box: header 8, version/flags 4, u16 id, u16 protection, type 4, name NUL.
    static let minimumEntrySize = 8 + 4 + 2 + 2 + 4 + 1

    /// Parses an `iinf` payload (starting at its version and flags). Entries of version 0 or 1
    /// (no item type) are skipped.
    static func parse(_ payload: ByteReader, limits: ParseLimits) throws(FormatError) -> [HEIFItemInfo] {
        var reader = payload
        reader.context = "meta/iinf"
        let header = try FullBoxHeader(&reader)
        let count: UInt64 = header.version == 0 ? UInt64(try reader.u16()) : UInt64(try reader.u32())
        if count > UInt64(limits.maximumItemCount) {
            throw .limitExceeded(
                context: "meta/iinf", limit: "item count", value: count, maximum: UInt64(limits.maximumItemCount))
        }
        try limits.checkTable(count, entrySize: minimumEntrySize, available: reader.remaining, context: "meta/iinf")
        var items: [HEIFItemInfo] = []
        items.reserveCapacity(Int(count))
        for _ in 0..<count {
            let start = reader.position
            let box = try BoxParser.readHeader(&reader)
            try reader.seek(to: start + box.headerSize)
            var entry = try reader.subReader(count: Int(box.size) - box.headerSize, context: "meta/iinf/infe")
            guard box.type == "infe" else { continue }
            if let item = try parseEntry(&entry) { items.append(item) }
        }
        return items
    }

    private static func parseEntry(_ reader: inout ByteReader) throws(FormatError) -> HEIFItemInfo? {
        let header = try FullBoxHeader(&reader)
        guard header.version >= 2 else { return nil }
        let id: UInt32 = header.version == 2 ? UInt32(try reader.u16()) : try reader.u32()
        let protection = try reader.u16()
        let type = try reader.fourCC()
        let name = reader.cString()
        var contentType: String?
        var contentEncoding: String?
        if type == "mime" {
            contentType = reader.cString()
            if !reader.isAtEnd {
                let encoding = reader.cString()
                contentEncoding = encoding.isEmpty ? nil : encoding
            }
        }
        return HEIFItemInfo(
            id: id, type: type, name: name, contentType: contentType, contentEncoding: contentEncoding,
            protectionIndex: protection, isHidden: header.flags & 1 != 0)
    }
}
