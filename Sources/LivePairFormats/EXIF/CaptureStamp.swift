/// A capture date and place to write into a still's Exif and a movie's QuickTime metadata, as a
/// camera writes them: what an export writes when the files must carry a date or place they do not
/// hold (a date taken from a Google Takeout sidecar). exiftool, Apple's Photos and LivePair's own
/// readers read both back.
///
/// In Exif: DateTimeOriginal and CreateDate (0x9003, 0x9004) with SubSecTimeOriginal and
/// SubSecTimeDigitized (0x9291, 0x9292, milliseconds) and OffsetTimeOriginal, OffsetTimeDigitized
/// and OffsetTime (0x9011, 0x9012, 0x9010), in the Exif IFD; the position in a GPS IFD (version
/// 2.2, degrees, minutes and seconds, the seconds to 1/1,000,000: about 0.03 mm). In a movie:
/// `com.apple.quicktime.creationdate` (ISO 8601 with its offset) and
/// `com.apple.quicktime.location.ISO6709` (decimal degrees to 7 places: about 1 cm).
public struct CaptureStamp: Sendable, Equatable {
    /// The capture date (its UTC offset is written; none counts as UTC), or nil to leave the date.
    public var date: CaptureDate?
    /// The position, or nil to leave the place.
    public var location: GPSCoordinate?

    /// A stamp of `date` and `location`.
    public init(date: CaptureDate? = nil, location: GPSCoordinate? = nil) {
        self.date = date
        self.location = location
    }

    /// True when the stamp writes nothing.
    public var isEmpty: Bool { date == nil && location == nil }

    /// Writes the date and position into `document` (a still's TIFF block): the Exif IFD is created
    /// when missing, the GPS IFD replaced whole (an old position never stays beside the new one).
    public func apply(to document: inout TIFFDocument) {
        guard !document.directories.isEmpty else { return }
        if let date {
            var exif = document.exif ?? TIFFDirectory(entries: [TIFFRawEntry(tag: 0x9000, type: .undefined, value: Array("0232".utf8))])
            let text = Self.exifText(date)
            let offset = Self.offsetText(date.utcOffsetMinutes ?? 0, separator: ":")
            let milliseconds = Self.padded((date.nanoseconds ?? 0) / 1_000_000, 3)
            for tag: UInt16 in [0x9003, 0x9004] { exif.set(Self.ascii(tag, text)) }
            for tag: UInt16 in [0x9010, 0x9011, 0x9012] { exif.set(Self.ascii(tag, offset)) }
            for tag: UInt16 in [0x9291, 0x9292] { exif.set(Self.ascii(tag, milliseconds)) }
            document.exif = exif
        }
        if let location, let gps = Self.gpsDirectory(location, secondsDenominator: 1_000_000) {
            document.directories[0].subdirectories[0x8825] = gps
        }
    }

    /// The movie metadata values of the stamp (`moov/meta`, set over any earlier ones).
    public var movieMetadata: [MovieMetadataEntry] {
        var entries: [MovieMetadataEntry] = []
        if let date {
            let fraction = date.nanoseconds.map { $0 >= 1_000_000 ? "." + Self.padded($0 / 1_000_000, 3) : "" } ?? ""
            let text = "\(Self.padded(date.year, 4))-\(Self.padded(date.month))-\(Self.padded(date.day))T"
                + "\(Self.padded(date.hour)):\(Self.padded(date.minute)):\(Self.padded(date.second))\(fraction)"
                + Self.offsetText(date.utcOffsetMinutes ?? 0, separator: "")
            entries.append(.utf8("com.apple.quicktime.creationdate", text))
        }
        if let location, abs(location.latitude) <= 90, abs(location.longitude) <= 180 {
            entries.append(.utf8("com.apple.quicktime.location.ISO6709", Self.iso6709(location)))
        }
        return entries
    }

    /// `coordinate` in ISO 6709 decimal degrees as QuickTime writes it, to 7 decimal places
    /// (`+48.8584000+002.2945000/`).
    public static func iso6709(_ coordinate: GPSCoordinate) -> String {
        func part(_ value: Double, integerDigits: Int) -> String {
            let scaled = (abs(value) * 10_000_000).rounded()
            let whole = Int(scaled / 10_000_000)
            let fraction = Int(scaled.truncatingRemainder(dividingBy: 10_000_000))
            return (value < 0 ? "-" : "+") + padded(whole, integerDigits) + "." + padded(fraction, 7)
        }
        return part(coordinate.latitude, integerDigits: 2) + part(coordinate.longitude, integerDigits: 3) + "/"
    }

    /// The GPS IFD for `coordinate`: version 2.2, references N/S and E/W, degrees, minutes and
    /// seconds as rationals (seconds to 1/`secondsDenominator`); nil for an impossible position.
    public static func gpsDirectory(_ coordinate: GPSCoordinate, secondsDenominator: UInt32 = 10_000) -> TIFFDirectory? {
        guard abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180, secondsDenominator > 0,
            secondsDenominator <= 50_000_000
        else { return nil }
        func rationals(_ value: Double) -> [UInt8] {
            let magnitude = abs(value)
            let degrees = magnitude.rounded(.down)
            let minutes = ((magnitude - degrees) * 60).rounded(.down)
            let seconds = ((magnitude - degrees) * 60 - minutes) * 60
            let parts: [(UInt32, UInt32)] = [
                (UInt32(degrees), 1), (UInt32(minutes), 1),
                (UInt32((seconds * Double(secondsDenominator)).rounded()), secondsDenominator),
            ]
            return parts.flatMap { ByteWriter.encode(UInt64($0.0), byteCount: 4) + ByteWriter.encode(UInt64($0.1), byteCount: 4) }
        }
        return TIFFDirectory(entries: [
            TIFFRawEntry(tag: 0x0000, type: .byte, value: [2, 2, 0, 0]),
            TIFFRawEntry(tag: 0x0001, type: .ascii, value: Array((coordinate.latitude < 0 ? "S" : "N").utf8) + [0]),
            TIFFRawEntry(tag: 0x0002, type: .rational, value: rationals(coordinate.latitude)),
            TIFFRawEntry(tag: 0x0003, type: .ascii, value: Array((coordinate.longitude < 0 ? "W" : "E").utf8) + [0]),
            TIFFRawEntry(tag: 0x0004, type: .rational, value: rationals(coordinate.longitude)),
        ])
    }

    /// `date` as Exif writes it: `YYYY:MM:DD HH:MM:SS`.
    public static func exifText(_ date: CaptureDate) -> String {
        "\(padded(date.year, 4)):\(padded(date.month)):\(padded(date.day)) "
            + "\(padded(date.hour)):\(padded(date.minute)):\(padded(date.second))"
    }

    /// An offset in minutes as `+hh:mm` (or `+hhmm` without a separator).
    public static func offsetText(_ minutes: Int, separator: String) -> String {
        (minutes < 0 ? "-" : "+") + padded(abs(minutes) / 60) + separator + padded(abs(minutes) % 60)
    }

    /// `value` in decimal with leading zeros to `digits` digits.
    public static func padded(_ value: Int, _ digits: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// An ASCII entry (NUL-terminated) holding `text`.
    public static func ascii(_ tag: UInt16, _ text: String) -> TIFFRawEntry {
        TIFFRawEntry(tag: tag, type: .ascii, value: Array(text.utf8.filter { $0 != 0 }) + [0])
    }
}
