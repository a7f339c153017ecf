/// One extent of an item's data (from `iloc`).
public struct HEIFExtent: Sendable, Equatable {
    /// The extent index (when `index_size` > 0), otherwise 0.
    public let index: UInt64
    /// Offset, relative to the item's base offset.
    public let offset: UInt64
    /// Length in bytes; 0 means "to the end of the referenced data".
    public let length: UInt64

    /// Memberwise initializer.
    public init(index: UInt64, offset: UInt64, length: UInt64) {
        self.index = index
        self.offset = offset
        self.length = length
    }
}

/// Where an item's data is stored (`iloc` entry).
public struct HEIFItemLocation: Sendable, Equatable {
    /// Where offsets point.
    public enum ConstructionMethod: Sendable, Equatable {
        /// 0: offsets into the file.
        case fileOffset
        /// 1: offsets into the `idat` box's payload.
        case idatOffset
        /// 2: offsets into another item's data (not supported for reading).
        case itemOffset
        /// Another value (invalid).
        case other(UInt8)

        init(_ value: UInt8) {
            switch value {
            case 0: self = .fileOffset
            case 1: self = .idatOffset
            case 2: self = .itemOffset
            default: self = .other(value)
            }
        }
    }

    /// The item id.
    public let itemID: UInt32
    /// How offsets are interpreted.
    public let constructionMethod: ConstructionMethod
    /// 0 for "this file"; other values name external data references (not supported for reading).
    public let dataReferenceIndex: UInt16
    /// Added to every extent offset.
    public let baseOffset: UInt64
    /// The extents, in order; their concatenation is the item's data.
    public let extents: [HEIFExtent]

    /// Memberwise initializer.
    public init(
        itemID: UInt32, constructionMethod: ConstructionMethod, dataReferenceIndex: UInt16, baseOffset: UInt64,
        extents: [HEIFExtent]
    ) {
        self.itemID = itemID
        self.constructionMethod = constructionMethod
        self.dataReferenceIndex = dataReferenceIndex
        self.baseOffset = baseOffset
        self.extents = extents
    }
}

/// Reads `iloc` versions 0, 1 and 2.
enum HEIFItemLocationParser {
    /// Parses an `iloc` payload (starting at its version and flags).
    static func parse(_ payload: ByteReader, limits: ParseLimits) throws(FormatError) -> [HEIFItemLocation] {
        var reader = payload
        let context = "meta/iloc"
        reader.context = context
        let header = try FullBoxHeader(&reader)
        guard header.version <= 2 else {
            throw .unsupported(context: context, reason: "iloc version \(header.version)")
        }
        let sizes = try reader.u8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0x0F)
        let sizes2 = try reader.u8()
        let baseOffsetSize = Int(sizes2 >> 4)
        let indexSize = header.version >= 1 ? Int(sizes2 & 0x0F) : 0
        for size in [offsetSize, lengthSize, baseOffsetSize, indexSize] where ![0, 1, 2, 4, 8].contains(size) {
            throw .invalid(context: context, reason: "field size \(size) is not 0, 4 or 8")
        }
        let count: UInt64 = header.version < 2 ? UInt64(try reader.u16()) : UInt64(try reader.u32())
        if count > UInt64(limits.maximumItemCount) {
            throw .limitExceeded(
                context: context, limit: "item count", value: count, maximum: UInt64(limits.maximumItemCount))
        }
        let idSize = header.version < 2 ? 2 : 4
        let methodSize = header.version >= 1 ? 2 : 0
        let entrySize = idSize + methodSize + 2 + baseOffsetSize + 2
        try limits.checkTable(count, entrySize: entrySize, available: reader.remaining, context: context)
        let extentSize = indexSize + offsetSize + lengthSize
        var locations: [HEIFItemLocation] = []
        locations.reserveCapacity(Int(count))
        var totalExtents: UInt64 = 0
        for _ in 0..<count {
            let itemID: UInt32 = header.version < 2 ? UInt32(try reader.u16()) : try reader.u32()
            var method: UInt8 = 0
            if header.version >= 1 { method = UInt8(try reader.u16() & 0x0F) }
            let dataReference = try reader.u16()
            let base = try reader.unsigned(byteCount: baseOffsetSize)
            let extentCount = UInt64(try reader.u16())
            totalExtents += extentCount
            if totalExtents > UInt64(limits.maximumTableEntries) {
                throw .limitExceeded(
                    context: context, limit: "extent count", value: totalExtents,
                    maximum: UInt64(limits.maximumTableEntries))
            }
            try limits.checkTable(extentCount, entrySize: extentSize, available: reader.remaining, context: context)
            var extents: [HEIFExtent] = []
            extents.reserveCapacity(Int(extentCount))
            for _ in 0..<extentCount {
                let index = try reader.unsigned(byteCount: indexSize)
                let offset = try reader.unsigned(byteCount: offsetSize)
                let length = try reader.unsigned(byteCount: lengthSize)
                extents.append(HEIFExtent(index: index, offset: offset, length: length))
            }
            locations.append(
                HEIFItemLocation(
                    itemID: itemID, constructionMethod: .init(method), dataReferenceIndex: dataReference,
                    baseOffset: base, extents: extents))
        }
        return locations
    }
}
