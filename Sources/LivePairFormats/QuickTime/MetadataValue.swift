/// A typed value of a QuickTime metadata item (`ilst` `data` atom) or of a timed-metadata key.
///
/// Well-known type codes follow Apple's QuickTime File Format: 1 UTF-8, 2 UTF-16, 21 signed and
/// 22 unsigned big-endian integers (1 to 8 bytes), 23 float32, 24 float64, 65-67/74 signed and
/// 75-78 unsigned fixed-size integers, 71 a float32 pair (dimensions). Other types keep their bytes.
public enum MetadataValue: Sendable, Equatable, CustomStringConvertible {
    /// Text (types 1 and 2).
    case string(String)
    /// A signed integer (types 21, 65, 66, 67, 74).
    case signedInteger(Int64)
    /// An unsigned integer (types 22, 75, 76, 77, 78).
    case unsignedInteger(UInt64)
    /// A floating-point number (types 23, 24).
    case float(Double)
    /// A pair of float32 values (type 71, dimensions).
    case dimensions(width: Double, height: Double)
    /// Any other type, with its code and raw bytes.
    case data(type: UInt32, bytes: [UInt8])

    /// Decodes `bytes` of well-known `type`. Integers of a size that does not fit the type keep their bytes.
    public init(type: UInt32, bytes: [UInt8]) {
        func bigEndian(_ bytes: [UInt8]) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
        func signed(_ bytes: [UInt8]) -> Int64 {
            let raw = bigEndian(bytes)
            let shift = UInt64(64 - 8 * bytes.count)
            return Int64(bitPattern: raw << shift) >> Int64(shift)
        }
        let integerSizes = [1, 2, 3, 4, 8]
        switch type {
        case 1:
            self = .string(String(decoding: bytes, as: UTF8.self))
        case 2:
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = 0
            while index + 1 < bytes.count {
                units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            self = .string(String(decoding: units, as: UTF16.self))
        case 21 where integerSizes.contains(bytes.count), 65 where bytes.count == 1, 66 where bytes.count == 2,
            67 where bytes.count == 4, 74 where bytes.count == 8:
            self = .signedInteger(signed(bytes))
        case 22 where integerSizes.contains(bytes.count), 75 where bytes.count == 1, 76 where bytes.count == 2,
            77 where bytes.count == 4, 78 where bytes.count == 8:
            self = .unsignedInteger(bigEndian(bytes))
        case 23 where bytes.count == 4:
            self = .float(Double(Float(bitPattern: UInt32(bigEndian(bytes)))))
        case 24 where bytes.count == 8:
            self = .float(Double(bitPattern: bigEndian(bytes)))
        case 71 where bytes.count == 8:
            self = .dimensions(
                width: Double(Float(bitPattern: UInt32(bigEndian(Array(bytes[0..<4]))))),
                height: Double(Float(bitPattern: UInt32(bigEndian(Array(bytes[4..<8]))))))
        default:
            self = .data(type: type, bytes: bytes)
        }
    }

    /// The text, for string values.
    public var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The number, for numeric values.
    public var doubleValue: Double? {
        switch self {
        case let .signedInteger(value): return Double(value)
        case let .unsignedInteger(value): return Double(value)
        case let .float(value): return value
        default: return nil
        }
    }

    /// A readable rendering.
    public var description: String {
        switch self {
        case let .string(text): return text
        case let .signedInteger(value): return String(value)
        case let .unsignedInteger(value): return String(value)
        case let .float(value): return String(value)
        case let .dimensions(width, height): return "\(width)x\(height)"
        case let .data(type, bytes): return "<type \(type), \(bytes.count) bytes>"
        }
    }
}
