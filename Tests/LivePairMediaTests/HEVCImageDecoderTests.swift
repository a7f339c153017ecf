import Foundation
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

@Suite("HEVC tile decoding")
struct HEVCImageDecoderTests {
    @Test("a lossless tile decodes to the pattern ffmpeg decodes")
    func decodesTileLikeFFmpeg() throws {
        let (tile, reference) = try ReferenceTools.testPatternTileWithReference(itemID: 1, sourceWidth: 64, sourceHeight: 48)
        let image = try HEVCImageDecoder().decode(tile)
        #expect(image.width == 64 && image.height == 48 && image.format == .rgba8)
        let difference = try #require(image.meanAbsoluteDifference(to: reference))
        // Same YUV picture; only the YUV->RGB conversion (chroma upsampling, rounding) may differ.
        #expect(difference < 0.5, "mean absolute difference \(difference)")
        // Against the pattern itself: 4:2:0 chroma loss at the pattern's sharp colour edges.
        let pattern = try #require(image.meanAbsoluteDifference(to: try referenceRGBA(width: 64, height: 48)))
        #expect(pattern < 8, "mean absolute difference to the pattern \(pattern)")
        #expect(image.pixel(x: 10, y: 10)?.last == 255)
    }

    @Test("10-bit 4:2:0 tiles decode to RGBA")
    func decodesTenBitTile() throws {
        let (tile, reference) = try ReferenceTools.testPatternTileWithReference(
            itemID: 2, sourceWidth: 64, sourceHeight: 48, pixelFormat: "yuv420p10le")
        let image = try HEVCImageDecoder().decode(tile)
        let difference = try #require(image.meanAbsoluteDifference(to: reference))
        #expect(difference < 0.5, "mean absolute difference \(difference)")
    }

    @Test("a tile larger than the pixel limit is refused before decoding")
    func refusesTooManyPixels() throws {
        let tile = try ReferenceTools.testPatternTile(itemID: 1, sourceWidth: 64, sourceHeight: 48)
        var limits = ParseLimits.default
        limits.maximumPixels = 1000
        #expect(throws: MediaError.tooLarge(pixels: 64 * 48, limit: 1000)) { try HEVCImageDecoder(limits: limits).decode(tile) }
    }

    @Test("an ispe larger than the coded picture is an invalid image")
    func refusesIspeLargerThanPicture() throws {
        let tile = try ReferenceTools.testPatternTile(itemID: 1, sourceWidth: 64, sourceHeight: 48)
        let lying = HEVCTile(itemID: 1, configuration: tile.configuration, data: tile.data, width: 128, height: 48)
        #expect {
            try HEVCImageDecoder().decode(lying)
        } throws: { error in
            guard case .invalidImage = error as? MediaError else { return false }
            return true
        }
    }

    @Test("garbage, empty and truncated tile data throw typed errors")
    func corruptDataThrows() throws {
        let tile = try ReferenceTools.testPatternTile(itemID: 1, sourceWidth: 64, sourceHeight: 48)
        let variants: [HEVCTile] = [
            HEVCTile(itemID: 1, configuration: tile.configuration, data: [], width: 64, height: 48),
            HEVCTile(itemID: 1, configuration: tile.configuration, data: [0, 0, 0, 9, 1, 2, 3], width: 64, height: 48),
            HEVCTile(itemID: 1, configuration: tile.configuration, data: Array(tile.data.prefix(20)), width: 64, height: 48),
            HEVCTile(
                itemID: 1, configuration: HEVCDecoderConfiguration(record: [1, 2, 3], nalLengthSize: 4, parameterSets: []),
                data: tile.data, width: 64, height: 48),
            HEVCTile(itemID: 1, configuration: tile.configuration, data: tile.data, width: 0, height: 48),
        ]
        for variant in variants {
            #expect(throws: MediaError.self) { try HEVCImageDecoder().decode(variant) }
        }
    }

    @Test("mis-framed NAL unit data is reported as an invalid image before decoding")
    func checksNALFraming() throws {
        let tile = try ReferenceTools.testPatternTile(itemID: 1, sourceWidth: 64, sourceHeight: 48)
        let framings: [[UInt8]] = [
            Array(tile.data.dropLast()),  // last NAL unit shorter than its length says
            tile.data + [0, 0],  // data ends inside a length field
            [0, 0, 0, 0] + tile.data,  // zero-length NAL unit
        ]
        for data in framings {
            let broken = HEVCTile(itemID: 1, configuration: tile.configuration, data: data, width: 64, height: 48)
            #expect {
                try HEVCImageDecoder().decode(broken)
            } throws: { error in
                guard case .invalidImage(let reason) = error as? MediaError else { return false }
                return reason.contains("NAL")
            }
        }
        let oddLength = HEVCTile(
            itemID: 1,
            configuration: HEVCDecoderConfiguration(
                record: tile.configuration.record, nalLengthSize: 3, parameterSets: tile.configuration.parameterSets),
            data: tile.data, width: 64, height: 48)
        #expect(throws: MediaError.invalidImage(reason: "HEVC item 1: NAL length size 3 is not 1, 2 or 4")) {
            try HEVCImageDecoder().decode(oddLength)
        }
    }

    /// The test pattern rendered straight to RGBA by ffmpeg.
    private func referenceRGBA(width: Int, height: Int) throws -> PixelBuffer {
        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pattern.png").path
        try ReferenceTool.ffmpegTool("ffmpeg", ["-f", "lavfi", "-i", "testsrc=size=\(width)x\(height)", "-frames:v", "1", "-y", path])
        return try ReferenceTools.rgba(of: path, width: width, height: height)
    }
}
