import Foundation
import LivePair
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// `--deep`: the still's primary image and the movie's frame at the still-image time are decoded.
@Suite("Deep validation", .serialized)
struct ValidationDeepTests {
    typealias V = SampleVariants

    @Test("the frame at the still-image time decodes at the movie's coded size", arguments: [
        ("live/IMG_3582.mov", 1.331667, 1920, 1440, "hevc"), ("live/train.mov", 0.48, 1440, 1080, "h264"),
        ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov", 1.201667, 1440, 1080, "h264"),
    ])
    func frameAtStillTime(file: String, time: Double, width: Int, height: Int, codec: String) throws {
        let frame = try VideoFrameDecoder().decodeFrame(path: SampleMedia.path(file), at: time)
        #expect(frame.image.width == width && frame.image.height == height)
        #expect(frame.codedWidth == width && frame.codedHeight == height)
        #expect(frame.codecName == codec)
        #expect(abs(frame.presentationTime - time) < 0.04)
        // A real picture, not a blank buffer.
        let bytes = frame.image.packedBytes
        #expect(Set(stride(from: 0, to: bytes.count, by: 4097).map { bytes[$0] }).count > 10)
    }

    @Test("frames are reduced to the requested longest side, keeping the aspect ratio")
    func reducedFrame() throws {
        let frame = try VideoFrameDecoder(maximumDimension: 480).decodeFrame(
            path: SampleMedia.path("live/IMG_3582.mov"), at: 1.331667)
        #expect(frame.image.width == 480 && frame.image.height == 360)
        #expect(frame.codedWidth == 1920)
    }

    @Test("a motion photo's embedded video decodes through its byte range")
    func embeddedVideo() throws {
        let path = SampleMedia.path("motion/motionphoto.heic")
        let motion = try #require(ResourceIdentifier().identify(path: path).motionPhoto)
        let offset = try #require(motion.videoOffset), length = try #require(motion.videoLength)
        let frame = try VideoFrameDecoder(maximumDimension: 256).decodeFrame(path: path, embeddedAt: offset, length: length, at: 1)
        #expect(frame.codecName == "hevc")
        #expect(max(frame.image.width, frame.image.height) == 256)
    }

    @Test("a cancelled decode throws cancelled; a missing file throws decodeFailed")
    func cancellationAndErrors() {
        let flag = CancellationFlag()
        flag.cancel()
        #expect(throws: MediaError.cancelled) {
            try VideoFrameDecoder().decodeFrame(path: SampleMedia.path("live/train.mov"), at: 0.48, cancellation: flag)
        }
        #expect {
            try VideoFrameDecoder().decodeFrame(path: "/nonexistent/movie.mov", at: 0)
        } throws: { error in
            (error as? MediaError)?.code == "decode-failed"
        }
    }

    @Test("a file that is not a movie throws a MediaError")
    func notAMovie() throws {
        let workspace = try V.Workspace()
        let path = try workspace.write(Array(String(repeating: "not a movie ", count: 100).utf8), as: "text.mov")
        var failure: MediaError?
        do { _ = try VideoFrameDecoder().decodeFrame(path: path, at: 0) } catch { failure = error }
        #expect(failure != nil)
    }

    @Test("real pairs decode: deep validation adds no finding", arguments: [
        ("live/IMG_3582.HEIC", "live/IMG_3582.mov", ["hevc-video info IMG_3582.mov"]),
        ("live/train.jpg", "live/train.mov", [String]()),
    ])
    func realPairsDecode(photo: String, video: String, expected: [String]) {
        let report = ValidationFixture.report(samples: [photo, video], deep: true)
        #expect(ValidationFixture.summary(report) == expected)
    }

    @Test("motion photos decode in deep mode")
    func motionPhotosDecode() {
        let report = ValidationFixture.report(
            samples: ["motion/PXL_20200710_061629144.MP.jpg", "motion/samsung-one-ui-6.heic"], deep: true)
        #expect(ValidationFixture.summary(report) == ["hevc-video info samsung-one-ui-6.heic"])
    }

    @Test("undecodable-photo: HEVC tile data overwritten in a HEIC still")
    func corruptHEICTiles() throws {
        let workspace = try V.Workspace()
        let bytes = try SampleMedia.bytes("live/IMG_3582.HEIC")
        // Overwrite the first grid tile's coded data (its NAL length prefix included), nothing else.
        let source = try FileByteSource(path: SampleMedia.path("live/IMG_3582.HEIC"))
        let heif = try HEIFFile(source: source)
        let recipe = try heif.primaryImageRecipe(from: source)
        let extent = try #require(heif.meta.location(of: recipe.tiles[0].itemID)?.extents.first)
        let damaged = V.overwriting(bytes, at: Int(extent.offset), count: Int(extent.length), with: 0xA5)
        let photo = try workspace.write(damaged, as: "IMG_3582.HEIC")
        let video = try workspace.copy("live/IMG_3582.mov", as: "IMG_3582.mov")
        #expect(ValidationFixture.summary(ValidationFixture.report([photo, video])) == ["hevc-video info IMG_3582.mov"])
        let report = ValidationFixture.report([photo, video], deep: true)
        #expect(ValidationFixture.summary(report) == ["undecodable-photo error IMG_3582.HEIC", "hevc-video info IMG_3582.mov"])
    }

    @Test("undecodable-photo: JPEG scan data overwritten")
    func corruptJPEGScan() throws {
        let workspace = try V.Workspace()
        let bytes = try SampleMedia.bytes("live/train.jpg")
        let scan = V.jpegScanDataOffset(in: bytes)
        let photo = try workspace.write(V.overwriting(bytes, at: scan + 10_000, count: 200_000, with: 0xFF), as: "train.jpg")
        let video = try workspace.copy("live/train.mov", as: "train.mov")
        let report = ValidationFixture.report([photo, video], deep: true)
        #expect(ValidationFixture.summary(report) == ["undecodable-photo error train.jpg"])
    }

    @Test("undecodable-video: the movie's sample data overwritten")
    func corruptMovieSamples() throws {
        let workspace = try V.Workspace()
        let bytes = try SampleMedia.bytes("live/IMG_3582.mov")
        let media = V.mediaDataRange(in: bytes)
        let damaged = V.overwriting(bytes, at: media.lowerBound, count: media.count, with: 0xA5)
        let photo = try workspace.copy("live/IMG_3582.HEIC", as: "IMG_3582.HEIC")
        let video = try workspace.write(damaged, as: "IMG_3582.mov")
        #expect(ValidationFixture.summary(ValidationFixture.report([photo, video])) == ["hevc-video info IMG_3582.mov"])
        let report = ValidationFixture.report([photo, video], deep: true)
        #expect(ValidationFixture.summary(report) == ["undecodable-video error IMG_3582.mov", "hevc-video info IMG_3582.mov"])
    }
}
