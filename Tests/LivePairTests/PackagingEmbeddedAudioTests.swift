import Foundation
@testable import LivePair
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// The audio of the MP4 a motion photo embeds: AAC, what Android's players read. An iPhone's
/// `lpcm` is re-encoded (PackagingConversionTests checks the five Live Photos of SampleMedia);
/// these check the other cases on one-second movies made by ffmpeg.
@Suite("Packaging: the embedded MP4's audio")
struct PackagingEmbeddedAudioTests {
    /// A one-second 64x48 H.264 movie at `path` with a sine tone encoded by `audioCodec` at `sampleRate`.
    static func movie(_ path: String, audioCodec: String, sampleRate: Int) throws {
        try ReferenceTool.ffmpegTool("ffmpeg", [
            "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(sampleRate):duration=1",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", audioCodec, "-shortest", "-y", path,
        ])
    }

    /// The MD5 of the first audio stream's packets.
    static func audioPacketMD5(_ path: String) throws -> String {
        try ReferenceTool.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:0", "-c", "copy", "-f", "md5", "-"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("AAC audio is copied into the embedded MP4 as it is, and nothing is said dropped")
    func aacIsCopied() throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let workspace = try SampleVariants.Workspace()
        let video = workspace.url.appendingPathComponent("aac.mov").path
        try Self.movie(video, audioCodec: "aac", sampleRate: 44100)
        let output = workspace.url.appendingPathComponent("motion.jpg").path
        let result = try MotionPhotoConverter().motionPhoto(photo: SampleMedia.path("live/train.jpg"), video: video, output: output)
        // The still-image-time track the intermediate movie got is not the input's: not listed.
        #expect(result.dropped.isEmpty, "\(result.dropped)")
        let embedded = workspace.url.appendingPathComponent("embedded.mp4").path
        try MotionPhotoVideoExtractor(source: try FileByteSource(path: output)).writeVideo(to: embedded)
        #expect(try Self.audioPacketMD5(embedded) == Self.audioPacketMD5(video))
        #expect(try ReferenceTool.videoPacketMD5(embedded) == ReferenceTool.videoPacketMD5(video))
        #expect(!(try ReferenceTool.ffprobeStreams(embedded)).contains { $0["codec_type"] as? String == "data" })
    }

    @Test("PCM at a sample rate AAC cannot take (37,800 Hz) is a typed error, and nothing is written")
    func unsupportedSampleRate() throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let workspace = try SampleVariants.Workspace()
        let video = workspace.url.appendingPathComponent("pcm.mov").path
        try Self.movie(video, audioCodec: "pcm_s16le", sampleRate: 37800)
        let output = workspace.url.appendingPathComponent("motion.jpg").path
        do {
            _ = try MotionPhotoConverter().motionPhoto(photo: SampleMedia.path("live/train.jpg"), video: video, output: output)
            Issue.record("no error")
        } catch {
            guard case let .media(.unsupported(reason)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason == "AAC at 37800 Hz (no resampling available)")
        }
        #expect(PackagingOracle.listing(workspace.url.path) == ["pcm.mov"])
    }

    @Test("PCM at 48 kHz becomes AAC that lasts as long, the video packets unchanged")
    func pcmIsEncoded() throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let workspace = try SampleVariants.Workspace()
        let video = workspace.url.appendingPathComponent("pcm.mov").path
        try Self.movie(video, audioCodec: "pcm_s16le", sampleRate: 48000)
        let output = workspace.url.appendingPathComponent("motion.heic").path
        let result = try MotionPhotoConverter().motionPhoto(
            photo: SampleMedia.path("live/IMG_4580.HEIC"), video: video, output: output)
        #expect(result.dropped == [
            "the movie's sowt audio, re-encoded to AAC in the embedded MP4 (Android's players do not read QuickTime sound in an MP4)",
        ])
        let embedded = workspace.url.appendingPathComponent("embedded.mp4").path
        try MotionPhotoVideoExtractor(source: try FileByteSource(path: output)).writeVideo(to: embedded)
        let streams = try ReferenceTool.ffprobeStreams(embedded)
        #expect(streams.map { $0["codec_name"] as? String } == ["h264", "aac"])
        #expect(streams.last?["sample_rate"] as? String == "48000")
        #expect(streams.last?["duration"] as? String == "1.000000")
        #expect(try ReferenceTool.videoPacketMD5(embedded) == ReferenceTool.videoPacketMD5(video))
    }
}
