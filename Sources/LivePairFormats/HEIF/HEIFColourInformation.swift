/// A `colr` property: either coded colour parameters (`nclx`) or an ICC profile (`rICC`, `prof`).
public enum HEIFColourInformation: Sendable, Equatable {
    /// `nclx`: code points from ITU-T H.273.
    case nclx(colourPrimaries: UInt16, transferCharacteristics: UInt16, matrixCoefficients: UInt16, fullRange: Bool)
    /// `rICC` or `prof`: an ICC profile.
    case icc(type: FourCC, profile: [UInt8])
    /// Another colour type, kept by type only.
    case other(type: FourCC)

    /// Parses a `colr` payload (a plain box: no version or flags).
    static func parse(_ payload: ByteReader) throws(FormatError) -> HEIFColourInformation {
        var reader = payload
        reader.context = "ipco/colr"
        let type = try reader.fourCC()
        switch type {
        case "nclx":
            let primaries = try reader.u16()
            let transfer = try reader.u16()
            let matrix = try reader.u16()
            let range = try reader.u8()
            return .nclx(
                colourPrimaries: primaries, transferCharacteristics: transfer, matrixCoefficients: matrix,
                fullRange: range & 0x80 != 0)
        case "rICC", "prof":
            return .icc(type: type, profile: reader.rest())
        default:
            return .other(type: type)
        }
    }
}
