/// Reads one IFD out of a byte buffer whose offsets are relative to the buffer's first byte
/// (a TIFF block, or a maker note whose offsets are relative to its own start).
///
/// Classic IFDs have a u16 count, 12-byte entries (4-byte value field) and a u32 next offset;
/// BigTIFF IFDs have a u64 count, 20-byte entries (8-byte value field) and a u64 next offset.
/// Counts are checked against the bytes available before anything is allocated.
public struct TIFFIFDParser: Sendable {
    /// The bytes offsets are relative to.
    public let bytes: [UInt8]
    /// Whether integers are little-endian ("II").
    public let littleEndian: Bool
    /// Whether the layout is BigTIFF.
    public let bigTIFF: Bool
    /// The limits applied to entry counts and value sizes.
    public let limits: ParseLimits

    /// A parser over `bytes`.
    public init(bytes: [UInt8], littleEndian: Bool, bigTIFF: Bool = false, limits: ParseLimits = .default) {
        self.bytes = bytes
        self.littleEndian = littleEndian
        self.bigTIFF = bigTIFF
        self.limits = limits
    }

    /// Reads the IFD at `offset`. Throws when the entry table does not fit or exceeds the limits;
    /// single entries with an unknown type or an out-of-range value are skipped and counted.
    public func readIFD(at offset: Int, kind: TIFFIFDKind, context: String) throws(FormatError) -> TIFFIFD {
        var reader = ByteReader(bytes, context: context)
        reader.littleEndian = littleEndian
        guard offset >= 0, offset < bytes.count else {
            throw .invalid(context: context, reason: "IFD offset \(offset) is outside the data (\(bytes.count) bytes)")
        }
        try reader.seek(to: offset)
        let count: UInt64 = bigTIFF ? try reader.u64() : UInt64(try reader.u16())
        let entrySize = bigTIFF ? 20 : 12
        try limits.checkTable(count, entrySize: entrySize, available: reader.remaining, context: context)
        var entries: [TIFFEntry] = []
        entries.reserveCapacity(Int(count))
        var skipped = 0
        for _ in 0..<Int(count) {
            let entryStart = reader.position
            let tag = try reader.u16()
            let rawType = try reader.u16()
            let valueCount: UInt64 = bigTIFF ? try reader.u64() : UInt64(try reader.u32())
            let fieldStart = reader.position
            let fieldSize = bigTIFF ? 8 : 4
            try reader.seek(to: entryStart + entrySize)
            guard let type = TIFFValueType(rawValue: rawType) else {
                skipped += 1
                continue
            }
            let (total, overflow) = valueCount.multipliedReportingOverflow(by: UInt64(type.byteSize))
            guard !overflow, total <= UInt64(limits.maximumMetadataBytes) else {
                skipped += 1
                continue
            }
            let valueOffset: Int
            if total <= UInt64(fieldSize) {
                valueOffset = fieldStart
            } else {
                var field = try reader.reader(at: fieldStart, count: fieldSize)
                let pointer: UInt64 = bigTIFF ? try field.u64() : UInt64(try field.u32())
                guard pointer <= UInt64(bytes.count), UInt64(bytes.count) - pointer >= total else {
                    skipped += 1
                    continue
                }
                valueOffset = Int(pointer)
            }
            let value = Array(bytes[valueOffset..<valueOffset + Int(total)])
            entries.append(
                TIFFEntry(
                    tag: tag, type: type, count: valueCount, valueOffset: valueOffset, valueBytes: value,
                    littleEndian: littleEndian))
        }
        var next: UInt64 = 0
        if bigTIFF {
            if reader.remaining >= 8 { next = try reader.u64() }
        } else if reader.remaining >= 4 {
            next = UInt64(try reader.u32())
        }
        return TIFFIFD(kind: kind, offset: offset, entries: entries, nextIFDOffset: next, skippedEntryCount: skipped)
    }
}
