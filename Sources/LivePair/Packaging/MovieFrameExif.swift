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
        if let make = movie.make { document.directories[0].set(CaptureStamp.ascii(0x010F, make)) }
        if let model = movie.model { document.directories[0].set(CaptureStamp.ascii(0x0110, model)) }
        if let date = movie.captureDate {
            var exif = document.exif ?? TIFFDirectory()
            exif.set(CaptureStamp.ascii(0x9003, CaptureStamp.exifText(date)))
            exif.set(CaptureStamp.ascii(0x9004, CaptureStamp.exifText(date)))
            if let offset = date.utcOffsetMinutes {
                exif.set(CaptureStamp.ascii(0x9011, CaptureStamp.offsetText(offset, separator: ":")))
            }
            document.exif = exif
        }
        if let location = movie.location, let gps = CaptureStamp.gpsDirectory(location) {
            document.directories[0].subdirectories[0x8825] = gps
        }
        do throws(FormatError) { return try TIFFWriter.write(document) } catch { throw .format(error) }
    }
}
