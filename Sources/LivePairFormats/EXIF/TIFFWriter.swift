/// Writes a `TIFFDocument` as a classic TIFF block, laying every value out afresh: the header,
/// then each IFD of the chain followed by its out-of-line values, its sub-IFDs (Exif, GPS,
/// interoperability) and the data its offset tags point at (such as the IFD1 JPEG thumbnail).
/// Every entry is kept, in order, with its type, count and value bytes; only pointers change.
/// Values start on even offsets, as TIFF requires.
///
/// Blocks whose own offsets are relative to themselves (Apple's maker note) stay valid when
/// moved; maker notes with offsets relative to the TIFF header would not, which is why the JPEG
/// writer only relays blocks whose maker note is Apple's or its own.
public enum TIFFWriter {
    /// The bytes of `document`, starting with the byte-order mark.
    public static func write(_ document: TIFFDocument) throws(FormatError) -> [UInt8] {
        var writer = ByteWriter(littleEndian: document.littleEndian)
        writer.append(document.littleEndian ? [0x49, 0x49] : [0x4D, 0x4D])
        writer.u16(42)
        var pointerField = writer.count
        writer.u32(0)
        for directory in document.directories {
            writer.pad(toMultipleOf: 2)
            try patch(&writer, at: pointerField, with: writer.count)
            pointerField = try write(directory, into: &writer)
        }
        return writer.bytes
    }

    /// Writes one IFD and everything it owns; returns the index of its next-IFD field.
    private static func write(_ directory: TIFFDirectory, into writer: inout ByteWriter) throws(FormatError) -> Int {
        var entries = directory.entries
        for tag in directory.subdirectories.keys.sorted() where !entries.contains(where: { $0.tag == tag }) {
            let index = entries.firstIndex { $0.tag > tag } ?? entries.count
            entries.insert(TIFFRawEntry(tag: tag, type: .long, value: [0, 0, 0, 0]), at: index)
        }
        // Pointers are written as LONG so any offset fits.
        let pointerTags = Set(directory.subdirectories.keys).union(directory.dataBlocks.keys)
        for index in entries.indices where pointerTags.contains(entries[index].tag) && entries[index].type != TIFFValueType.ifd.rawValue {
            entries[index].type = TIFFValueType.long.rawValue
            entries[index].value = [UInt8](repeating: 0, count: Int(entries[index].count) * 4)
        }
        guard entries.count <= Int(UInt16.max) else {
            throw .limitExceeded(context: "TIFF IFD", limit: "entry count", value: UInt64(entries.count), maximum: UInt64(UInt16.max))
        }
        writer.u16(UInt16(entries.count))
        var fieldIndex: [Int] = []
        for entry in entries {
            writer.u16(entry.tag)
            writer.u16(entry.type)
            writer.u32(entry.count)
            fieldIndex.append(writer.count)
            if entry.valueSize <= 4 {
                writer.append(entry.value.prefix(4))
                writer.zeros(4 - min(entry.value.count, 4))
            } else {
                writer.u32(0)
            }
        }
        let nextField = writer.count
        writer.u32(0)
        // Out-of-line values; remember where each value is so pointer arrays can be patched.
        var valueIndex = fieldIndex
        for (index, entry) in entries.enumerated() where entry.valueSize > 4 {
            writer.pad(toMultipleOf: 2)
            try patch(&writer, at: fieldIndex[index], with: writer.count)
            valueIndex[index] = writer.count
            writer.append(entry.value)
        }
        for (index, entry) in entries.enumerated() {
            guard let sub = directory.subdirectories[entry.tag] else { continue }
            writer.pad(toMultipleOf: 2)
            try patch(&writer, at: valueIndex[index], with: writer.count)
            _ = try write(sub, into: &writer)
        }
        for (index, entry) in entries.enumerated() {
            guard let blocks = directory.dataBlocks[entry.tag], blocks.count == Int(entry.count) else { continue }
            for (blockIndex, block) in blocks.enumerated() {
                writer.pad(toMultipleOf: 2)
                try patch(&writer, at: valueIndex[index] + 4 * blockIndex, with: writer.count)
                writer.append(block)
            }
        }
        return nextField
    }

    private static func patch(_ writer: inout ByteWriter, at index: Int, with offset: Int) throws(FormatError) {
        guard offset <= Int(UInt32.max) else {
            throw .limitExceeded(context: "TIFF", limit: "offset", value: UInt64(offset), maximum: UInt64(UInt32.max))
        }
        writer.patchU32(UInt32(offset), at: index)
    }
}
