/// The Multi-Picture Format index of a JPEG (CIPA DC-007): an APP2 segment `MPF\0` followed by a
/// TIFF header and an IFD whose MP Entry tag (0xB002) lists every image with its size and its
/// offset, counted from that TIFF header (the first image, the primary, at offset 0). Ultra HDR
/// JPEGs index their gain map this way (`plain/pixel_8.jpg`).
///
/// A rewrite that changes the size of a segment (the Exif or XMP APP1) changes the primary's size,
/// and the offsets of the images behind it when the change lies between them and the index:
/// `rewritten(primaryLength:map:)` gives the segment with every size and offset updated, the same
/// length as before, so that a reader cutting the primary at its MPF length or seeking to the gain
/// map by its offset finds them.
struct JPEGMultiPictureIndex {
    /// The input range of the whole APP2 segment (marker to end).
    let segmentRange: Range<UInt64>
    /// The segment's bytes (marker included).
    let segment: [UInt8]
    /// Index in `segment` of the TIFF header (the origin of the offsets).
    let headerIndex: Int
    /// Byte order of the index.
    let littleEndian: Bool
    /// Index in `segment` of the first 16-byte MP entry.
    let entriesIndex: Int
    /// The number of MP entries.
    let entryCount: Int

    /// A part of an input range to write: a copy, or the index's new bytes.
    enum Part: Equatable {
        case copy(Range<UInt64>)
        case bytes([UInt8])
    }

    /// The index of the JPEG read as `structure` from `source`; nil when it has none or it does not
    /// read (then it is copied as it is).
    static func read(_ structure: JPEGStructure, from source: any ByteSource) -> JPEGMultiPictureIndex? {
        let signature = Array("MPF".utf8) + [0]
        for segment in structure.segments where segment.marker == 0xE2 && segment.payloadLength >= 16 {
            guard let head = try? source.read(at: segment.payloadFileOffset, count: 4), head == signature else { continue }
            let range = segment.fileOffset..<segment.payloadFileOffset + UInt64(segment.payloadLength)
            guard let bytes = try? source.read(at: range.lowerBound, count: Int(range.count)), bytes.count == range.count else {
                return nil
            }
            return JPEGMultiPictureIndex(range: range, bytes: bytes, headerIndex: Int(segment.payloadFileOffset - range.lowerBound) + 4)
        }
        return nil
    }

    private init?(range: Range<UInt64>, bytes: [UInt8], headerIndex: Int) {
        guard headerIndex + 8 <= bytes.count else { return nil }
        let order = Array(bytes[headerIndex..<headerIndex + 2])
        guard order == [0x49, 0x49] || order == [0x4D, 0x4D] else { return nil }
        segmentRange = range
        segment = bytes
        self.headerIndex = headerIndex
        littleEndian = order == [0x49, 0x49]
        var found: (index: Int, count: Int)?
        if let ifd = Self.number(bytes, at: headerIndex + 4, size: 4, littleEndian: littleEndian),
            let count = Self.number(bytes, at: headerIndex + Int(ifd), size: 2, littleEndian: littleEndian)
        {
            let first = headerIndex + Int(ifd) + 2
            for entry in 0..<Int(count) {
                let at = first + entry * 12
                guard let tag = Self.number(bytes, at: at, size: 2, littleEndian: littleEndian),
                    let length = Self.number(bytes, at: at + 4, size: 4, littleEndian: littleEndian),
                    let offset = Self.number(bytes, at: at + 8, size: 4, littleEndian: littleEndian)
                else { break }
                if tag == 0xB002 {
                    let start = headerIndex + Int(offset)
                    guard length % 16 == 0, length > 0, start + Int(length) <= bytes.count else { return nil }
                    found = (start, Int(length / 16))
                }
            }
        }
        guard let found else { return nil }
        entriesIndex = found.index
        entryCount = found.count
    }

