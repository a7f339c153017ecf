/// Builds Apple's maker note (the EXIF 0x927C value of iPhone stills): "Apple iOS\0", version 1,
/// the byte order ("MM"), an IFD of entries in ascending tag order, and a data area. Value
/// offsets are relative to the start of "Apple iOS", so the note can be moved as a whole.
///
/// Built from scratch (`MakerNoteVersion` and the content identifier) or from an existing note
/// whose entries are all kept, in which case only the content identifier changes.
public struct AppleMakerNoteBuilder: Sendable, Equatable {
    /// The header version (bytes 10-11), 1 in every known file.
    public var version: UInt16
    /// Whether entries are little-endian ("II"); Apple writes "MM".
    public var littleEndian: Bool
    /// The entries; kept in ascending tag order by `set(_:)`.
    public var entries: [TIFFRawEntry]

    /// Tag 0x0001, MakerNoteVersion (SLONG).
    public static let makerNoteVersionTag: UInt16 = 0x0001

    /// A new note holding MakerNoteVersion (`makerNoteVersion`, SLONG, as on iOS 14 stills).
    public init(makerNoteVersion: Int32 = 12) {
        version = 1
        littleEndian = false
        entries = []
        set(TIFFRawEntry(tag: Self.makerNoteVersionTag, type: .signedLong, value: ByteWriter.encode(UInt64(UInt32(bitPattern: makerNoteVersion)), byteCount: 4)))
    }

    /// Reads an existing Apple note, keeping every entry (unknown types keep their raw field).
    /// Returns nil when `bytes` are not an Apple maker note.
    public init?(parsing bytes: [UInt8], limits: ParseLimits = .default) throws(FormatError) {
        guard bytes.count >= 16, bytes[0..<10].elementsEqual(AppleMakerNote.signature) else { return nil }
        switch (bytes[12], bytes[13]) {
        case (0x4D, 0x4D): littleEndian = false
        case (0x49, 0x49): littleEndian = true
        default: return nil
        }
        version = UInt16(bytes[10]) << 8 | UInt16(bytes[11])
        var reader = ByteReader(bytes, context: "Apple maker note")
        reader.littleEndian = littleEndian
        try reader.seek(to: 14)
        let count = Int(try reader.u16())
        try limits.checkTable(UInt64(count), entrySize: 12, available: reader.remaining, context: "Apple maker note")
        entries = []
        for _ in 0..<count {
            let tag = try reader.u16()
            let type = try reader.u16()
            let valueCount = try reader.u32()
            var field = try reader.subReader(count: 4)
            guard let known = TIFFValueType(rawValue: type) else {
                entries.append(TIFFRawEntry(tag: tag, type: type, count: valueCount, value: field.rest()))
                continue
            }
            let size = UInt64(valueCount) * UInt64(known.byteSize)
            if size <= 4 {
                entries.append(TIFFRawEntry(tag: tag, type: type, count: valueCount, value: Array(field.rest().prefix(Int(size)))))
            } else {
                let pointer = UInt64(try field.u32())
                guard pointer <= UInt64(bytes.count), UInt64(bytes.count) - pointer >= size else {
                    throw .invalid(context: "Apple maker note tag 0x\(String(tag, radix: 16))", reason: "value lies outside the note")
                }
                entries.append(TIFFRawEntry(tag: tag, type: type, count: valueCount, value: Array(bytes[Int(pointer)..<Int(pointer + size)])))
            }
        }
    }

    /// Sets `entry`, replacing the entry with its tag or inserting it in ascending order.
    public mutating func set(_ entry: TIFFRawEntry) {
        if let index = entries.firstIndex(where: { $0.tag == entry.tag }) {
            entries[index] = entry
        } else {
            entries.insert(entry, at: entries.firstIndex { $0.tag > entry.tag } ?? entries.count)
        }
    }

    /// Sets tag 0x0011 (ContentIdentifier): ASCII, the identifier and a NUL (37 bytes for a UUID).
    public mutating func setContentIdentifier(_ identifier: String) {
        set(TIFFRawEntry(tag: AppleMakerNote.contentIdentifierTag, type: .ascii, value: Array(identifier.utf8) + [0]))
    }

    /// The note's bytes: header, IFD (count, entries, next offset 0), then the data area.
    public func build() -> [UInt8] {
        var writer = ByteWriter(littleEndian: littleEndian)
        writer.append(AppleMakerNote.signature)
        writer.append(ByteWriter.encode(UInt64(version), byteCount: 2))
        writer.append(littleEndian ? [0x49, 0x49] : [0x4D, 0x4D])
        writer.u16(UInt16(entries.count))
        var fields: [Int] = []
        for entry in entries {
            writer.u16(entry.tag)
            writer.u16(entry.type)
            writer.u32(entry.count)
            fields.append(writer.count)
            if entry.valueSize <= 4 {
                writer.append(entry.value.prefix(4))
                writer.zeros(4 - min(entry.value.count, 4))
            } else {
                writer.u32(0)
            }
        }
        writer.u32(0)
        for (index, entry) in entries.enumerated() where entry.valueSize > 4 {
            writer.pad(toMultipleOf: 2)
            writer.patchU32(UInt32(writer.count), at: fields[index])
            writer.append(entry.value)
        }
        return writer.bytes
    }
}
