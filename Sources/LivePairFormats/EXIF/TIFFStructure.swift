/// The IFDs of a TIFF block (as found in an Exif APP1 segment or a HEIF Exif item).
public struct TIFFStructure: Sendable, Equatable {
    /// The TIFF bytes, starting at the byte-order mark.
    public let bytes: [UInt8]
    /// File offset of the TIFF header, when known, so offsets can be made file-relative.
    public let fileOffset: UInt64?
    /// Whether integers are little-endian ("II").
    public let littleEndian: Bool
    /// Whether the header is BigTIFF (magic 43).
    public let isBigTIFF: Bool
    /// Every IFD read, in the order it was reached.
    public let ifds: [TIFFIFD]
    /// IFD offsets that were referenced again (cycles) or could not be read, with the reason.
    public let issues: [String]

    /// Memberwise initializer.
    public init(
        bytes: [UInt8], fileOffset: UInt64?, littleEndian: Bool, isBigTIFF: Bool, ifds: [TIFFIFD], issues: [String]
    ) {
        self.bytes = bytes
        self.fileOffset = fileOffset
        self.littleEndian = littleEndian
        self.isBigTIFF = isBigTIFF
        self.ifds = ifds
        self.issues = issues
    }

    /// The first IFD of `kind`.
    public func ifd(_ kind: TIFFIFDKind) -> TIFFIFD? { ifds.first { $0.kind == kind } }

    /// IFD0.
    public var ifd0: TIFFIFD? { ifd(.ifd0) }
    /// The thumbnail IFD (IFD1).
    public var ifd1: TIFFIFD? { ifd(.ifd1) }
    /// The Exif sub-IFD.
    public var exif: TIFFIFD? { ifd(.exif) }
    /// The GPS sub-IFD.
    public var gps: TIFFIFD? { ifd(.gps) }
}
