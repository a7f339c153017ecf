/// The EXIF fields LivePair uses, summarised from a `TIFFStructure`.
public struct ExifMetadata: Sendable, Equatable {
    /// Camera maker (0x010F).
    public var make: String?
    /// Camera model (0x0110).
    public var model: String?
    /// Software (0x0131).
    public var software: String?
    /// Orientation (0x0112), 1-8; nil when absent or out of range.
    public var orientation: Int?
    /// DateTimeOriginal (0x9003) with SubSecTimeOriginal (0x9291) and OffsetTimeOriginal (0x9011).
    public var dateTimeOriginal: CaptureDate?
    /// DateTime (0x0132) with SubSecTime (0x9290) and OffsetTime (0x9010).
    public var dateTime: CaptureDate?
    /// PixelXDimension (0xA002).
    public var pixelWidth: Int?
    /// PixelYDimension (0xA003).
    public var pixelHeight: Int?
    /// Offset of the IFD1 JPEG thumbnail (0x0201): file-relative when the TIFF's file offset is known,
    /// otherwise relative to the TIFF header.
    public var thumbnailOffset: UInt64?
    /// Length of the IFD1 JPEG thumbnail (0x0202).
    public var thumbnailLength: UInt64?
    /// GPS position, when present.
    public var gps: GPSCoordinate?
    /// The raw MakerNote (0x927C) bytes.
    public var makerNote: [UInt8]?

    /// An empty summary.
    public init() {}

    /// The capture date: DateTimeOriginal, else DateTime.
    public var captureDate: CaptureDate? { dateTimeOriginal ?? dateTime }

    /// The Apple maker note, when the maker note is Apple's and readable.
    public var appleMakerNote: AppleMakerNote? {
        guard let makerNote else { return nil }
        return try? AppleMakerNote.parse(makerNote)
    }

    /// Summarises `tiff`.
    public init(_ tiff: TIFFStructure) {
        let ifd0 = tiff.ifd0
        let exif = tiff.exif
        make = ifd0?.entry(0x010F)?.string.flatMap(Self.nonEmpty)
        model = ifd0?.entry(0x0110)?.string.flatMap(Self.nonEmpty)
        software = ifd0?.entry(0x0131)?.string.flatMap(Self.nonEmpty)
        if let value = ifd0?.entry(0x0112)?.unsignedInteger, (1...8).contains(value) { orientation = Int(value) }
        if let text = exif?.entry(0x9003)?.string {
            dateTimeOriginal = CaptureDate(
                text, subsecond: exif?.entry(0x9291)?.string, offset: exif?.entry(0x9011)?.string)
        }
        if let text = ifd0?.entry(0x0132)?.string {
            dateTime = CaptureDate(text, subsecond: exif?.entry(0x9290)?.string, offset: exif?.entry(0x9010)?.string)
        }
        if let value = exif?.entry(0xA002)?.unsignedInteger, value <= UInt64(Int32.max) { pixelWidth = Int(value) }
        if let value = exif?.entry(0xA003)?.unsignedInteger, value <= UInt64(Int32.max) { pixelHeight = Int(value) }
        if let ifd1 = tiff.ifd1, let offset = ifd1.entry(0x0201)?.unsignedInteger,
            let length = ifd1.entry(0x0202)?.unsignedInteger, length > 0,
            offset <= UInt64(tiff.bytes.count), UInt64(tiff.bytes.count) - offset >= length
        {
            thumbnailOffset = offset + (tiff.fileOffset ?? 0)
            thumbnailLength = length
        }
        if let gpsIFD = tiff.gps { gps = GPSCoordinate(gpsIFD: gpsIFD) }
        makerNote = exif?.entry(0x927C)?.valueBytes
    }

    /// Reads `tiffBytes` and summarises them.
    public static func read(
        tiffBytes: [UInt8], fileOffset: UInt64? = nil, limits: ParseLimits = .default
    ) throws(FormatError) -> ExifMetadata {
        ExifMetadata(try TIFFReader(limits: limits).read(tiffBytes, fileOffset: fileOffset))
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
}
