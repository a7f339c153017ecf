/// Reads a TIFF header and follows its IFDs: IFD0 and its next-IFD chain (IFD1, ...), and the
/// Exif (0x8769), GPS (0x8825) and interoperability (0xA005) sub-IFDs.
///
/// An IFD offset reached twice (a cycle) is skipped and noted in `TIFFStructure.issues`; the number
/// of IFDs followed is bounded by `ParseLimits.maximumIFDChainLength`.
public struct TIFFReader: Sendable {
    /// Tag of the Exif sub-IFD pointer.
    public static let exifIFDPointerTag: UInt16 = 0x8769
    /// Tag of the GPS sub-IFD pointer.
    public static let gpsIFDPointerTag: UInt16 = 0x8825
    /// Tag of the interoperability sub-IFD pointer.
    public static let interoperabilityIFDPointerTag: UInt16 = 0xA005

    /// The limits applied.
    public let limits: ParseLimits

    /// A reader applying `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// Parses the TIFF block `bytes` (starting at "II" or "MM"); `fileOffset` is where it sits in its file.
    public func read(_ bytes: [UInt8], fileOffset: UInt64? = nil) throws(FormatError) -> TIFFStructure {
        try limits.checkMetadataSize(UInt64(bytes.count), context: "TIFF header")
        var reader = ByteReader(bytes, context: "TIFF header")
        let order = try reader.u16()
        switch order {
        case 0x4949: reader.littleEndian = true
        case 0x4D4D: reader.littleEndian = false
        default: throw .invalid(context: "TIFF header", reason: "byte order mark is not II or MM")
        }
        let magic = try reader.u16()
        let bigTIFF: Bool
        let firstOffset: UInt64
        switch magic {
        case 42:
            bigTIFF = false
            firstOffset = UInt64(try reader.u32())
        case 43:
            bigTIFF = true
            let offsetSize = try reader.u16()
            _ = try reader.u16()
            guard offsetSize == 8 else {
                throw .invalid(context: "TIFF header", reason: "BigTIFF offset size \(offsetSize) is not 8")
            }
            firstOffset = try reader.u64()
        default:
            throw .invalid(context: "TIFF header", reason: "magic number \(magic) is not 42 or 43")
        }
        let parser = TIFFIFDParser(bytes: bytes, littleEndian: reader.littleEndian, bigTIFF: bigTIFF, limits: limits)
        var ifds: [TIFFIFD] = []
        var issues: [String] = []
        var visited: Set<UInt64> = []

        func follow(_ offset: UInt64, kind: TIFFIFDKind, context: String) throws(FormatError) -> TIFFIFD? {
            guard offset != 0 else { return nil }
            guard visited.insert(offset).inserted else {
                issues.append("\(context): IFD offset \(offset) was already read (cycle); skipped")
                return nil
            }
            guard visited.count <= limits.maximumIFDChainLength else {
                throw .limitExceeded(
                    context: context, limit: "IFD count", value: UInt64(visited.count),
                    maximum: UInt64(limits.maximumIFDChainLength))
            }
            guard offset < UInt64(bytes.count) else {
                issues.append("\(context): IFD offset \(offset) is outside the data")
                return nil
            }
            let ifd = try parser.readIFD(at: Int(offset), kind: kind, context: context)
            ifds.append(ifd)
            return ifd
        }

        func followSubIFDs(of ifd: TIFFIFD) throws(FormatError) {
            let pointers: [(UInt16, TIFFIFDKind, String)] = [
                (Self.exifIFDPointerTag, .exif, "Exif IFD"), (Self.gpsIFDPointerTag, .gps, "GPS IFD"),
                (Self.interoperabilityIFDPointerTag, .interoperability, "Interoperability IFD"),
            ]
            for (tag, kind, name) in pointers {
                guard let offset = ifd.entry(tag)?.unsignedInteger else { continue }
                do {
                    if let sub = try follow(offset, kind: kind, context: name) { try followSubIFDs(of: sub) }
                } catch let error where error.code != "limit-exceeded" {
                    issues.append("\(name): \(error.description)")
                }
            }
        }

        var next = firstOffset
        var index = 0
        while next != 0 {
            let kind: TIFFIFDKind = index == 0 ? .ifd0 : index == 1 ? .ifd1 : .chained(index)
            let name = index == 0 ? "IFD0" : "IFD\(index)"
            let ifd: TIFFIFD?
            if index == 0 {
                ifd = try follow(next, kind: kind, context: name)
            } else {
                do {
                    ifd = try follow(next, kind: kind, context: name)
                } catch let error where error.code != "limit-exceeded" {
                    issues.append("\(name): \(error.description)")
                    ifd = nil
                }
            }
            guard let ifd else { break }
            try followSubIFDs(of: ifd)
            next = ifd.nextIFDOffset
            index += 1
        }
        return TIFFStructure(
            bytes: bytes, fileOffset: fileOffset, littleEndian: reader.littleEndian, isBigTIFF: bigTIFF, ifds: ifds,
            issues: issues)
    }
}
