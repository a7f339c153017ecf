import LivePairFormats
import TestSupport
import Testing

@Suite("Apple maker note")
struct AppleMakerNoteTests {
    func makerNote(_ file: String) throws -> AppleMakerNote? {
        let jpeg = try JPEGSegmentReader().read(try FileByteSource(path: SampleMedia.path(file)))
        let metadata = try ExifMetadata.read(tiffBytes: try #require(jpeg.exifTIFF), fileOffset: jpeg.exifTIFFFileOffset)
        return try AppleMakerNote.parse(try #require(metadata.makerNote))
    }

    @Test(arguments: ["live/train.jpg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg"])
    func contentIdentifierMatchesManifest(file: String) throws {
        let note = try #require(try makerNote(file))
        #expect(note.version == 1)
        #expect(!note.littleEndian)
        #expect(note.contentIdentifier == SampleMedia.entry(file)?.contentIdentifier)
        #expect(note.livePhotoVideoIndex == 0)
        #expect(note.tags.contains(AppleMakerNote.contentIdentifierTag))
        #expect(note.tags == note.tags.sorted())
    }

    @Test func trainIdentifierIsExact() throws {
        #expect(try makerNote("live/train.jpg")?.contentIdentifier == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(
            try makerNote("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg")?.contentIdentifier
                == "C3754624-A05F-474D-9F16-E9C47B5F892D")
    }

    @Test func agreesWithExiftool() throws {
        guard ReferenceTool.isInstalled("exiftool") else { return }
        let file = "live/train.jpg"
        let output = try ReferenceTool.run("exiftool", ["-s3", "-MediaGroupUUID", "-ContentIdentifier", SampleMedia.path(file)])
        let expected = output.split(separator: "\n").first.map(String.init)
        #expect(try makerNote(file)?.contentIdentifier == expected)
    }

    @Test func nonAppleMakerNoteIsNil() throws {
        #expect(try makerNote("motion/PXL_20200710_061629144.MP.jpg") == nil)
        #expect(try AppleMakerNote.parse(Array("Nikon\0\u{2}\u{10}\0\0MM\0*\0\0\0\u{8}".utf8)) == nil)
        #expect(try AppleMakerNote.parse([]) == nil)
        #expect(try AppleMakerNote.parse(AppleMakerNote.signature + [0, 1, 0x41, 0x41, 0, 0]) == nil)
    }

    /// Builds an Apple maker note with a content identifier (ASCII, out of line) and a LONG8 video index.
    static func build(littleEndian: Bool, identifier: String, videoIndex: UInt64) -> [UInt8] {
        let tiff = TIFFBuilder(littleEndian: littleEndian)
        let entryCount = 3
        let dataStart = 16 + 12 * entryCount + 4
        let identifierBytes = Array(identifier.utf8) + [0]
        var bytes = AppleMakerNote.signature + [0, 1] + (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D])
        bytes += tiff.u16(UInt16(entryCount))
        bytes += tiff.u16(0x0001) + tiff.u16(9) + tiff.u32(1) + tiff.u32(14)  // SLONG inline
        bytes += tiff.u16(0x0011) + tiff.u16(2) + tiff.u32(UInt32(identifierBytes.count)) + tiff.u32(UInt32(dataStart))
        bytes += tiff.u16(0x0017) + tiff.u16(16) + tiff.u32(1)
            + tiff.u32(UInt32(dataStart + identifierBytes.count))
        bytes += tiff.u32(0)
        bytes += identifierBytes + tiff.u64(videoIndex)
        return bytes
    }

    @Test(arguments: [false, true]) func builtMakerNoteWithLong8(littleEndian: Bool) throws {
        let identifier = "11111111-2222-3333-4444-555555555555"
        let bytes = Self.build(littleEndian: littleEndian, identifier: identifier, videoIndex: 0x1_0000_2000)
        let note = try #require(try AppleMakerNote.parse(bytes))
        #expect(note.littleEndian == littleEndian)
        #expect(note.tags == [0x0001, 0x0011, 0x0017])
        #expect(note.contentIdentifier == identifier)
        #expect(note.livePhotoVideoIndex == 0x1_0000_2000)
        #expect(note.entry(0x0017)?.type == .long8)
        #expect(note.entry(0x0001)?.signedIntegers == [14])
    }

    @Test func damagedEntriesDoNotTrap() throws {
        let bytes = Self.build(littleEndian: false, identifier: "ABCDEFGH", videoIndex: 1)
        for length in 0..<bytes.count {
            _ = try? AppleMakerNote.parse(Array(bytes.prefix(length)))
        }
        // A value pointing past the end is skipped, the rest is kept.
        var cut = bytes
        cut.removeLast(8)
        let note = try #require(try AppleMakerNote.parse(cut))
        #expect(note.livePhotoVideoIndex == nil)
        #expect(note.contentIdentifier == "ABCDEFGH")
    }
}
