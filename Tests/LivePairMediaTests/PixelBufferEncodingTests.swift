import Foundation
import LivePairMedia
import TestSupport
import Testing

@Suite("PixelBuffer encoding and scaling")
struct PixelBufferEncodingTests {
    /// A gradient with every channel varying, including alpha.
    private func gradient(width: Int, height: Int) throws -> PixelBuffer {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                bytes += [UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), UInt8((x + y) % 256), UInt8(255 - x % 200)]
            }
        }
        return try PixelBuffer(width: width, height: height, format: .rgba8, storage: bytes)
    }

    @Test("PNG output is read back by ffmpeg byte for byte", arguments: [(1, 1), (7, 5), (300, 260)])
    func pngRoundTrip(width: Int, height: Int) throws {
        // 300 x 260 x 4 bytes spans several 65535-byte stored deflate blocks.
        let image = try gradient(width: width, height: height)
        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("image.png").path
        try Data(image.pngData()).write(to: URL(fileURLWithPath: path))
        let decoded = try ReferenceTools.rgba(of: path, width: width, height: height)
        #expect(decoded.packedBytes == image.packedBytes)
    }

    @Test("gray PNG output is read back by ffmpeg")
    func grayPNG() throws {
        let gray = try PixelBuffer(width: 4, height: 3, format: .gray8, storage: (0..<12).map { UInt8($0 * 20) })
        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("gray.png").path
        try Data(gray.pngData()).write(to: URL(fileURLWithPath: path))
        let raw = directory.appendingPathComponent("gray.raw").path
        try ReferenceTool.ffmpegTool("ffmpeg", ["-i", path, "-f", "rawvideo", "-pix_fmt", "gray", "-y", raw])
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: raw))) == gray.packedBytes)
    }

    @Test("JPEG output decodes back close to the original")
    func jpegRoundTrip() throws {
        let image = try gradient(width: 64, height: 48)
        let jpeg = try image.jpegData(quality: 95)
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
        let decoded = try JPEGImageDecoder().decode(jpeg)
        #expect(decoded.width == 64 && decoded.height == 48)
        // Alpha is not stored in JPEG: compare opaque versions.
        let opaque = try PixelBuffer(
            width: 64, height: 48, format: .rgba8,
            storage: image.packedBytes.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element })
        let difference = try #require(decoded.meanAbsoluteDifference(to: opaque))
        #expect(difference < 3, "mean absolute difference \(difference)")
        let small = try image.jpegData(quality: 10)
        #expect(small.count < jpeg.count)
    }

    @Test("area scaling of a uniform image stays uniform and reaches the requested size")
    func scalesUniform() throws {
        let uniform = try PixelBuffer(
            width: 400, height: 300, format: .rgba8, storage: [UInt8]((0..<120_000).flatMap { _ in [10, 200, 90, 255] as [UInt8] }))
        for filter in [PixelBuffer.ScalingFilter.area, .bilinear] {
            let small = try uniform.scaled(toWidth: 37, height: 29, filter: filter)
            #expect(small.width == 37 && small.height == 29)
            #expect(Set(small.packedBytes.enumerated().map { "\($0.offset % 4):\($0.element)" }).count <= 8)
            #expect(small.pixel(x: 18, y: 14).map(Array.init) == [10, 200, 90, 255])
        }
        #expect(throws: MediaError.self) { try uniform.scaled(toWidth: 0, height: 10) }
        let fit = uniform.sizeFitting(maxWidth: 100, maxHeight: 100)
        #expect(fit.width == 100 && fit.height == 75)
    }

    @Test("gray images scale")
    func scalesGray() throws {
        let gray = try PixelBuffer(width: 8, height: 8, format: .gray8, storage: [UInt8](repeating: 128, count: 64))
        let half = try gray.scaled(toWidth: 4, height: 4)
        #expect(half.format == .gray8 && half.packedBytes == [UInt8](repeating: 128, count: 16))
    }
}
