import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

/// Live Photo -> motion photo -> Live Photo, again and again: the same Live Photo comes back.
@Suite("Packaging round trips: Live Photo -> motion photo -> Live Photo")
struct PackagingRoundTripTests {
    /// A real pair, its identifier, its still-image time as ffprobe reads it (the still-image-time
    /// stream's start time) and the presentation time of its still's frame (the frame nearest that
    /// time; a tie to the earlier), in microseconds, from ffprobe's packet times.
    struct Case: Sendable, CustomTestStringConvertible {
        let photo: String
        let video: String
        let identifier: String
        let stillImageTime: Double
        let frameUs: Int64
        var testDescription: String { LivePhotoPackager.fileName(of: photo) }
    }

    static let cases = [
        // 0.48 s lies between the frames at 0.466667 s and 0.533333 s.
        Case(
            photo: "live/train.jpg", video: "live/train.mov", identifier: "E905E6C6-C747-4805-942F-9904A0281F02",
            stillImageTime: 0.48, frameUs: 466_667),
        // 1.201667 s is exactly halfway between 1.168333 s and 1.235 s.
        Case(
            photo: "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", video: "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov",
            identifier: "C3754624-A05F-474D-9F16-E9C47B5F892D", stillImageTime: 1.201667, frameUs: 1_168_333),
        // One tick (1/600 s) before the frame at 1.333333 s.
        Case(
            photo: "live/IMG_3582.HEIC", video: "live/IMG_3582.mov", identifier: "", stillImageTime: 1.331667,
            frameUs: 1_333_333),
    ]

    /// Converts `photo` and `video` to a motion photo and back `cycles` times in `workspace`;
    /// returns each motion photo and each Live Photo.
    static func cycle(
        photo: String, video: String, cycles: Int, workspace: SampleVariants.Workspace, converter: MotionPhotoConverter = .init()
    ) throws -> [(motion: PackagedMotionPhoto, live: PackagedLivePhoto)] {
        var (photo, video) = (photo, video)
        var results: [(PackagedMotionPhoto, PackagedLivePhoto)] = []
        let isHEIC = ResourceIdentifier().identify(path: photo).format == .heic
        for index in 1...cycles {
            let motion = try converter.motionPhoto(
                photo: photo, video: video,
                output: workspace.url.appendingPathComponent("motion\(index).\(isHEIC ? "heic" : "jpg")").path)
            let live = try converter.livePhoto(
                motionPhoto: motion.path, outputDirectory: workspace.url.appendingPathComponent("live\(index)").path)
            results.append((motion, live))
            (photo, video) = (live.photoPath, live.videoPath)
        }
        return results
    }

