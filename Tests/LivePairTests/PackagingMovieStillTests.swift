import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

/// `make --video`: the still is the movie's frame, so it carries what the movie says of the
/// capture, and the movie loses Apple's transform from its still to that frame.
@Suite("make --video: the still's metadata and the movie's still-image transform")
struct PackagingMovieStillTests {
    @Test("the still gets the movie's make, model, date with its offset, and GPS position (exiftool reads both)")
    func metadataFromMovieKeys() throws {
        let workspace = try SampleVariants.Workspace()
        var options = PackagingOptions()
        options.stillEncoding = .jpeg
        let movie = SampleMedia.path("plain/with-gps.mov")
        let made = try LivePhotoPackager(options: options).make(
            video: movie, outputDirectory: workspace.url.appendingPathComponent("out").path)
        let fromMovie = try ReferenceTool.run("exiftool", [
            "-n", "-s3", "-Make", "-Model", "-CreationDate", "-GPSLatitude", "-GPSLongitude", movie,
        ]).split(separator: "\n").map(String.init)
        let fromStill = try ReferenceTool.run("exiftool", [
            "-n", "-s3", "-Make", "-Model", "-DateTimeOriginal", "-OffsetTimeOriginal", "-GPSLatitude", "-GPSLongitude",
            made.photoPath,
        ]).split(separator: "\n").map(String.init)
        #expect(fromMovie == ["Apple", "iPhone 6", "2019:07:24 11:25:40+03:00", "32.0929", "34.862"])
        #expect(fromStill == ["Apple", "iPhone 6", "2019:07:24 11:25:40", "+03:00", "32.0929", "34.862"])
        #expect(try PackagingOracle.exiftoolIdentifier(made.photoPath) == made.contentIdentifier)
        // LivePair reads the same capture date and place from both halves.
        let still = ResourceIdentifier().identify(path: made.photoPath)
        let source = ResourceIdentifier().identify(path: movie)
        #expect(still.captureDate == source.captureDate && still.make == "Apple" && still.model == "iPhone 6")
        let place = try #require(still.location), expected = try #require(source.location)
        #expect(abs(place.latitude - expected.latitude) < 1e-5 && abs(place.longitude - expected.longitude) < 1e-5)
    }

    @Test("an iPhone 15 movie loses live-photo-still-image-transform; its still-image time stays")
    func stillImageTransformDropped() throws {
        let workspace = try SampleVariants.Workspace()
        let movie = SampleMedia.path("live/IMG_3582.mov")
        let transformKeys = MovieStamper.stillImageTransformKeys
        let originalKeys = try QuickTimeMovieParser().parse(try FileByteSource(path: movie)).tracks.flatMap(\.metadataKeyNames)
        #expect(transformKeys.isSubset(of: Set(originalKeys)))
        let made = try LivePhotoPackager().make(video: movie, outputDirectory: workspace.url.appendingPathComponent("out").path)
        let written = try QuickTimeMovieParser().parse(try FileByteSource(path: made.videoPath))
        #expect(Set(written.tracks.flatMap(\.metadataKeyNames)).isDisjoint(with: transformKeys))
        #expect(written.stillImageTimeTrack?.metadataKeyNames == ["com.apple.quicktime.still-image-time"])
        #expect(abs(made.stillImageTime - 1.331667) < 0.000_001)
        #expect(ResourceIdentifier().identify(path: made.videoPath).stillImageTime == made.stillImageTime)
        let tags = try ReferenceTool.run("exiftool", ["-s3", "-Make", "-Model", "-DateTimeOriginal", made.photoPath])
        #expect(tags.split(separator: "\n") == ["Apple", "iPhone 15 Pro", "2025:05:26 09:27:06"])
        // make with a still keeps the movie's transform track as it is (the still is not the frame).
        let pair = try LivePhotoPackager().make(
            photo: SampleMedia.path("live/IMG_3582.HEIC"), video: movie,
            outputDirectory: workspace.url.appendingPathComponent("pair").path)
        let kept = try QuickTimeMovieParser().parse(try FileByteSource(path: pair.videoPath))
        #expect(transformKeys.isSubset(of: Set(kept.tracks.flatMap(\.metadataKeyNames))))
    }
}
