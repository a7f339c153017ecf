/// A bounds-checked cursor over a byte buffer.
///
/// Every read checks the bytes that remain by subtraction and throws `FormatError.truncated`
/// instead of trapping. A reader can be narrowed to a sub-range (`subReader(count:)`) so a child
/// structure can never read past its parent. `fileOffset` maps positions back to file offsets.
public struct ByteReader: Sendable {
    /// The whole underlying buffer; the reader sees `bytes[position..<end]`.
    public let bytes: [UInt8]
    /// Index of the next byte to read.
    public private(set) var position: Int
    /// Index one past the last byte this reader may read.
    public let end: Int
    /// File offset of `bytes[0]`, so `fileOffset(of:)` can report absolute positions.
    public let baseFileOffset: UInt64
    /// Names the structure being read, for error messages.
    public var context: String
    /// Whether multi-byte integers are little-endian (TIFF "II"); big-endian by default.
    public var littleEndian: Bool = false

    /// A reader over all of `bytes`, whose first byte sits at `baseFileOffset` in its file.
    public init(_ bytes: [UInt8], baseFileOffset: UInt64 = 0, context: String = "data") {
        self.bytes = bytes
        self.position = 0
        self.end = bytes.count
        self.baseFileOffset = baseFileOffset
        self.context = context
    }

    private init(bytes: [UInt8], position: Int, end: Int, base: UInt64, context: String, littleEndian: Bool) {
        self.bytes = bytes
        self.position = position
        self.end = end
        self.baseFileOffset = base
        self.context = context
        self.littleEndian = littleEndian
    }

    /// Bytes left to read.
    public var remaining: Int { end - position }
    /// True when nothing is left.
    public var isAtEnd: Bool { position >= end }
    /// The file offset of the next byte.
    public var currentFileOffset: UInt64 { baseFileOffset + UInt64(position) }

    /// Throws `truncated` unless `count` bytes remain.
    @inline(__always)
    public func require(_ count: Int) throws(FormatError) {
        if count < 0 || remaining < count {
            throw .truncated(context: context, needed: UInt64(max(count, 0)), available: UInt64(max(remaining, 0)))
        }
    }

    /// Reads one byte.
    @inline(__always)
    public mutating func u8() throws(FormatError) -> UInt8 {
        try require(1)
        defer { position += 1 }
        return bytes[position]
    }

    /// Reads a 16-bit unsigned integer in the reader's byte order.
    @inline(__always)
    public mutating func u16() throws(FormatError) -> UInt16 {
        try require(2)
        let a = UInt16(bytes[position]), b = UInt16(bytes[position + 1])
        position += 2
        return littleEndian ? (b << 8 | a) : (a << 8 | b)
    }

    /// Reads a 24-bit unsigned integer in the reader's byte order.
    public mutating func u24() throws(FormatError) -> UInt32 {
        try require(3)
        let a = UInt32(bytes[position]), b = UInt32(bytes[position + 1]), c = UInt32(bytes[position + 2])
        position += 3
        return littleEndian ? (c << 16 | b << 8 | a) : (a << 16 | b << 8 | c)
    }

    /// Reads a 32-bit unsigned integer in the reader's byte order.
    @inline(__always)
    public mutating func u32() throws(FormatError) -> UInt32 {
        try require(4)
        var value: UInt32 = 0
        if littleEndian {
            for index in (0..<4).reversed() { value = value << 8 | UInt32(bytes[position + index]) }
        } else {
            for index in 0..<4 { value = value << 8 | UInt32(bytes[position + index]) }
        }
        position += 4
        return value
    }

    /// Reads a 64-bit unsigned integer in the reader's byte order.
    public mutating func u64() throws(FormatError) -> UInt64 {
        try require(8)
        var value: UInt64 = 0
        if littleEndian {
            for index in (0..<8).reversed() { value = value << 8 | UInt64(bytes[position + index]) }
        } else {
            for index in 0..<8 { value = value << 8 | UInt64(bytes[position + index]) }
        }
        position += 8
        return value
    }

