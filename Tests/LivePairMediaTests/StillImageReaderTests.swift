import Foundation
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// Decodes PNG and WebP files made by ffmpeg from a sample photo, and compares the pixels with
/// ffmpeg's own decode of the same files.
@Suite("Still image reading", .serialized)
struct StillImageReaderTests {
    /// ffmpeg's RGBA decode of `path` (all frames' bytes; one frame here), with swscale's
    /// bilinear filter as the product uses.
    static func ffmpegRGBA(_ path: String) throws -> [UInt8] {
        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let raw = directory.appendingPathComponent("frame.rgba").path
        try ReferenceTool.ffmpegTool("ffmpeg", [
            "-i", path, "-frames:v", "1", "-sws_flags", "bilinear", "-f", "rawvideo", "-pix_fmt", "rgba", "-y", raw,
        ])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// Fixtures made from `live/train.jpg` scaled to 317x239 (odd sizes), plus an RGBA PNG
    /// with transparency; with the largest mean difference accepted against ffmpeg's decode.
    /// PNG and lossless WebP must match exactly (RGB(A) in, RGBA out); lossy WebP is 4:2:0 YUV,
    /// converted by the same swscale bilinear path: measured 0.0.
    static let fixtures: [(name: String, arguments: [String], bound: Double)] = [
        ("photo.png", ["-vf", "scale=317:239"], 0),
        ("photo-lossless.webp", ["-vf", "scale=317:239", "-c:v", "libwebp", "-lossless", "1"], 0),
        ("photo-lossy.webp", ["-vf", "scale=317:239", "-c:v", "libwebp", "-quality", "80"], 0.5),
        ("alpha.png", ["-vf", "scale=317:239,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='X'"], 0),
    ]

    @Test("PNG and WebP decode to RGBA equal to ffmpeg's decode", arguments: fixtures.indices)
    func decodesLikeFFmpeg(index: Int) throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let fixture = Self.fixtures[index]
        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(fixture.name).path
        try ReferenceTool.ffmpegTool(
            "ffmpeg", ["-i", SampleMedia.path("live/train.jpg")] + fixture.arguments + ["-frames:v", "1", "-y", path])

        let start = Date()
        let image = try StillImageReader.decode(path: path)
        let seconds = Date().timeIntervalSince(start)
        #expect(image.width == 317 && image.height == 239)
        #expect(image.format == .rgba8)
        let reference = try PixelBuffer(width: 317, height: 239, format: .rgba8, storage: try Self.ffmpegRGBA(path))
        let difference = try #require(image.meanAbsoluteDifference(to: reference))
        #expect(difference <= fixture.bound)
        if fixture.name == "alpha.png" {
            #expect(image.pixel(x: 0, y: 5)?.last == 0)
            #expect(image.pixel(x: 200, y: 5)?.last == 200)
        }
        print("\(fixture.name): \(image.width)x\(image.height) in \(String(format: "%.4f", seconds)) s, MAD \(difference)")
    }

    @Test("a file that is not an image, or is missing, or is truncated, is a typed error")
    func rejectsNonImages() throws {
        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("notes.png").path
        try Data("this is not an image at all\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: MediaError.self) { try StillImageReader.decode(path: text) }
        #expect(throws: MediaError.self) { try StillImageReader.decode(path: directory.appendingPathComponent("missing.png").path) }

        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let png = directory.appendingPathComponent("whole.png").path
        try ReferenceTool.ffmpegTool("ffmpeg", ["-f", "lavfi", "-i", "testsrc=size=64x48", "-frames:v", "1", "-y", png])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        let truncated = directory.appendingPathComponent("truncated.png").path
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        #expect(throws: MediaError.self) { try StillImageReader.decode(path: truncated) }
    }

    @Test("an image above the pixel limit is refused before decoding")
    func refusesTooLarge() throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("big.png").path
        try ReferenceTool.ffmpegTool("ffmpeg", ["-f", "lavfi", "-i", "color=c=blue:s=200x100", "-frames:v", "1", "-y", png])
        var limits = ParseLimits.default
        limits.maximumPixels = 10_000
        #expect(throws: MediaError.tooLarge(pixels: 20_000, limit: 10_000)) {
            try StillImageReader.decode(path: png, limits: limits)
        }
    }
}
