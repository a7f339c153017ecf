import Foundation
import LivePairFormats
import LivePairMedia
import TestSupport

/// Fixtures and oracles made with ffmpeg (run through `ReferenceTool`, the tests' one runner).
enum ReferenceTools {
    /// A fresh temporary directory for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Decodes any image ffmpeg reads into RGBA of its stored size, converting with swscale's
    /// bilinear filter as the product does (the default bicubic chroma upsampling differs by a
    /// few levels at sharp colour edges).
    static func rgba(of path: String, width: Int, height: Int) throws -> PixelBuffer {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let raw = directory.appendingPathComponent("frame.rgba").path
        try ReferenceTool.ffmpegTool("ffmpeg", ["-i", path, "-frames:v", "1", "-sws_flags", "bilinear", "-f", "rawvideo", "-pix_fmt", "rgba", "-y", raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        return try PixelBuffer(width: width, height: height, format: .rgba8, storage: bytes)
    }

    /// Encodes one frame of ffmpeg's `testsrc` pattern (cropped by `crop`, an ffmpeg crop
    /// expression, when given) as lossless HEVC and returns it as a HEIF-style tile: an `hvcC`
    /// record holding the parameter sets and the picture as 4-byte length-prefixed NAL units.
    static func testPatternTile(
        itemID: UInt32, sourceWidth: Int, sourceHeight: Int, crop: (x: Int, y: Int, width: Int, height: Int)? = nil,
        pixelFormat: String = "yuv420p", lossless: Bool = true
    ) throws -> HEVCTile {
        try testPatternTileWithReference(
            itemID: itemID, sourceWidth: sourceWidth, sourceHeight: sourceHeight, crop: crop,
            pixelFormat: pixelFormat, lossless: lossless
        ).tile
    }

    /// Like `testPatternTile`, plus ffmpeg's own RGBA decode of the same HEVC stream (the oracle).
    static func testPatternTileWithReference(
        itemID: UInt32, sourceWidth: Int, sourceHeight: Int, crop: (x: Int, y: Int, width: Int, height: Int)? = nil,
        pixelFormat: String = "yuv420p", lossless: Bool = true
    ) throws -> (tile: HEVCTile, reference: PixelBuffer) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stream = directory.appendingPathComponent("tile.hevc").path
        var filters = ["format=\(pixelFormat)"]
        if let crop { filters.insert("crop=\(crop.width):\(crop.height):\(crop.x):\(crop.y)", at: 0) }
        try ReferenceTool.ffmpegTool("ffmpeg", [
            "-f", "lavfi", "-i", "testsrc=size=\(sourceWidth)x\(sourceHeight)", "-frames:v", "1", "-vf",
            filters.joined(separator: ","), "-c:v", "libx265", "-x265-params",
            "log-level=error" + (lossless ? ":lossless=1" : ""), "-f", "hevc", "-y", stream,
        ])
        let annexB = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stream)))
        let width = crop?.width ?? sourceWidth, height = crop?.height ?? sourceHeight
        let reference = try rgba(of: stream, width: width, height: height)
        return (makeTile(itemID: itemID, annexB: annexB, width: width, height: height), reference)
    }

    /// Splits an Annex-B stream at its start codes into NAL units.
    static func nalUnits(_ annexB: [UInt8]) -> [[UInt8]] {
        var starts: [(codeStart: Int, payloadStart: Int)] = []
        var index = 0
        while index + 3 <= annexB.count {
            if annexB[index] == 0, annexB[index + 1] == 0, annexB[index + 2] == 1 {
                let codeStart = index > 0 && annexB[index - 1] == 0 ? index - 1 : index
                starts.append((codeStart, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().map { position, start in
            let end = position + 1 < starts.count ? starts[position + 1].codeStart : annexB.count
            return Array(annexB[start.payloadStart..<end])
        }
    }

    /// Builds a tile: VPS/SPS/PPS go to an `hvcC` record (version 1, other header fields zero,
    /// 4-byte lengths), every other NAL unit to the length-prefixed data.
    static func makeTile(itemID: UInt32, annexB: [UInt8], width: Int, height: Int) -> HEVCTile {
        var parameterSets: [UInt8: [[UInt8]]] = [:]
        var data: [UInt8] = []
        for nal in nalUnits(annexB) where !nal.isEmpty {
            let type = (nal[0] >> 1) & 0x3F
            if (32...34).contains(type) {
                parameterSets[type, default: []].append(nal)
            } else {
                data += bigEndian(UInt32(nal.count), bytes: 4) + nal
            }
        }
        var record = [UInt8](repeating: 0, count: 23)
        record[0] = 1  // configurationVersion
        record[21] = 0xFC | 3  // lengthSizeMinusOne = 3
        let types = parameterSets.keys.sorted()
        record[22] = UInt8(types.count)
        var sets: [[UInt8]] = []
        for type in types {
            let units = parameterSets[type]!
            record += [0x80 | type] + bigEndian(UInt32(units.count), bytes: 2)
            for unit in units {
                record += bigEndian(UInt32(unit.count), bytes: 2) + unit
                sets.append(unit)
            }
        }
        let configuration = HEVCDecoderConfiguration(record: record, nalLengthSize: 4, parameterSets: sets)
        return HEVCTile(itemID: itemID, configuration: configuration, data: data, width: width, height: height)
    }

    private static func bigEndian(_ value: UInt32, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }
}
