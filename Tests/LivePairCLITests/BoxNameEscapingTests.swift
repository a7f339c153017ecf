import Foundation
import LivePairFormats
import TestSupport
import Testing

/// A box type (FourCC) is text made of the file's bytes: it is escaped once, where it is shown
/// (TerminalText in text output, the JSON writer in JSON), never twice.
@Suite("Box names with bytes outside printable ASCII")
struct BoxNameEscapingTests {
    @Test("a FourCC keeps its bytes: control bytes as characters, bytes over 0x7F carried as paths carry them")
    func description() {
        let code = FourCC(rawValue: 0xFF76_6301)  // FF 'v' 'c' 01
        #expect(FileSystemPath.bytes(code.description) == [0xFF, 0x76, 0x63, 0x01])
        #expect(FourCC("avc1").description == "avc1")
    }

    @Test("inspect shows a damaged sample entry type \\xFFvc\\x01 escaped once, in text and in JSON")
    func inspectShowsItOnce() throws {
        let workspace = try SampleVariants.Workspace()
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: SampleMedia.path("live/train.mov"))))
        let damaged = SampleVariants.replacingAll(Array("avc1".utf8), with: [0xFF, 0x76, 0x63, 0x01], in: original)
        #expect(damaged != original)
        let path = try workspace.write(damaged, as: "train.mov")
        // The codecs column is in the wide table.
        let text = try LivePairBinary.run(["inspect", "--wide", path])
        #expect(text.output.contains("\\xFFvc\\x01"), "\(text.output)")
        #expect(!text.output.contains("\\\\x"), "\(text.output)")
        let json = try LivePairBinary.run(["inspect", "--json", path])
        #expect(json.output.contains(#""videoCodec": "\uf7ffvc\u0001""#), "\(json.output)")
    }

    @Test("a damaged real HEIC's box names are shown escaped once")
    func realSample() throws {
        let run = try LivePairBinary.run(["inspect", SampleMedia.path("broken/IllegalArgumentException.HeifReader.processBoxes.heif")])
        #expect(run.output.contains("error[invalid-structure]: \\xFF\\xFF\\x05\\xEF box: size 5 is smaller than its 8-byte header"), "\(run.output)")
        #expect(run.output.contains("error[truncated]: TM\\x90\\x84 box at offset 534"), "\(run.output)")
    }
}
