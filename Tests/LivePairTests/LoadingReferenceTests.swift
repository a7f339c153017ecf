import Foundation
import LivePair
import LivePairMedia
import Testing
import TestSupport

/// Results checked against ffmpeg and ffprobe.
@Suite("Loading: results against ffmpeg")
struct LoadingReferenceTests {
    static let target = PixelSize(width: 96, height: 96)
    static let checkedPairs = [loadingSamplePairs[0], loadingSamplePairs[1], loadingSamplePairs[2]]

    /// The final Live Photo of a pair, at the test's target size.
    static func livePhoto(_ pair: (photo: String, video: String)) async throws -> LivePhoto {
        var result: LivePhoto?
        for try await event in LivePhotoManager.default.livePhotoEvents(
            resourceFileURLs: samplePaths(pair), targetSize: target,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat))
        {
            if case let .final(value) = event { result = value }
        }
        return try #require(result)
    }

    /// ffmpeg's frame of the first video stream (as ffprobe's `v:0`; a Pixel motion photo's movie
    /// has a second, one-frame high-resolution stream that ffmpeg would pick by default) at
    /// `time` (autorotated, so upright), scaled to `width` x `height`, as RGBA.
    static func ffmpegFrame(_ path: String, at time: Double, width: Int, height: Int) throws -> PixelBuffer {
        guard ReferenceTool.isInstalled("ffmpeg") else { throw ReferenceTool.NotInstalled(name: "ffmpeg") }
        let data = try ChildProcess.run("/usr/bin/ffmpeg", [
            "-v", "error", "-ss", String(format: "%.6f", max(0, time - 0.002)), "-i", path, "-map", "0:v:0", "-frames:v", "1",
            "-vf", "scale=\(width):\(height):flags=area", "-f", "rawvideo", "-pix_fmt", "rgba", "-",
        ], standardError: .discarded).output
        return try PixelBuffer(width: width, height: height, format: .rgba8, storage: [UInt8](data))
    }

    /// ffprobe's presentation times of the first video stream's frames.
    static func ffprobeFrameTimes(_ path: String) throws -> [Double] {
        let text = try ReferenceTool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path])
        return text.split(whereSeparator: { $0 == "\n" || $0 == "," || $0 == " " }).compactMap { Double($0) }
    }

    @Test("the poster equals ffmpeg's frame at the same time", arguments: checkedPairs.map(\.video))
    func posterMatchesFFmpeg(video: String) async throws {
        let pair = try #require(loadingSamplePairs.first { $0.video == video })
        let livePhoto = try await Self.livePhoto(pair)
        let poster = livePhoto.poster
        #expect(abs(poster.presentationTime - (livePhoto.movie.stillImageTime ?? -1)) < 0.05)
        #expect(livePhoto.movie.frameTimes[livePhoto.posterFrameIndex] == poster.presentationTime)
        let reference = try Self.ffmpegFrame(
            SampleMedia.path(video), at: poster.presentationTime, width: poster.image.width, height: poster.image.height)
        let difference = try #require(poster.image.meanAbsoluteDifference(to: reference))
        #expect(difference < 3, "mean absolute difference \(difference)")
        // A frame a quarter of a second away differs clearly more: the comparison is meaningful.
        if rotationMatters(livePhoto) {
            let turned = try reference.rotated(anticlockwiseDegrees: 180)
            #expect(try #require(poster.image.meanAbsoluteDifference(to: turned)) > difference)
        }
    }

    private func rotationMatters(_ livePhoto: LivePhoto) -> Bool { livePhoto.movie.rotationDegrees != 0 }

    /// Checks that the Live Photo's frame times (metadata) and its iterated frames (at its frame
    /// size) are `expected`, within a millisecond.
    static func expectFrames(of livePhoto: LivePhoto, at expected: [Double]) async throws {
        #expect(livePhoto.movie.frameTimes.count == expected.count)
        #expect(zip(livePhoto.movie.frameTimes, expected).allSatisfy { abs($0 - $1) < 0.001 })
        var times: [Double] = []
        for try await frame in livePhoto.frames {
            #expect(frame.image.width == livePhoto.frameSize.width && frame.image.height == livePhoto.frameSize.height)
            times.append(frame.presentationTime)
        }
        #expect(times.count == expected.count)
        #expect(zip(times, expected).allSatisfy { abs($0 - $1) < 0.001 })
    }

    @Test("frame count and times match ffprobe", arguments: checkedPairs.map(\.video))
    func framesMatchFFprobe(video: String) async throws {
        let pair = try #require(loadingSamplePairs.first { $0.video == video })
        let livePhoto = try await Self.livePhoto(pair)
        try await Self.expectFrames(of: livePhoto, at: try Self.ffprobeFrameTimes(SampleMedia.path(video)))
        // Upright: portrait movies (rotated) give portrait frames.
        let uprightIsPortrait = livePhoto.movie.uprightSize.height > livePhoto.movie.uprightSize.width
        #expect((livePhoto.frameSize.height > livePhoto.frameSize.width) == uprightIsPortrait)
    }
}
