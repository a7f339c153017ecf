import Foundation
import LivePairFormats
import Testing
import TestSupport

/// The HEVC picture parameter set fields that decide how a movie's pictures are decoded in
/// parallel, read from the real movies' `hvcC` and checked against FFmpeg's `trace_headers`.
@Suite struct HEVCPictureParameterSetTests {
    /// The payload of the first `hvcC` box in the file at `path` (found by its type code).
    static func hvcCRecord(_ path: String) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let type: [UInt8] = Array("hvcC".utf8)
        let at = try #require((4..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual(type) })
        let size = bytes[at - 4..<at].reduce(0) { $0 << 8 | Int($1) }
        return Array(bytes[at + 4..<at - 4 + size])
    }

    /// The value FFmpeg's `trace_headers` prints for `field` in the parameter sets of `path`'s video.
    static func traced(_ field: String, in path: String) throws -> [Int] {
        let log = try ReferenceTool.run("sh", [
            "-c", "/usr/bin/ffmpeg -hide_banner -nostdin -i \"$0\" -map 0:v:0 -c copy -bsf:v trace_headers -frames:v 1 -f null - 2>&1",
            path,
        ])
        return log.split(separator: "\n").filter { $0.contains(" \(field) ") }.compactMap { line in
            line.split(separator: "=").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    @Test("Apple's HEVC movies enable wavefronts and no tiles, as trace_headers reads them", arguments: [
        "live/IMG_3582.mov", "live/IMG_3582_edited.mov", "live/IMG_4580.mov",
    ])
    func appleMovies(file: String) throws {
        let path = SampleMedia.path(file)
        let configuration = try HEVCConfigurationParser.parse(try Self.hvcCRecord(path))
        let sets = configuration.pictureParameterSets
        #expect(sets.count == configuration.parameterSetTypes.filter { $0 == 34 }.count)
        let pps = try #require(sets.first)
        #expect(try Self.traced("entropy_coding_sync_enabled_flag", in: path) == [1])
        #expect(try Self.traced("tiles_enabled_flag", in: path) == [0])
        #expect(try Self.traced("pps_pic_parameter_set_id", in: path) == [Int(pps.identifier)])
        #expect(pps.entropyCodingSyncEnabled)
        #expect(!pps.tilesEnabled)
        #expect(pps.splitsPictures)
    }

    @Test("a NAL unit that is not a PPS, or ends inside the fields, is rejected")
    func rejectsOtherUnits() throws {
        let record = try HEVCConfigurationParser.parse(try Self.hvcCRecord(SampleMedia.path("live/IMG_3582.mov")))
        let sps = try #require(record.parameterSets.first { ($0[0] >> 1) & 0x3F == 33 })
        #expect(throws: FormatError.self) { try HEVCPictureParameterSet(nalUnit: sps) }
        let pps = try #require(record.parameterSets.first { ($0[0] >> 1) & 0x3F == 34 })
        #expect(throws: FormatError.self) { try HEVCPictureParameterSet(nalUnit: Array(pps.prefix(3))) }
        #expect(throws: FormatError.self) { try HEVCPictureParameterSet(nalUnit: [0x44]) }
    }

    @Test("Exp-Golomb codes read in order: ue 0, 1, 2, 3 are 1, 010, 011, 00100; se maps 1, 2, 3 to 1, -1, 2")
    func golombCodes() throws {
        // 1 010 011 00100 1 000 = 0xA6 0x48
        var reader = RBSPBitReader(payload: [0xA6, 0x48], context: "test")
        #expect(try reader.unsignedGolomb() == 0)
        #expect(try reader.unsignedGolomb() == 1)
        #expect(try reader.unsignedGolomb() == 2)
        #expect(try reader.unsignedGolomb() == 3)
        #expect(try reader.flag())
        var signed = RBSPBitReader(payload: [0xA6, 0x48], context: "test")
        #expect(try signed.signedGolomb() == 0)
        #expect(try signed.signedGolomb() == 1)
        #expect(try signed.signedGolomb() == -1)
        #expect(try signed.signedGolomb() == 2)
    }

    @Test("emulation-prevention bytes (00 00 03) are removed before the bits are read; reading past the end throws")
    func emulationPrevention() throws {
        var reader = RBSPBitReader(payload: [0x00, 0x00, 0x03, 0x01, 0xFF], context: "test")
        #expect(try reader.bits(16) == 0)
        #expect(try reader.bits(8) == 1)
        #expect(try reader.bits(8) == 0xFF)
        #expect(throws: FormatError.self) { try reader.flag() }
        var zeros = RBSPBitReader(payload: [0x00, 0x00, 0x00, 0x00, 0x00], context: "test")
        #expect(throws: FormatError.self) { try zeros.unsignedGolomb() }
    }
}