    @Test("three round trips keep the identifier and the exact still-image time", arguments: cases)
    func identifierAndStillTime(_ sample: Case) throws {
        let workspace = try SampleVariants.Workspace()
        let original = ResourceIdentifier().identify(path: SampleMedia.path(sample.video))
        let identifier = try #require(original.contentIdentifier?.rawValue)
        if !sample.identifier.isEmpty { #expect(identifier == sample.identifier) }
        let originalTime = try #require(original.stillImageTime)
        #expect(abs(originalTime - sample.stillImageTime) < 0.000_001)

        for (motion, live) in try Self.cycle(
            photo: SampleMedia.path(sample.photo), video: SampleMedia.path(sample.video), cycles: 3, workspace: workspace)
        {
            // The motion photo's timestamp is the still's frame; the movie inside keeps Apple's time.
            #expect(motion.presentationTimestampUs == sample.frameUs)
            #expect(ResourceIdentifier().identify(path: motion.path).motionPhoto?.presentationTimestampUs == sample.frameUs)
            // The Live Photo that comes back is the same one: same identifier, same still-image time.
            #expect(live.contentIdentifier == identifier)
            #expect(live.stillImageTime == originalTime)
            let still = ResourceIdentifier().identify(path: live.photoPath)
            let movie = ResourceIdentifier().identify(path: live.videoPath)
            #expect(still.contentIdentifier?.rawValue == identifier)
            #expect(movie.contentIdentifier?.rawValue == identifier)
            #expect(movie.stillImageTime == originalTime)
            guard ReferenceTool.isInstalled("ffprobe"), ReferenceTool.isInstalled("exiftool") else { continue }
            #expect(try PackagingOracle.exiftoolIdentifier(live.photoPath) == identifier)
            #expect(try PackagingOracle.exiftoolIdentifier(live.videoPath) == identifier)
            let ffprobeTime = try #require(try PackagingOracle.dataStreamStartTime(live.videoPath))
            #expect(abs(ffprobeTime - sample.stillImageTime) < 0.000_001)
        }
    }

    @Test("a new identifier only when asked, or when the motion photo carries none")
    func newIdentifier() throws {
        let workspace = try SampleVariants.Workspace()
        let converter = MotionPhotoConverter()
        let motion = workspace.url.appendingPathComponent("train.MP.jpg").path
        _ = try converter.motionPhoto(
            photo: SampleMedia.path("live/train.jpg"), video: SampleMedia.path("live/train.mov"), output: motion)
        let fresh = try converter.livePhoto(
            motionPhoto: motion, outputDirectory: workspace.url.appendingPathComponent("fresh").path, newIdentifier: true)
        #expect(fresh.contentIdentifier != "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(ContentIdentifier(rawValue: fresh.contentIdentifier)?.isWellFormedUUID == true)
        #expect(ResourceIdentifier().identify(path: fresh.videoPath).contentIdentifier?.rawValue == fresh.contentIdentifier)
        #expect(ResourceIdentifier().identify(path: fresh.photoPath).contentIdentifier?.rawValue == fresh.contentIdentifier)
        #expect(throws: PackagingError.self) {
            try converter.livePhoto(
                motionPhoto: motion, outputDirectory: workspace.url.appendingPathComponent("both").path,
                contentIdentifier: "0E5A2C44-9B1D-4F3A-8C7E-2D6B1A9F0C35", newIdentifier: true)
        }
        // A Pixel motion photo carries no identifier: a fresh one each time.
        let pixel = SampleMedia.path("motion/PXL_20200710_061629144.MP.jpg")
        #expect(ResourceIdentifier().identify(path: pixel).contentIdentifier == nil)
        let first = try converter.livePhoto(motionPhoto: pixel, outputDirectory: workspace.url.appendingPathComponent("p1").path)
        let second = try converter.livePhoto(motionPhoto: pixel, outputDirectory: workspace.url.appendingPathComponent("p2").path)
        #expect(first.contentIdentifier != second.contentIdentifier)
        #expect(ContentIdentifier(rawValue: first.contentIdentifier)?.isWellFormedUUID == true)
    }

    @Test(
        "five round trips: the still's and the motion photo's sizes are stable, no motion-photo XMP is left",
        arguments: [("live/IMG_3582.HEIC", "live/IMG_3582.mov"), ("live/train.jpg", "live/train.mov")])
    func noStaleXMP(photo: String, video: String) throws {
        let workspace = try SampleVariants.Workspace()
        let results = try Self.cycle(
            photo: SampleMedia.path(photo), video: SampleMedia.path(video), cycles: 5, workspace: workspace)
        let size = { (path: String) in ResourceIdentifier().identify(path: path).fileSize }
        // The first cycle may move the still's XMP to a box of its own; after that nothing grows.
        #expect(Set(results.map { size($0.live.photoPath) }).count == 1, "\(results.map { size($0.live.photoPath) })")
        #expect(Set(results.map { size($0.motion.path) }).count == 1, "\(results.map { size($0.motion.path) })")
        #expect(Set(results.map { size($0.live.videoPath) }).count == 1)
        for (_, live) in results {
            let bytes = try #require(PackagingOracle.contents(live.photoPath))
            for marker in ["MotionPhoto=\"1\"", "Camera:MotionPhoto", "Item:Length", "Container:Directory"] {
                #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(marker) in \(live.photoPath)")
            }
            #expect(ResourceIdentifier().identify(path: live.photoPath).motionPhoto == nil)
        }
        guard ReferenceTool.isInstalled("exiftool") else { return }
        let last = try #require(results.last?.live.photoPath)
        #expect(try ReferenceTool.run("exiftool", ["-s3", "-XMP-GCamera:all", "-XMP-GContainer:all", last]).isEmpty)
        // The still is still the still: same pixels as the original.
        #expect(try PackagingOracle.decodedStill(last) == PackagingOracle.decodedStill(SampleMedia.path(photo)))
    }
}
