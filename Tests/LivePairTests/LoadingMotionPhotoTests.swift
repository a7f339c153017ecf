import Foundation
import LivePair
import LivePairFormats
import LivePairMedia
import Synchronization
import Testing
import TestSupport

/// A single motion photo (Google or Samsung, JPEG or HEIC) as a Live Photo request's resource:
/// the still is the primary image, the movie the embedded video.
@Suite("Loading: motion photos as resources")
struct LoadingMotionPhotoTests {
    static let samples = [
        "motion/PXL_20200710_061629144.MP.jpg", "motion/motionphoto.heic", "motion/photo-sg22-ultra.heic",
        "motion/samsung-one-ui-6.heic",
    ]
    static let target = PixelSize(width: 160, height: 160)

    static func load(_ path: String) throws -> (LivePhoto?, [RecordedCall]) {
        let recorder = CallRecorder()
        LivePhotoManager().requestLivePhoto(
            resourceFileURLs: [path], targetSize: target,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat, isSynchronous: true),
            resultHandler: recorder.livePhotoHandler())
        let calls = recorder.all
        return (calls.last?.livePhoto, calls)
    }

    @Test("frames and times equal ffprobe's on the extracted video; the poster equals ffmpeg's frame",
        arguments: samples)
    func motionPhoto(sample: String) async throws {
        let path = SampleMedia.path(sample)
        let (loaded, calls) = try Self.load(path)
        #expect(calls.count == 1, "\(calls.map { $0.error.map(String.init(describing:)) ?? "ok" })")
        let livePhoto = try #require(loaded)
        let embedded = try #require(EmbeddedMovie(reference: livePhoto.videoPath))
        #expect(embedded.containerPath == path && livePhoto.photoPath == path)

        // The embedded video, extracted for the reference tools.
        let workspace = try SampleVariants.Workspace()
        let movie = workspace.url.appendingPathComponent("embedded.mp4").path
        let extraction = try MotionPhotoVideoExtractor(source: try FileByteSource(path: path)).writeVideo(to: movie)
        #expect(extraction.videoRange == embedded.offset..<embedded.offset + embedded.length)

        let expected = try LoadingReferenceTests.ffprobeFrameTimes(movie)
        #expect(!expected.isEmpty)
        try await LoadingReferenceTests.expectFrames(of: livePhoto, at: expected)

        // The still-image time is the presentation timestamp, else the middle of the movie.
        let stamp = extraction.presentationTimestampUs.flatMap { $0 >= 0 ? Double($0) / 1e6 : nil }
        #expect(livePhoto.movie.stillImageTime == stamp)
        #expect(livePhoto.movie.posterTime == (stamp ?? livePhoto.movie.duration / 2))
        #expect(livePhoto.movie.contentIdentifier == nil)

        let poster = livePhoto.poster
        #expect(livePhoto.movie.frameTimes[livePhoto.posterFrameIndex] == poster.presentationTime)
        let reference = try LoadingReferenceTests.ffmpegFrame(
            movie, at: poster.presentationTime, width: poster.image.width, height: poster.image.height)
        let difference = try #require(poster.image.meanAbsoluteDifference(to: reference))
        #expect(difference < 4, "poster vs ffmpeg: mean absolute difference \(difference)")

        // The still is the primary image, upright, fitted to the target.
        #expect(max(livePhoto.still.width, livePhoto.still.height) == 160)
    }

    @Test("a still that is not a motion photo, alone, is refused; a broken motion photo ends with an error")
    func refused() throws {
        let (plain, calls) = try Self.load(SampleMedia.path("plain/pixel_8.jpg"))
        #expect(plain == nil)
        #expect(calls.count == 1 && calls[0].error?.code == "unsupported-format")
        let (broken, brokenCalls) = try Self.load(SampleMedia.path("broken/google_motion_photo_broken.jpg"))
        #expect(broken == nil)
        #expect(brokenCalls.count == 1 && brokenCalls[0].error != nil && brokenCalls[0].error != .cancelled)
    }
}
