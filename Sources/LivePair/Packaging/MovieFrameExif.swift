import LivePairFormats
import LivePairMedia

/// The Exif of a still made from a movie's frame (`make --video`): what the movie's keys say
/// about the capture (`com.apple.quicktime.make`, `model`, `creationdate`,
/// `location.ISO6709`, as `ResourceIdentity` reads them) written as the camera would: Make and
/// Model in IFD0, DateTimeOriginal, CreateDate and OffsetTimeOriginal in the Exif IFD, the
/// position in a GPS IFD, with the content identifier in Apple's maker note. exiftool reads them.
struct MovieFrameExif {
    /// The TIFF block for a `width` x `height` still from `movie` with `identifier`. ColorSpace
    /// says sRGB (1) unless the video's `colour` has other primaries than BT.709's (sRGB's): then
    /// it says uncalibrated (0xFFFF), as Apple writes it for Display P3, and the still's `colr`
    /// box or ICC profile tells the colour space.
    static func tiff(
        movie: ResourceIdentity, width: Int, height: Int, identifier: String, colour: ColourDescription? = nil
    ) throws(PackagingError) -> [UInt8] {
        var note = AppleMakerNoteBuilder()
        note.setContentIdentifier(identifier)
        var defaults = JPEGMakerNoteWriter.NewExifDefaults(width: width, height: height)
        defaults.hasICCProfile = colour.map { $0.colourPrimaries != ColourDescription.bt709Primaries } ?? false
        var document = JPEGMakerNoteWriter.newDocument(makerNote: note.build(), defaults: defaults)
        if let make = movie.make { document.directories[0].set(ascii(0x010F, make)) }
        if let model = movie.model { document.directories[0].set(ascii(0x0110, model)) }
        if let date = movie.captureDate {
            let text = "\(padded(date.year, 4)):\(padded(date.month)):\(padded(date.day)) "
                + "\(padded(date.hour)):\(padded(date.minute)):\(padded(date.second))"
            var exif = document.exif ?? TIFFDirectory()
            exif.set(ascii(0x9003, text))
            exif.set(ascii(0x9004, text))
            if let offset = date.utcOffsetMinutes {
                let sign = offset < 0 ? "-" : "+"
                exif.set(ascii(0x9011, sign + padded(abs(offset) / 60) + ":" + padded(abs(offset) % 60)))
            }
            document.exif = exif
        }
        if let location = movie.location, let gps = gpsDirectory(location) {
            document.directories[0].subdirectories[0x8825] = gps
        }
        do throws(FormatError) { return try TIFFWriter.write(document) } catch { throw .format(error) }
    }

    /// `value` in decimal with leading zeros to `digits` digits.
    private static func padded(_ value: Int, _ digits: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// An ASCII entry (NUL-terminated) holding `text`.
    private static func ascii(_ tag: UInt16, _ text: String) -> TIFFRawEntry {
        TIFFRawEntry(tag: tag, type: .ascii, value: Array(text.utf8.filter { $0 != 0 }) + [0])
    }

    /// The GPS IFD for `coordinate`: version 2.2, references N/S and E/W, degrees, minutes and
    /// seconds as rationals (seconds to 1/10,000); nil for an impossible position.
    static func gpsDirectory(_ coordinate: GPSCoordinate) -> TIFFDirectory? {
        guard abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180 else { return nil }
        func rationals(_ value: Double) -> [UInt8] {
            let magnitude = abs(value)
            let degrees = magnitude.rounded(.down)
            let minutes = ((magnitude - degrees) * 60).rounded(.down)
            let seconds = ((magnitude - degrees) * 60 - minutes) * 60
            let parts: [(UInt32, UInt32)] = [(UInt32(degrees), 1), (UInt32(minutes), 1), (UInt32((seconds * 10_000).rounded()), 10_000)]
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
}
