/// One entry of a Samsung SEF directory (SEFH), with its data block located in the file.
public struct SamsungSEFEntry: Sendable, Equatable {
    /// The entry type (0x0A30 for MotionPhoto_Data).
    public let type: UInt16
    /// The name stored in the data block ("MotionPhoto_Data", "Image_UTC_Data", ...).
    public let name: String
    /// File offset of the data block (its 8-byte header, then the name).
    public let blockFileOffset: UInt64
    /// Size of the whole data block.
    public let blockSize: UInt64
    /// File offset of the data after the name.
    public let dataFileOffset: UInt64
    /// Length of the data after the name.
    public let dataLength: UInt64

    /// Memberwise initializer.
    public init(
        type: UInt16, name: String, blockFileOffset: UInt64, blockSize: UInt64, dataFileOffset: UInt64,
        dataLength: UInt64
    ) {
        self.type = type
        self.name = name
        self.blockFileOffset = blockFileOffset
        self.blockSize = blockSize
        self.dataFileOffset = dataFileOffset
        self.dataLength = dataLength
    }
}

/// The little-endian Samsung SEF trailer at the end of a file:
/// `... data blocks ... 'SEFH' u32 version, u32 count, count x {u16 0, u16 type, u32 offset back
/// from SEFH, u32 size} ... u32 length of the SEFH block, 'SEFT'`.
public struct SamsungSEFTrailer: Sendable, Equatable {
    /// The entry type of the embedded motion-photo video.
    public static let motionPhotoDataType: UInt16 = 0x0A30
    /// Most SEF entries accepted.
    public static let maximumEntryCount = 4096

    /// File offset of the "SEFH" marker.
    public let directoryFileOffset: UInt64
    /// The SEF version field.
    public let version: UInt32
    /// The entries in directory order.
    public let entries: [SamsungSEFEntry]

    /// Memberwise initializer.
    public init(directoryFileOffset: UInt64, version: UInt32, entries: [SamsungSEFEntry]) {
        self.directoryFileOffset = directoryFileOffset
        self.version = version
        self.entries = entries
    }

    /// File offset of the first byte of the SEF data (the lowest data block), the end of what precedes it.
    public var startFileOffset: UInt64 { entries.map(\.blockFileOffset).min() ?? directoryFileOffset }

    /// The MotionPhoto_Data entry, by type or name.
    public var motionPhotoData: SamsungSEFEntry? {
        entries.first { $0.type == Self.motionPhotoDataType || $0.name == "MotionPhoto_Data" }
    }

    /// Reads the trailer of `source`; nil when the file does not end with 'SEFT'. Throws when the
    /// trailer is present but inconsistent.
    public static func read(_ source: any ByteSource, limits: ParseLimits = .default) throws(FormatError) -> SamsungSEFTrailer? {
        let size = source.size
        guard size >= 8 + 12 else { return nil }
        var tail = try source.reader(at: size - 8, count: 8, context: "SEF trailer")
        tail.littleEndian = true
        let directoryLength = UInt64(try tail.u32())
        guard try tail.fourCC() == "SEFT" else { return nil }
        guard directoryLength >= 12, directoryLength <= size - 8 else {
            throw .invalid(context: "SEF trailer", reason: "SEFH length \(directoryLength) does not fit the file")
        }
        try limits.checkMetadataSize(directoryLength, context: "SEF directory")
        let directoryOffset = size - 8 - directoryLength
        var reader = try source.reader(at: directoryOffset, count: Int(directoryLength), context: "SEF directory")
        reader.littleEndian = true
        guard try reader.fourCC() == "SEFH" else {
            throw .invalid(context: "SEF directory", reason: "'SEFH' not found where the trailer points")
        }
        let version = try reader.u32()
        let count = try reader.u32()
        if count > UInt32(maximumEntryCount) {
            throw .limitExceeded(
                context: "SEF directory", limit: "entry count", value: UInt64(count), maximum: UInt64(maximumEntryCount))
        }
        try limits.checkTable(UInt64(count), entrySize: 12, available: reader.remaining, context: "SEF directory")
        var entries: [SamsungSEFEntry] = []
        for _ in 0..<Int(count) {
            _ = try reader.u16()
            let type = try reader.u16()
            let back = UInt64(try reader.u32())
            let blockSize = UInt64(try reader.u32())
            guard back <= directoryOffset, blockSize >= 8, blockSize <= back else { continue }
            let blockOffset = directoryOffset - back
            var header = try source.reader(
                at: blockOffset, count: Int(min(blockSize, 8 + 256)), context: "SEF data block")
            header.littleEndian = true
            _ = try header.u16()
            _ = try header.u16()
            let nameLength = UInt64(try header.u32())
            guard nameLength <= 256, 8 + nameLength <= blockSize, Int(nameLength) <= header.remaining else { continue }
            let name = try header.string(Int(nameLength))
            entries.append(
                SamsungSEFEntry(
                    type: type, name: name, blockFileOffset: blockOffset, blockSize: blockSize,
                    dataFileOffset: blockOffset + 8 + nameLength, dataLength: blockSize - 8 - nameLength))
        }
        return SamsungSEFTrailer(directoryFileOffset: directoryOffset, version: version, entries: entries)
    }

    /// A trailer holding only the entries `include` selects: their data blocks copied from `source`
    /// in file order, then a new SEFH directory (entries in directory order, offsets counted back
    /// from it), its length and `SEFT`. Nil when no entry is kept. A still that loses its video
    /// keeps Samsung's other records (capture time, MCC, camera mode) this way.
    public func rewritten(
        keeping include: (SamsungSEFEntry) -> Bool, from source: any ByteSource, limits: ParseLimits = .default
    ) throws(FormatError) -> [UInt8]? {
        let kept = entries.filter(include)
        guard !kept.isEmpty else { return nil }
        let total = kept.reduce(UInt64(0)) { $0 + $1.blockSize }
        try limits.checkMetadataSize(total, context: "SEF data blocks")
        var blocks: [UInt8] = []
        var starts: [UInt64: UInt64] = [:]
        for entry in kept.sorted(by: { $0.blockFileOffset < $1.blockFileOffset }) where starts[entry.blockFileOffset] == nil {
            starts[entry.blockFileOffset] = UInt64(blocks.count)
            blocks += try source.readExactly(at: entry.blockFileOffset, count: Int(entry.blockSize), context: "SEF data block")
        }
        let directoryStart = UInt64(blocks.count)
        var writer = ByteWriter(capacity: blocks.count + 20 + 12 * kept.count)
        writer.append(blocks)
        writer.fourCC("SEFH")
        writer.append(ByteWriter.encode(UInt64(version), byteCount: 4, littleEndian: true))
        writer.append(ByteWriter.encode(UInt64(kept.count), byteCount: 4, littleEndian: true))
        for entry in kept {
            writer.append(ByteWriter.encode(0, byteCount: 2, littleEndian: true))
            writer.append(ByteWriter.encode(UInt64(entry.type), byteCount: 2, littleEndian: true))
            writer.append(ByteWriter.encode(directoryStart - (starts[entry.blockFileOffset] ?? 0), byteCount: 4, littleEndian: true))
            writer.append(ByteWriter.encode(entry.blockSize, byteCount: 4, littleEndian: true))
        }
        writer.append(ByteWriter.encode(UInt64(12 + 12 * kept.count), byteCount: 4, littleEndian: true))
        writer.fourCC("SEFT")
        return writer.bytes
    }
}
