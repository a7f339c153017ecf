import Foundation
import LivePairFormats
import TestSupport
import Testing

enum StillOracle {
    /// exiftool's `-j -G1 -a` tags of `path`, without file-system fields.
    static func tags(_ path: String) throws -> [String: String] {
        let text = try ReferenceTool.run("exiftool", ["-j", "-G1", "-a", "-b", "-e", path])
        let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        var tags: [String: String] = [:]
        for (key, value) in list?.first ?? [:] {
            if key == "SourceFile" || key.hasPrefix("System:") || key.hasPrefix("ExifTool:") { continue }
            tags[key] = "\(value)"
        }
        return tags
    }

    /// The bytes from the SOS marker to the end of the file (the image data).
    static func imageData(_ path: String) throws -> [UInt8] {
        let source = try FileByteSource(path: path)
        let structure = try JPEGSegmentReader().read(source)
        let start = try #require(structure.startOfScanFileOffset)
        return try source.readExactly(at: start, count: Int(source.size - start), context: "image data")
    }

    /// LivePair's reading of the content identifier.
    static func livePairIdentifier(_ path: String) throws -> String? {
        let structure = try JPEGSegmentReader().read(FileByteSource(path: path))
        guard let tiff = structure.exifTIFF else { return nil }
        return try ExifMetadata.read(tiffBytes: tiff).appleMakerNote?.contentIdentifier
    }
}

