/// Builds TIFF blocks, IFDs and Apple maker notes byte by byte for tests, including lying entry
/// counts, value counts and IFD offsets (loops).
public enum TIFFBuilder {
    /// One IFD entry. Values of up to four bytes are stored in the entry; longer ones after the table.
    public struct Entry: Sendable {
        /// The tag.
        public var tag: UInt16
        /// The raw type code (3 SHORT, 4 LONG, 2 ASCII, 7 UNDEFINED, ...; unknown codes allowed).
        public var type: UInt16
        /// The value count written in the entry (may lie about `value`).
        public var count: UInt32
        /// The value bytes, already in the block's byte order.
        public var value: [UInt8]
        /// When set, written in the value field instead of a computed offset or inline value.
        public var rawField: UInt32?

        /// An entry with explicit fields.
        public init(tag: UInt16, type: UInt16, count: UInt32, value: [UInt8], rawField: UInt32? = nil) {
            self.tag = tag
            self.type = type
            self.count = count
            self.value = value
            self.rawField = rawField
        }
    }

    /// `value` as `size` bytes in the given byte order.
    public static func integer(_ value: UInt64, _ size: Int, littleEndian: Bool) -> [UInt8] {
        let bigEndian = BoxBuilder.bigEndian(value, size)
        return littleEndian ? bigEndian.reversed() : bigEndian
    }

    /// A SHORT entry with one value.
    public static func short(_ tag: UInt16, _ value: UInt16, littleEndian: Bool = false) -> Entry {
        Entry(tag: tag, type: 3, count: 1, value: integer(UInt64(value), 2, littleEndian: littleEndian))
    }

    /// A LONG entry with one value (also used for sub-IFD pointers).
    public static func long(_ tag: UInt16, _ value: UInt32, littleEndian: Bool = false) -> Entry {
        Entry(tag: tag, type: 4, count: 1, value: integer(UInt64(value), 4, littleEndian: littleEndian))
    }

    /// An ASCII entry (NUL-terminated).
    public static func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
    }

    /// An IFD table placed at `offset` (relative to what offsets count from): a u16 count
    /// (`declaredCount`, or the number of entries), the entries, the next-IFD offset, then the
    /// values that do not fit in four bytes.
    public static func ifd(
        at offset: Int, entries: [Entry], next: UInt32 = 0, declaredCount: UInt16? = nil, littleEndian: Bool = false
    ) -> [UInt8] {
        func int(_ value: UInt64, _ size: Int) -> [UInt8] { integer(value, size, littleEndian: littleEndian) }
        var table = int(UInt64(declaredCount ?? UInt16(entries.count)), 2)
        var external: [UInt8] = []
        let externalStart = offset + 2 + 12 * entries.count + 4
        for entry in entries {
            table += int(UInt64(entry.tag), 2) + int(UInt64(entry.type), 2) + int(UInt64(entry.count), 4)
            if let raw = entry.rawField {
                table += int(UInt64(raw), 4)
            } else if entry.value.count <= 4 {
                table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                table += int(UInt64(externalStart + external.count), 4)
                external += entry.value
                if external.count % 2 == 1 { external.append(0) }
            }
        }
        return table + int(UInt64(next), 4) + external
    }

    /// A TIFF header ("MM\0*" or "II*\0") pointing at `firstIFD`.
    public static func header(littleEndian: Bool = false, firstIFD: UInt32 = 8) -> [UInt8] {
        (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + integer(42, 2, littleEndian: littleEndian)
            + integer(UInt64(firstIFD), 4, littleEndian: littleEndian)
    }

    /// A TIFF block: header, then IFD0 at offset 8 with `entries` and `next`.
    public static func tiff(
        littleEndian: Bool = false, entries: [Entry], next: UInt32 = 0, declaredCount: UInt16? = nil
    ) -> [UInt8] {
        header(littleEndian: littleEndian)
            + ifd(at: 8, entries: entries, next: next, declaredCount: declaredCount, littleEndian: littleEndian)
    }

    /// An Apple maker note: "Apple iOS\0", version 1, "MM", then an IFD at offset 14 whose
    /// offsets count from the start of the note.
    public static func appleMakerNote(entries: [Entry], declaredCount: UInt16? = nil) -> [UInt8] {
        Array("Apple iOS".utf8) + [0, 0, 1, 0x4D, 0x4D]
            + ifd(at: 14, entries: entries, declaredCount: declaredCount)
    }
}
