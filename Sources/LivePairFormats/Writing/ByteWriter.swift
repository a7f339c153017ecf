/// Builds a byte buffer: big- or little-endian integers, four-character codes and raw bytes.
///
/// The counterpart of `ByteReader` for the writers. Values that must be filled in later (a box
/// size, an offset) are reserved with a placeholder and patched with `patchU32(_:at:)`.
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]
    /// Whether multi-byte integers are written little-endian (TIFF "II"); big-endian by default.
    public var littleEndian: Bool

    /// An empty writer; `capacity` reserves space up front.
    public init(capacity: Int = 0, littleEndian: Bool = false) {
        bytes = []
        bytes.reserveCapacity(capacity)
        self.littleEndian = littleEndian
    }

    /// Number of bytes written.
    public var count: Int { bytes.count }

    /// Appends one byte.
    public mutating func u8(_ value: UInt8) { bytes.append(value) }

    /// Appends a 16-bit integer in the writer's byte order.
    public mutating func u16(_ value: UInt16) { integer(UInt64(value), byteCount: 2) }

    /// Appends a 24-bit integer (the low 24 bits of `value`) in the writer's byte order.
    public mutating func u24(_ value: UInt32) { integer(UInt64(value & 0xFF_FFFF), byteCount: 3) }

    /// Appends a 32-bit integer in the writer's byte order.
    public mutating func u32(_ value: UInt32) { integer(UInt64(value), byteCount: 4) }

    /// Appends a 64-bit integer in the writer's byte order.
    public mutating func u64(_ value: UInt64) { integer(value, byteCount: 8) }

    /// Appends a signed 32-bit integer (two's complement).
    public mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }

    /// Appends a signed 64-bit integer (two's complement).
    public mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }

    /// Appends a four-character code (always in file order, whatever the byte order).
    public mutating func fourCC(_ code: FourCC) { bytes.append(contentsOf: code.bytes) }

    /// Appends raw bytes.
    public mutating func append(_ data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }

    /// Appends `count` zero bytes.
    public mutating func zeros(_ count: Int) {
        if count > 0 { bytes.append(contentsOf: repeatElement(0, count: count)) }
    }

    /// Appends zero bytes until the length is a multiple of `alignment`.
    public mutating func pad(toMultipleOf alignment: Int) {
        guard alignment > 1 else { return }
        let remainder = bytes.count % alignment
        if remainder != 0 { zeros(alignment - remainder) }
    }

    /// Appends the version byte and 24-bit flags that start a full box's payload.
    public mutating func fullBoxHeader(version: UInt8, flags: UInt32) {
        u8(version)
        let saved = littleEndian
        littleEndian = false
        u24(flags)
        littleEndian = saved
    }

    /// Overwrites the 32-bit integer at `index` (which must already have been written).
    public mutating func patchU32(_ value: UInt32, at index: Int) {
        precondition(index >= 0 && index + 4 <= bytes.count, "patch outside the written bytes")
        for (position, byte) in Self.encode(UInt64(value), byteCount: 4, littleEndian: littleEndian).enumerated() {
            bytes[index + position] = byte
        }
    }

    /// Overwrites the 16-bit integer at `index` (which must already have been written).
    public mutating func patchU16(_ value: UInt16, at index: Int) {
        precondition(index >= 0 && index + 2 <= bytes.count, "patch outside the written bytes")
        for (position, byte) in Self.encode(UInt64(value), byteCount: 2, littleEndian: littleEndian).enumerated() {
            bytes[index + position] = byte
        }
    }

    /// Overwrites bytes starting at `index` (which must already have been written).
    public mutating func patch(_ data: [UInt8], at index: Int) {
        precondition(index >= 0 && index + data.count <= bytes.count, "patch outside the written bytes")
        bytes.replaceSubrange(index..<index + data.count, with: data)
    }

    private mutating func integer(_ value: UInt64, byteCount: Int) {
        bytes.append(contentsOf: Self.encode(value, byteCount: byteCount, littleEndian: littleEndian))
    }

    /// The low `byteCount` bytes of `value` in the given byte order.
    public static func encode(_ value: UInt64, byteCount: Int, littleEndian: Bool = false) -> [UInt8] {
        let bigEndian = (0..<byteCount).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(byteCount - 1 - $0))) }
        return littleEndian ? bigEndian.reversed() : bigEndian
    }
}
