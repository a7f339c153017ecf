/// The value types a TIFF (or BigTIFF) IFD entry may declare.
public enum TIFFValueType: UInt16, Sendable, Equatable, CaseIterable {
    /// 8-bit unsigned integer.
    case byte = 1
    /// 8-bit bytes holding NUL-terminated 7-bit ASCII.
    case ascii = 2
    /// 16-bit unsigned integer.
    case short = 3
    /// 32-bit unsigned integer.
    case long = 4
    /// Two LONGs: numerator, denominator.
    case rational = 5
    /// 8-bit signed integer.
    case signedByte = 6
    /// 8-bit opaque bytes.
    case undefined = 7
    /// 16-bit signed integer.
    case signedShort = 8
    /// 32-bit signed integer.
    case signedLong = 9
    /// Two SLONGs: numerator, denominator.
    case signedRational = 10
    /// IEEE 754 single precision.
    case float = 11
    /// IEEE 754 double precision.
    case double = 12
    /// A 32-bit offset to a sub-IFD.
    case ifd = 13
    /// BigTIFF 64-bit unsigned integer (also used by Apple maker notes).
    case long8 = 16
    /// BigTIFF 64-bit signed integer.
    case signedLong8 = 17
    /// BigTIFF 64-bit offset to a sub-IFD.
    case ifd8 = 18

    /// Bytes one value of this type occupies.
    public var byteSize: Int {
        switch self {
        case .byte, .ascii, .signedByte, .undefined: return 1
        case .short, .signedShort: return 2
        case .long, .signedLong, .float, .ifd: return 4
        case .rational, .signedRational, .double, .long8, .signedLong8, .ifd8: return 8
        }
    }
}