@Suite("Writer: JPEG maker note")
struct JPEGMakerNoteWriterTests {
    /// Writes `identifier` into `input`, then checks the result with exiftool and LivePair: the
    /// identifier is read back, the image data is byte-identical, and every other tag is unchanged
    /// (apart from `allowedChanges`).
    @discardableResult
    func restampAndVerify(
        _ input: String, scratch: WriterScratch, expected method: JPEGMakerNoteWriter.Method,
        allowedChanges: Set<String> = []
    ) throws -> String {
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let identifier = UUID().uuidString
        let output = scratch.file("out-\(UUID().uuidString).jpg")
        let result = try JPEGMakerNoteWriter(source: FileByteSource(path: input))
            .write(to: output, contentIdentifier: identifier)
        #expect(result.method == method)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before, "the input is never modified")
        #expect(try FileByteSource(path: output).size == result.outputSize)
        #expect(try StillOracle.livePairIdentifier(output) == identifier)
        #expect(try StillOracle.imageData(output) == StillOracle.imageData(input))
        guard ReferenceTool.isInstalled("exiftool") else { return output }
        let old = try StillOracle.tags(input)
        let new = try StillOracle.tags(output)
        #expect(new["Apple:MediaGroupUUID"] ?? new["Apple:ContentIdentifier"] == identifier)
        let changed = allowedChanges.union(["Apple:MediaGroupUUID", "Apple:ContentIdentifier", "File:FileSize"])
        for (key, value) in old where !changed.contains(key) {
            #expect(new[key] == value, "\(key) changed: \(value) -> \(new[key] ?? "missing")")
        }
        for key in new.keys where old[key] == nil && !changed.contains(key) {
            Issue.record("new tag \(key) = \(new[key] ?? "")")
        }
        #expect(!(try ReferenceTool.run("exiftool", ["-validate", "-warning", "-a", "-s", "-s", "-s", output]))
            .contains("Error"))
        return output
    }

    @Test("restamping a Live Photo JPEG replaces the 37 bytes in place", arguments: [
        "live/train.jpg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg",
    ])
    func restamp(file: String) throws {
        let scratch = try WriterScratch()
        let output = try restampAndVerify(SampleMedia.path(file), scratch: scratch, expected: .replacedInPlace)
        // Only the 36 identifier characters differ.
        let input = try SampleMedia.bytes(file)
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(written.count == input.count)
        #expect(zip(input, written).filter { $0 != $1 }.count <= 36)
    }

    @Test("an Apple maker note without a usable identifier is rebuilt with all its entries")
    func rebuildAppleNote() throws {
        guard ReferenceTool.isInstalled("exiftool") else { return }
        let scratch = try WriterScratch()
        let input = scratch.file("empty-uuid.jpg")
        _ = try ReferenceTool.run(
            "exiftool", ["-Apple:MediaGroupUUID=", "-o", input, SampleMedia.path("live/train.jpg")])
        try #require(FileManager.default.fileExists(atPath: input))
        try restampAndVerify(input, scratch: scratch, expected: .rebuiltExif, allowedChanges: ["IFD1:ThumbnailOffset"])
    }

    @Test("a JPEG with Exif but no maker note gains Apple's maker note; every tag is kept")
    func addMakerNote() throws {
        let scratch = try WriterScratch()
        try restampAndVerify(
            SampleMedia.path("plain/pixel_8.jpg"), scratch: scratch, expected: .rebuiltExif,
            allowedChanges: [
                "IFD1:ThumbnailOffset", "Apple:MakerNoteVersion", "MPImage2:MPImageStart",
                // The MPF index follows the primary's new length (PackagingMultiPictureTests).
                "MPImage1:MPImageLength",
            ])
    }

    @Test("a JPEG without Exif gets an Exif segment", arguments: ["exiftool", "ffmpeg"])
    func createExif(tool: String) throws {
        guard ReferenceTool.isInstalled(tool) else { return }
        let scratch = try WriterScratch()
        let input = scratch.file("plain.jpg")
        if tool == "exiftool" {
            _ = try ReferenceTool.run("exiftool", ["-all=", "-o", input, SampleMedia.path("live/train.jpg")])
        } else {
            _ = try ReferenceTool.run(
                "ffmpeg", ["-v", "error", "-i", SampleMedia.path("live/train.jpg"), "-vf", "scale=320:-1", input])
        }
        let structure = try JPEGSegmentReader().read(FileByteSource(path: input))
        try #require(structure.exifTIFF == nil)
        let output = try restampAndVerify(
            input, scratch: scratch, expected: .createdExif,
            allowedChanges: [
                "Apple:MakerNoteVersion", "ExifIFD:ExifVersion", "File:ExifByteOrder", "IFD0:XResolution", "IFD0:YResolution",
                "IFD0:ResolutionUnit", "IFD0:YCbCrPositioning", "ExifIFD:ComponentsConfiguration", "ExifIFD:FlashpixVersion",
                "ExifIFD:ColorSpace", "ExifIFD:ExifImageWidth", "ExifIFD:ExifImageHeight",
            ])
        // The created Exif has what Exif requires of a JPEG: exiftool's validation finds nothing.
        #expect(try ReferenceTool.run("exiftool", ["-s", "-s", "-s", "-validate", output]).hasPrefix("OK"))
        let written = try JPEGSegmentReader().read(FileByteSource(path: output))
        // JFIF's APP0 stays first when present.
        if structure.segments.count > 1, structure.segments[1].marker == 0xE0 {
            #expect(written.segments[1].marker == 0xE0)
            #expect(written.segments[2].marker == 0xE1)
        } else {
            #expect(written.segments[1].marker == 0xE1)
        }
        // All the input's segments follow unchanged.
        #expect(written.segments.count == structure.segments.count + 1)
    }

    @Test("a failing write leaves no output and the input intact")
    func failingWrite() throws {
        let scratch = try WriterScratch()
        let input = SampleMedia.path("live/train.jpg")
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        #expect(throws: FormatError.self) {
            try JPEGMakerNoteWriter(source: FileByteSource(path: input))
                .write(to: scratch.file("never.jpg"), contentIdentifier: UUID().uuidString) { sink in
                    FailingSink(sink, failAfter: 70_000)
                }
        }
        #expect(try scratch.contents().isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }

    @Test("TIFF documents: an unmodified Exif block relays to the same tags and values")
    func tiffRelayout() throws {
        for file in ["live/train.jpg", "plain/pixel_8.jpg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg"] {
            let structure = try JPEGSegmentReader().read(FileByteSource(path: SampleMedia.path(file)))
            let tiff = try #require(structure.exifTIFF)
            let document = try TIFFDocument(parsing: tiff)
            let written = try TIFFWriter.write(document)
            #expect(try normalized(TIFFDocument(parsing: written)) == normalized(document), "\(file)")
            let before = try TIFFReader().read(tiff), after = try TIFFReader().read(written)
            #expect(before.ifds.map { $0.entries.map(\.tag) } == after.ifds.map { $0.entries.map(\.tag) })
            #expect(
                before.ifds.map { $0.entries.filter { ![0x8769, 0x8825, 0xA005, 0x0201].contains($0.tag) }.map(\.valueBytes) }
                    == after.ifds.map { $0.entries.filter { ![0x8769, 0x8825, 0xA005, 0x0201].contains($0.tag) }.map(\.valueBytes) })
            #expect(ExifMetadata(before).appleMakerNote == ExifMetadata(after).appleMakerNote)
        }
    }

    /// `document` with the values of pointer entries zeroed (they change when values move).
    private func normalized(_ document: TIFFDocument) -> TIFFDocument {
        func clean(_ directory: TIFFDirectory) -> TIFFDirectory {
            var directory = directory
            for index in directory.entries.indices where [0x8769, 0x8825, 0xA005, 0x0201, 0x0111, 0x0144].contains(directory.entries[index].tag) {
                directory.entries[index].value = directory.entries[index].value.map { _ in 0 }
            }
            directory.subdirectories = directory.subdirectories.mapValues(clean)
            return directory
        }
        var document = document
        document.directories = document.directories.map(clean)
        return document
    }

    @Test("a built maker note has Apple's layout and reads back")
    func builtMakerNote() throws {
        var builder = AppleMakerNoteBuilder()
        builder.setContentIdentifier("E905E6C6-C747-4805-942F-9904A0281F02")
        let bytes = builder.build()
        #expect(Array(bytes[0..<16]) == Array("Apple iOS".utf8) + [0, 0, 1, 0x4D, 0x4D, 0, 2])
        let note = try #require(try AppleMakerNote.parse(bytes))
        #expect(note.tags == [0x0001, 0x0011])
        #expect(note.contentIdentifier == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(note.entry(0x0011)?.count == 37)
        #expect(note.entry(0x0001)?.signedIntegers == [12])
        // Rebuilding a parsed note reproduces it.
        let reparsed = try #require(try AppleMakerNoteBuilder(parsing: bytes))
        #expect(reparsed.build() == bytes)
    }
}
