import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

/// `PackagingOptions.captureStamp`: a restamp that writes a date and a place into a HEIC still's
/// Exif and its movie's `moov/meta` (what `library export --layout` writes when the files lack the
/// library's values), read back by LivePair's reader and by exiftool.
@Suite("restamp with a capture stamp: date and place in the HEIC's Exif and the movie's keys")
struct PackagingCaptureStampTests {
    @Test("IMG_4580 restamped with a date west of UTC and a place south and west: both halves and both readers agree, identifier and still time kept")
    func heicAndMovie() throws {
        let workspace = try SampleVariants.Workspace()
        let date = CaptureDate(year: 1999, month: 12, day: 31, hour: 23, minute: 59, second: 58, nanoseconds: 5_000_000, utcOffsetMinutes: -210)
        let place = GPSCoordinate(latitude: -33.856_784_4, longitude: -151.215_297_6)
        var options = PackagingOptions()
        options.captureStamp = CaptureStamp(date: date, location: place)
        let still = SampleMedia.path("live/IMG_4580.HEIC"), movie = SampleMedia.path("live/IMG_4580.mov")
        let before = ResourceIdentifier().identify(path: movie)
        let pair = try LivePhotoPackager(options: options).restamp(
            photo: still, video: movie, outputDirectory: workspace.url.appendingPathComponent("out").path,
            contentIdentifier: before.contentIdentifier?.rawValue)
        let (photo, video) = (ResourceIdentifier().identify(path: pair.photoPath), ResourceIdentifier().identify(path: pair.videoPath))
        #expect(photo.captureDate == date && video.captureDate == date)
        for read in [photo.location, video.location] {
            let read = try #require(read)
            #expect(abs(read.latitude - place.latitude) < 1e-8 && abs(read.longitude - place.longitude) < 1e-8, "\(read)")
        }
        #expect(photo.contentIdentifier == before.contentIdentifier && video.contentIdentifier == before.contentIdentifier)
        #expect(video.stillImageTime == before.stillImageTime)
        let exifStill = try ReferenceTool.run("exiftool", [
            "-n", "-s3", "-DateTimeOriginal", "-CreateDate", "-SubSecTimeOriginal", "-OffsetTimeOriginal", "-GPSLatitudeRef",
            "-GPSLongitudeRef", pair.photoPath,
        ]).split(separator: "\n").map(String.init)
        #expect(exifStill == ["1999:12:31 23:59:58", "1999:12:31 23:59:58", "005", "-03:30", "S", "W"])
        let exifMovie = try ReferenceTool.run("exiftool", ["-n", "-s3", "-Keys:CreationDate", "-Keys:GPSCoordinates", pair.videoPath])
            .split(separator: "\n").map(String.init)
        #expect(exifMovie == ["1999:12:31 23:59:58.005-03:30", "-33.8567844 -151.2152976"])
        let findings = Validator().validate(paths: [pair.photoPath, pair.videoPath]).allFindings
        #expect(!findings.contains { $0.severity == .error }, "\(findings)")
    }

    @Test("CaptureStamp's forms: ISO 6709 to 7 places, Exif text, an impossible place writes no GPS")
    func forms() {
        #expect(CaptureStamp.iso6709(GPSCoordinate(latitude: 48.858_370_5, longitude: 2.294_481_3)) == "+48.8583705+002.2944813/")
        #expect(CaptureStamp.iso6709(GPSCoordinate(latitude: -5, longitude: -0.000_000_1)) == "-05.0000000-000.0000001/")
        #expect(CaptureStamp.exifText(CaptureDate(year: 2021, month: 4, day: 10, hour: 9, minute: 4, second: 0)) == "2021:04:10 09:04:00")
        #expect(CaptureStamp.gpsDirectory(GPSCoordinate(latitude: 91, longitude: 0)) == nil)
        #expect(CaptureStamp(location: GPSCoordinate(latitude: 0, longitude: 200)).movieMetadata.isEmpty)
    }
}