    /// The input file offset of the TIFF header the offsets count from.
    var headerFileOffset: UInt64 { segmentRange.lowerBound + UInt64(headerIndex) }

    /// Each image's size and offset (0 for the primary), as stored.
    var entries: [(size: UInt32, offset: UInt32)] {
        (0..<entryCount).map { entry in
            let at = entriesIndex + entry * 16
            return (
                UInt32(Self.number(segment, at: at + 4, size: 4, littleEndian: littleEndian) ?? 0),
                UInt32(Self.number(segment, at: at + 8, size: 4, littleEndian: littleEndian) ?? 0)
            )
        }
    }

    /// The segment for an output whose primary image is `primaryLength` bytes and in which input
    /// byte `x` lands at `map(x)` (nil: not written). An image that is not written, or whose new
    /// value does not fit 32 bits, keeps its entry.
    func rewritten(primaryLength: UInt64, map: (UInt64) -> UInt64?) -> [UInt8] {
        var bytes = segment
        guard let header = map(headerFileOffset) else { return bytes }
        for (entry, value) in entries.enumerated() {
            let at = entriesIndex + entry * 16
            if entry == 0 {
                if value.offset == 0, primaryLength <= UInt64(UInt32.max) { write(primaryLength, into: &bytes, at: at + 4) }
                continue
            }
            guard value.offset > 0, let moved = map(headerFileOffset + UInt64(value.offset)), moved > header,
                moved - header <= UInt64(UInt32.max)
            else { continue }
            write(moved - header, into: &bytes, at: at + 8)
        }
        return bytes
    }

    /// The parts of the output of a rewrite that writes `newLength` bytes in place of the input's
    /// `replaced` range (a segment, or an empty range where one is inserted) and copies
    /// `0..<replaced.lowerBound` and `replaced.upperBound..<end`, the primary image ending at
    /// `imageEnd`: the copies, with this index updated. The parts before `replaced` come first.
    func parts(
        replacing replaced: Range<UInt64>, newLength: Int, end: UInt64, imageEnd: UInt64
    ) -> (before: [Part], after: [Part]) {
        let grown = Int64(newLength) - Int64(replaced.upperBound - replaced.lowerBound)
        let shifted = { (offset: UInt64) -> UInt64 in offset < replaced.lowerBound ? offset : UInt64(Int64(offset) + grown) }
        let patched = rewritten(primaryLength: shifted(imageEnd)) { offset in
            offset < end && !(replaced.lowerBound..<replaced.upperBound).contains(offset) ? shifted(offset) : nil
        }
        return (parts(of: 0..<replaced.lowerBound, patched: patched), parts(of: replaced.upperBound..<end, patched: patched))
    }

    /// `range` of the input as parts: copies, with the bytes of this segment replaced by `patched`.
    func parts(of range: Range<UInt64>, patched: [UInt8]) -> [Part] {
        guard range.lowerBound <= segmentRange.lowerBound, segmentRange.upperBound <= range.upperBound else {
            return range.isEmpty ? [] : [.copy(range)]
        }
        var parts: [Part] = []
        if range.lowerBound < segmentRange.lowerBound { parts.append(.copy(range.lowerBound..<segmentRange.lowerBound)) }
        parts.append(.bytes(patched))
        if segmentRange.upperBound < range.upperBound { parts.append(.copy(segmentRange.upperBound..<range.upperBound)) }
        return parts
    }

    private func write(_ value: UInt64, into bytes: inout [UInt8], at index: Int) {
        bytes.replaceSubrange(index..<index + 4, with: ByteWriter.encode(value, byteCount: 4, littleEndian: littleEndian))
    }

    private static func number(_ bytes: [UInt8], at index: Int, size: Int, littleEndian: Bool) -> UInt64? {
        guard index >= 0, index + size <= bytes.count else { return nil }
        let slice = bytes[index..<index + size]
        return (littleEndian ? Array(slice.reversed()) : Array(slice)).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
