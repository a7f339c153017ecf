import Foundation
import LivePairFormats
import LivePairMedia
import Testing

/// The mean of a `.gray8` plane.
func planeMean(_ plane: PixelBuffer) -> Double {
    var total = 0
    for row in 0..<plane.height {
        for column in 0..<plane.width { total += Int(plane.storage[row * plane.bytesPerRow + column]) }
    }
    return Double(total) / Double(plane.pixelCount)
}

/// Limited-range luma of a full-range gray value.
func limitedLuma(_ gray: Double) -> Double { 16 + gray * 219 / 255 }

@Suite("YUV 4:2:0 conversion")
struct YUVConversionTests {
    func gray(width: Int, height: Int, value: UInt8) throws -> PixelBuffer {
        var bytes = [UInt8](repeating: value, count: width * height * 4)
        for index in stride(from: 3, to: bytes.count, by: 4) { bytes[index] = 255 }
        return try PixelBuffer(width: width, height: height, format: .rgba8, storage: bytes)
    }

    @Test("plane sizes are full for Y and half, rounded up, for U and V")
    func planeSizes() throws {
        let planar = try gray(width: 33, height: 17, value: 128).yuv420p()
        #expect(planar.format == .yuv420p)
        #expect((planar.y.width, planar.y.height) == (33, 17))
        #expect((planar.u.width, planar.u.height) == (17, 9))
        #expect((planar.v.width, planar.v.height) == (17, 9))
        #expect(planar.planes.allSatisfy { $0.format == .gray8 })
        let scaled = try gray(width: 64, height: 48, value: 10).yuv420p(width: 31, height: 20)
        #expect((scaled.width, scaled.height, scaled.chromaWidth, scaled.chromaHeight) == (31, 20, 16, 10))
        let turned = try planar.rotated(anticlockwiseDegrees: 90)
        #expect((turned.y.width, turned.y.height, turned.u.width, turned.u.height) == (17, 33, 9, 17))
    }

    @Test("a gray image gives limited-range luma and neutral chroma", arguments: [0, 64, 128, 200, 255] as [UInt8])
    func grayLuma(value: UInt8) throws {
        let planar = try gray(width: 40, height: 30, value: value).yuv420p()
        #expect(!planar.isFullRange)
        #expect(planar.matrix == .bt601)
        #expect(abs(planeMean(planar.y) - limitedLuma(Double(value))) < 1.5)
        #expect(abs(planeMean(planar.u) - 128) < 1.5)
        #expect(abs(planeMean(planar.v) - 128) < 1.5)
    }

    @Test("planes whose sizes do not form yuv420p are rejected")
    func rejectsMismatchedPlanes() throws {
        let y = try PixelBuffer(width: 8, height: 8, format: .gray8, storage: [UInt8](repeating: 0, count: 64))
        let small = try PixelBuffer(width: 2, height: 2, format: .gray8, storage: [UInt8](repeating: 0, count: 4))
        #expect(throws: MediaError.self) {
            _ = try PlanarPixelBuffer(y: y, u: small, v: small, matrix: .bt601, isFullRange: false)
        }
    }

    @Test("a gray movie read as yuv420p: same frames and times as RGBA, Y is the luma of the RGBA result")
    func grayMovie() throws {
        let path = NSTemporaryDirectory() + "livepair-yuv-\(getpid()).mp4"
        defer { unlink(path) }
        let writer = try H264MovieWriter(path: path, width: 64, height: 48)
        let values: [UInt8] = [40, 90, 128, 170, 220]
        for (index, value) in values.enumerated() {
            try writer.append(try gray(width: 64, height: 48, value: value), presentationTime: Double(index) / 10)
        }
        try writer.finish()

        let rgba = try SequentialFrameReader(path: path, width: 32, height: 24)
        let planar = try SequentialFrameReader(path: path, width: 32, height: 24)
        var count = 0
        while let frame = try rgba.next() {
            let yuv = try #require(try planar.nextPlanar())
            #expect(yuv.presentationTime == frame.presentationTime)
            #expect((yuv.image.width, yuv.image.height, yuv.image.chromaWidth, yuv.image.chromaHeight) == (32, 24, 16, 12))
            // Mean luma of the RGBA result (gray, so R = G = B).
            var red = 0.0
            for row in 0..<24 {
                for column in 0..<32 { red += Double(frame.image.storage[row * frame.image.bytesPerRow + column * 4]) }
            }
            let luma = red / (32 * 24)
            let expected = yuv.image.isFullRange ? luma : limitedLuma(luma)
            #expect(abs(planeMean(yuv.image.y) - expected) < 2, "frame \(count)")
            #expect(abs(planeMean(yuv.image.u) - 128) < 3)
            #expect(abs(planeMean(yuv.image.v) - 128) < 3)
            count += 1
        }
        #expect(try planar.nextPlanar() == nil)
        // Both readers ran out together (checked above); the writer's edit list may hide one frame.
        #expect(count >= values.count - 1)
    }
}