    /// Reads an unsigned integer of 0, 1, 2, 4 or 8 bytes (as in HEIF `iloc` fields).
    public mutating func unsigned(byteCount: Int) throws(FormatError) -> UInt64 {
        switch byteCount {
        case 0: return 0
        case 1: return UInt64(try u8())
        case 2: return UInt64(try u16())
        case 4: return UInt64(try u32())
        case 8: return try u64()
        default: throw .invalid(context: context, reason: "field size of \(byteCount) bytes is not 0, 1, 2, 4 or 8")
        }
    }

    /// Reads a signed 8-bit integer.
    public mutating func i8() throws(FormatError) -> Int8 { Int8(bitPattern: try u8()) }
    /// Reads a signed 16-bit integer.
    public mutating func i16() throws(FormatError) -> Int16 { Int16(bitPattern: try u16()) }
    /// Reads a signed 32-bit integer.
    public mutating func i32() throws(FormatError) -> Int32 { Int32(bitPattern: try u32()) }
    /// Reads a signed 64-bit integer.
    public mutating func i64() throws(FormatError) -> Int64 { Int64(bitPattern: try u64()) }

    /// Reads a four-character code.
    public mutating func fourCC() throws(FormatError) -> FourCC { FourCC(rawValue: try u32BigEndian()) }

    private mutating func u32BigEndian() throws(FormatError) -> UInt32 {
        let saved = littleEndian
        littleEndian = false
        defer { littleEndian = saved }
        return try u32()
    }

    /// Reads `count` bytes into a new array.
    public mutating func bytes(_ count: Int) throws(FormatError) -> [UInt8] {
        try require(count)
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// Reads the rest of the reader's range.
    public mutating func rest() -> [UInt8] {
        defer { position = end }
        return position < end ? Array(bytes[position..<end]) : []
    }

    /// Skips `count` bytes.
    public mutating func skip(_ count: Int) throws(FormatError) {
        try require(count)
        position += count
    }

    /// Moves to an absolute index within the reader's range (`0...end`).
    public mutating func seek(to index: Int) throws(FormatError) {
        guard index >= 0, index <= end else {
            throw .invalid(context: context, reason: "offset \(index) is outside the data (\(end) bytes)")
        }
        position = index
    }

    /// A reader over the next `count` bytes, which this reader then skips.
    public mutating func subReader(count: Int, context: String? = nil) throws(FormatError) -> ByteReader {
        try require(count)
        let child = ByteReader(
            bytes: bytes, position: position, end: position + count, base: baseFileOffset,
            context: context ?? self.context, littleEndian: littleEndian)
        position += count
        return child
    }

    /// A reader over `range` of the underlying buffer (absolute indices), checked against this reader's end.
    public func reader(at start: Int, count: Int, context: String? = nil) throws(FormatError) -> ByteReader {
        guard start >= 0, count >= 0, start <= end, end - start >= count else {
            throw .truncated(
                context: context ?? self.context, needed: UInt64(max(count, 0)),
                available: UInt64(max(end - max(start, 0), 0)))
        }
        return ByteReader(
            bytes: bytes, position: start, end: start + count, base: baseFileOffset,
            context: context ?? self.context, littleEndian: littleEndian)
    }

    /// Reads a NUL-terminated string (UTF-8, lossy), consuming the terminator; without one, reads to the end.
    public mutating func cString() -> String {
        var stop = position
        while stop < end, bytes[stop] != 0 { stop += 1 }
        let text = String(decoding: bytes[position..<stop], as: UTF8.self)
        position = stop < end ? stop + 1 : end
        return text
    }

    /// Reads `count` bytes as a string (UTF-8, lossy), dropping trailing NUL bytes.
    public mutating func string(_ count: Int) throws(FormatError) -> String {
        try require(count)
        var stop = position + count
        while stop > position, bytes[stop - 1] == 0 { stop -= 1 }
        let text = String(decoding: bytes[position..<stop], as: UTF8.self)
        position += count
        return text
    }

    /// Peeks at `count` bytes without consuming them; nil when fewer remain.
    public func peek(_ count: Int) -> ArraySlice<UInt8>? {
        remaining >= count ? bytes[position..<position + count] : nil
    }
}
