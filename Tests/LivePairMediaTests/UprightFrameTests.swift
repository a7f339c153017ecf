import Foundation
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// The still `make --video` takes from a movie: the frame at a time, turned upright by the
/// track's display rotation, compared with ffmpeg's autorotated decode of the same frame.
@Suite("Upright video frame", .serialized)
struct UprightFrameTests {
    /// ffmpeg's autorotated RGBA decode of frame number `index` of `path`.
    static func ffmpegFrame(_ path: String, index: Int, width: Int, height: Int) throws -> PixelBuffer {
        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let raw = directory.appendingPathComponent("frame.rgba").path
        try ReferenceTool.ffmpegTool("ffmpeg", [
            "-i", path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1", "-sws_flags", "bilinear",
            "-f", "rawvideo", "-pix_fmt", "rgba", "-y", raw,
        ])
        return try PixelBuffer(
            width: width, height: height, format: .rgba8, storage: [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw))))
    }

    /// IMG_3539.MOV is 1920x1080 at 30 fps with rotation -90 (portrait); frame 9 is at 0.3 s.
    /// train.mov has no rotation. Measured difference to ffmpeg: 0.0 to 0.5; the same frame
    /// turned the other way gives over 30.
    @Test("uprightFrame matches ffmpeg's autorotated frame", arguments: [
        ("plain/IMG_3539.MOV", 0.3, 9, 1080, 1920), ("live/train.mov", 0.0, 0, 1440, 1080),
    ])
    func matchesFFmpeg(sample: (file: String, time: Double, index: Int, width: Int, height: Int)) throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let path = SampleMedia.path(sample.file)
        let start = Date()
        let frame = try VideoFrameDecoder.uprightFrame(path: path, at: sample.time)
        let seconds = Date().timeIntervalSince(start)
        #expect(frame.width == sample.width && frame.height == sample.height)
        let reference = try Self.ffmpegFrame(path, index: sample.index, width: sample.width, height: sample.height)
        let difference = try #require(frame.meanAbsoluteDifference(to: reference))
        #expect(difference < 2)
        let turned = try frame.rotated(anticlockwiseDegrees: 180).meanAbsoluteDifference(to: reference) ?? 0
        #expect(turned > 10)
        print("\(sample.file) at \(sample.time) s: \(frame.width)x\(frame.height) in \(String(format: "%.3f", seconds)) s, MAD \(difference), turned \(turned)")
    }

    @Test("an upright frame encodes to a HEIC and a JPEG that keep its size and carry no rotation")
    func encodesUprightStill() throws {
        let frame = try VideoFrameDecoder.uprightFrame(path: SampleMedia.path("plain/IMG_3539.MOV"), at: 0.3)
        let start = Date()
        let heic = try StillImageEncoder.heic(frame)
        print("HEIC 1080x1920 from a movie frame: \(heic.count) bytes in \(String(format: "%.3f", Date().timeIntervalSince(start))) s")
        let source = MemoryByteSource(heic)
        let recipe = try HEIFFile(source: source).primaryImageRecipe(from: source)
        #expect(recipe.rotationDegrees == 0)
        let decoded = try HEICImageDecoder().decode(recipe)
        #expect(decoded.width == 1080 && decoded.height == 1920)
        let jpeg = try JPEGImageDecoder().decode(try StillImageEncoder.jpeg(frame))
        #expect(jpeg.width == 1080 && jpeg.height == 1920)
    }
}
