/// One reference of an `iref` box: `fromItemID` refers, with `type`, to `toItemIDs` (in order).
///
/// Common types: `cdsc` (Exif/XMP describes an image), `thmb` (a thumbnail of an image), `dimg`
/// (a derived image, such as a grid, made from its tiles), `auxl` (an auxiliary image: gain map,
/// depth, alpha). Other types are kept as they are.
public struct HEIFItemReference: Sendable, Equatable {
    /// The reference type.
    public let type: FourCC
    /// The referring item.
    public let fromItemID: UInt32
    /// The referenced items, in file order (tile order for `dimg`).
    public let toItemIDs: [UInt32]

    /// Memberwise initializer.
    public init(type: FourCC, fromItemID: UInt32, toItemIDs: [UInt32]) {
        self.type = type
        self.fromItemID = fromItemID
        self.toItemIDs = toItemIDs
    }
}

/// Reads `iref` versions 0 (16-bit ids) and 1 (32-bit ids).
enum HEIFItemReferenceParser {
    /// Parses an `iref` payload (starting at its version and flags).
    static func parse(_ payload: ByteReader, limits: ParseLimits) throws(FormatError) -> [HEIFItemReference] {
        var reader = payload
        let context = "meta/iref"
        reader.context = context
        let header = try FullBoxHeader(&reader)
        guard header.version <= 1 else {
            throw .unsupported(context: context, reason: "iref version \(header.version)")
        }
        let idSize = header.version == 0 ? 2 : 4
        var references: [HEIFItemReference] = []
        var total = 0
        while reader.remaining >= 8 {
            let start = reader.position
            let box = try BoxParser.readHeader(&reader)
            try reader.seek(to: start + box.headerSize)
            var entry = try reader.subReader(count: Int(box.size) - box.headerSize, context: "\(context)/\(box.type)")
            let from = try entry.unsignedID(size: idSize)
            let count = UInt64(try entry.u16())
            try limits.checkTable(count, entrySize: idSize, available: entry.remaining, context: "\(context)/\(box.type)")
            total += Int(count)
            if total > limits.maximumTableEntries {
                throw .limitExceeded(
                    context: context, limit: "reference count", value: UInt64(total),
                    maximum: UInt64(limits.maximumTableEntries))
            }
            var targets: [UInt32] = []
            targets.reserveCapacity(Int(count))
            for _ in 0..<count { targets.append(try entry.unsignedID(size: idSize)) }
            references.append(HEIFItemReference(type: box.type, fromItemID: from, toItemIDs: targets))
        }
        return references
    }
}

extension ByteReader {
    /// Reads a 2- or 4-byte item id.
    mutating func unsignedID(size: Int) throws(FormatError) -> UInt32 {
        size == 2 ? UInt32(try u16()) : try u32()
    }
}
