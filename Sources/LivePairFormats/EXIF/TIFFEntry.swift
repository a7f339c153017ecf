/// One IFD entry with its value bytes copied out of the TIFF block.
public struct TIFFEntry: Sendable, Equatable {
    /// The tag number.
    public let tag: UInt16
    /// The declared type.
    public let type: TIFFValueType
    /// Number of values.
    public let count: UInt64
    /// Offset of the value bytes from the start of the structure offsets are relative to
    /// (the TIFF header, or the start of a maker note).
    public let valueOffset: Int
    /// The raw value bytes (`count * type.byteSize` of them).
    public let valueBytes: [UInt8]
    /// Whether multi-byte values are little-endian.
    public let littleEndian: Bool

    /// Memberwise initializer.
    public init(
        tag: UInt16, type: TIFFValueType, count: UInt64, valueOffset: Int, valueBytes: [UInt8], littleEndian: Bool
    ) {
        self.tag = tag
        self.type = type
        self.count = count
        self.valueOffset = valueOffset
        self.valueBytes = valueBytes
        self.littleEndian = littleEndian
    }

    private func reader() -> ByteReader {
        var reader = ByteReader(valueBytes, context: "TIFF tag 0x\(String(tag, radix: 16))")
        reader.littleEndian = littleEndian
        return reader
    }

    /// Every value as an unsigned integer (integer types only; signed values are bit-cast).
    public var unsignedIntegers: [UInt64] {
        var reader = reader()
        var values: [UInt64] = []
        values.reserveCapacity(Int(min(count, 4096)))
        do {
            while !reader.isAtEnd {
                switch type {
                case .byte, .undefined: values.append(UInt64(try reader.u8()))
                case .signedByte: values.append(UInt64(bitPattern: Int64(try reader.i8())))
                case .short: values.append(UInt64(try reader.u16()))
                case .signedShort: values.append(UInt64(bitPattern: Int64(try reader.i16())))
                case .long, .ifd: values.append(UInt64(try reader.u32()))
                case .signedLong: values.append(UInt64(bitPattern: Int64(try reader.i32())))
                case .long8, .ifd8, .signedLong8: values.append(try reader.u64())
                case .ascii, .rational, .signedRational, .float, .double: return []
                }
            }
        } catch { return values }
        return values
    }

    /// The first value as an unsigned integer.
    public var unsignedInteger: UInt64? { unsignedIntegers.first }

    /// Every value as a signed integer (integer types only).
    public var signedIntegers: [Int64] {
        switch type {
        case .signedByte, .signedShort, .signedLong, .signedLong8:
            return unsignedIntegers.map { Int64(bitPattern: $0) }
        default:
            return unsignedIntegers.compactMap { $0 <= UInt64(Int64.max) ? Int64($0) : nil }
        }
    }

    /// Every value as a floating-point number (integers, rationals, floats).
    public var doubles: [Double] {
        var reader = reader()
        var values: [Double] = []
        do {
            switch type {
            case .rational:
                while reader.remaining >= 8 {
                    let numerator = try reader.u32(), denominator = try reader.u32()
                    values.append(denominator == 0 ? .nan : Double(numerator) / Double(denominator))
                }
            case .signedRational:
                while reader.remaining >= 8 {
                    let numerator = try reader.i32(), denominator = try reader.i32()
                    values.append(denominator == 0 ? .nan : Double(numerator) / Double(denominator))
                }
            case .float:
                while reader.remaining >= 4 { values.append(Double(Float(bitPattern: try reader.u32()))) }
            case .double:
                while reader.remaining >= 8 { values.append(Double(bitPattern: try reader.u64())) }
            case .signedByte, .signedShort, .signedLong, .signedLong8:
                values = signedIntegers.map(Double.init)
            case .ascii:
                return []
            default:
                values = unsignedIntegers.map(Double.init)
            }
        } catch { return values }
        return values
    }

    /// The value as text: ASCII (or UTF-8) up to the first NUL, trailing spaces trimmed; nil for non-text types.
    public var string: String? {
        guard type == .ascii || type == .undefined || type == .byte else { return nil }
        var stop = 0
        while stop < valueBytes.count, valueBytes[stop] != 0 { stop += 1 }
        while stop > 0, valueBytes[stop - 1] == 0x20 { stop -= 1 }
        return String(decoding: valueBytes[0..<stop], as: UTF8.self)
    }
}
