import Foundation
import LivePairFormats
import TestSupport
import Testing

@Suite("Writer: HEIC Exif")
struct HEICExifWriterTests {
    /// Checks that the HEIF rewritten from `input` to `output` parses cleanly and keeps the
    /// primary item, the thumbnails and every item's data except `changed`; returns the output.
    @discardableResult
    static func expectImagesKept(input: String, output: String, changed: UInt32) throws -> HEIFFile {
        let old = try HEIFFile(source: FileByteSource(path: input))
        let new = try HEIFFile(source: FileByteSource(path: output))
        #expect(new.issues.isEmpty)
        #expect(new.meta.primaryItemID == old.meta.primaryItemID)
        #expect(new.primaryItem == old.primaryItem)
        #expect(new.thumbnails == old.thumbnails)
        #expect(try itemData(output, except: [changed]) == itemData(input, except: [changed]))
        return new
    }

    /// Every item's data, by id (items whose data cannot be read are left out).
    static func itemData(_ path: String, except skipped: Set<UInt32> = []) throws -> [UInt32: [UInt8]] {
        let source = try FileByteSource(path: path)
        let file = try HEIFFile(source: source)
        var result: [UInt32: [UInt8]] = [:]
        for item in file.meta.items where !skipped.contains(item.id) {
            if let data = try? file.itemData(item.id, from: source, maximumBytes: 1 << 30) { result[item.id] = data.bytes }
        }
        return result
    }

    /// LivePair's reading of the content identifier of a HEIC.
    static func livePairIdentifier(_ path: String) throws -> String? {
        let source = try FileByteSource(path: path)
        guard let exif = try HEIFFile(source: source).exif(from: source) else { return nil }
        return try ExifMetadata.read(tiffBytes: exif.tiff).appleMakerNote?.contentIdentifier
    }

    /// Whether libheif 1.15 decodes `path`; the decoded planes when it does (heif-convert's Y4M:
    /// the decoder's own samples, with no colour conversion or PNG compression to pay for).
    static func libheifPixels(_ path: String, scratch: WriterScratch) -> Data? {
        guard ReferenceTool.isInstalled("heif-convert") else { return nil }
        let y4m = scratch.file("decoded-\(UUID().uuidString).y4m")
        defer { try? FileManager.default.removeItem(atPath: y4m) }
        guard (try? ReferenceTool.run("heif-convert", [path, y4m])) != nil else { return nil }
        return FileManager.default.contents(atPath: y4m)
    }

    /// Writes a new identifier into `input` and checks the output: HEIFFile reads it with the same
    /// primary and the same data for every other item, LivePair and exiftool read the identifier,
    /// every other exiftool tag is unchanged (apart from `allowedChanges`), and libheif decodes
    /// the same pixels when it could decode the input.
    @discardableResult
    func writeAndVerify(
        _ input: String, scratch: WriterScratch, allowedChanges: Set<String> = [], identifier: String = UUID().uuidString
    ) throws -> (output: String, result: HEICExifWriter.Result) {
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let output = scratch.file("out-\(UUID().uuidString).heic")
        let result = try HEICExifWriter(source: FileByteSource(path: input)).write(to: output, contentIdentifier: identifier)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before, "the input is never modified")
        #expect(try FileByteSource(path: output).size == result.outputSize)

        let new = try Self.expectImagesKept(input: input, output: output, changed: result.exifItemID)
        #expect(new.exifItemIDs.first == result.exifItemID)
        #expect(try Self.livePairIdentifier(output) == identifier)

        if ReferenceTool.isInstalled("exiftool") {
            let oldTags = try StillOracle.tags(input)
            let newTags = try StillOracle.tags(output)
            #expect(newTags["Apple:MediaGroupUUID"] == identifier)
            let changed = allowedChanges.union(["Apple:MediaGroupUUID", "File:FileSize", "QuickTime:MediaDataSize", "QuickTime:MediaDataOffset"])
            for (key, value) in oldTags where !changed.contains(key) {
                #expect(newTags[key] == value, "\(key) changed: \(value) -> \(newTags[key] ?? "missing")")
            }
            for key in newTags.keys where oldTags[key] == nil && !changed.contains(key) {
                Issue.record("new tag \(key) = \(newTags[key] ?? "")")
            }
            // exiftool's structural validation finds nothing the input did not already have.
            let validate = ["-validate", "-warning", "-a", "-s", "-s", "-s"]
            #expect(try ReferenceTool.run("exiftool", validate + [output]) == ReferenceTool.run("exiftool", validate + [input]))
        }
        if let pixels = Self.libheifPixels(input, scratch: scratch) {
            #expect(Self.libheifPixels(output, scratch: scratch) == pixels, "libheif decodes the same pixels")
        }
        return (output, result)
    }

    @Test("older iPhone HEICs that libheif 1.15 decodes", arguments: ["live/IMG_2927.HEIC", "live/IMG_1853.HEIC", "plain/IMG_0102.HEIC"])
    func olderFiles(file: String) throws {
        let scratch = try WriterScratch()
        let (_, result) = try writeAndVerify(SampleMedia.path(file), scratch: scratch)
        #expect(result.metaSizeDelta == 0)
    }

    @Test("an iPhone Live Photo HEIC gets a new identifier written over the old one: same size, meta unchanged")
    func replaceIdentifier() throws {
        let scratch = try WriterScratch()
        let input = SampleMedia.path("live/IMG_3582.HEIC")
        let (output, result) = try writeAndVerify(input, scratch: scratch)
        #expect(!result.createdItem)
        #expect(result.metaSizeDelta == 0)
        // Only bytes of the Exif item change (the identifier's characters), in place.
        let old = try SampleMedia.bytes("live/IMG_3582.HEIC")
        let new = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let exif = try #require(try HEIFFile(source: FileByteSource(path: input)).exif(from: FileByteSource(path: input)))
        #expect(new.count == old.count)
        let changed = old.indices.filter { $0 < new.count && old[$0] != new[$0] }
        #expect(!changed.isEmpty && changed.count <= 36)
        #expect(changed.allSatisfy { UInt64($0) >= exif.fileOffset && UInt64($0) < exif.fileOffset + UInt64(exif.tiff.count) })
        #expect(result.exifFileOffset == exif.fileOffset - 10)
    }

    @Test("a larger Exif goes to a new mdat and the old Exif bytes are zeroed")
    func largerExifBlanksOld() throws {
        let scratch = try WriterScratch()
        let input = SampleMedia.path("live/IMG_3582.HEIC")
        let long = String(repeating: "A", count: 200)
        let (output, result) = try writeAndVerify(input, scratch: scratch, identifier: long)
        let old = try SampleMedia.bytes("live/IMG_3582.HEIC")
        let new = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let exif = try #require(try HEIFFile(source: FileByteSource(path: input)).exif(from: FileByteSource(path: input)))
        #expect(result.exifFileOffset > UInt64(old.count))
        let oldRange = Int(exif.fileOffset)..<Int(exif.fileOffset) + exif.tiff.count
        #expect(new[oldRange].allSatisfy { $0 == 0 })
        #expect(Data(new).range(of: Data("602FEBB7-6B59-4799-96E6-9C8484D873C7".utf8)) == nil)
    }

    @Test("Exif without a content identifier gets maker-note tag 0x11; every other tag is kept")
    func addIdentifier() throws {
        let scratch = try WriterScratch()
        let input = SampleMedia.path("plain/IMG_2682.heic")
        #expect(try Self.livePairIdentifier(input) == nil)
        let (_, result) = try writeAndVerify(input, scratch: scratch)
        #expect(!result.createdItem)
        #expect(result.method == .rebuiltExif)
    }

    @Test("an Exif item already at the end of the file")
    func exifAtEnd() throws {
        let scratch = try WriterScratch()
        try writeAndVerify(SampleMedia.path("live/exif-at-eof.heic"), scratch: scratch)
    }

    @Test("Samsung: little-endian Exif, meta after mdat, the motion-photo video stays intact and last")
    func samsung() throws {
        let scratch = try WriterScratch()
        let input = SampleMedia.path("motion/samsung-one-ui-6.heic")
        // Samsung writes no maker note: the new Apple one is the only addition.
        let (output, _) = try writeAndVerify(input, scratch: scratch, allowedChanges: ["Apple:MakerNoteVersion"])
        func video(_ path: String) throws -> [UInt8] {
            let source = try FileByteSource(path: path)
            let boxes = try TopLevelBoxScanner().scan(source)
            let found = try #require(try MotionPhotoLocator().locate(in: source, xmp: nil, topLevelBoxes: boxes).video)
            return try source.readExactly(at: found.fileOffset, count: Int(found.length), context: "video")
        }
        #expect(try video(output) == video(input))
        let boxes = try TopLevelBoxScanner().scan(FileByteSource(path: output)).map(\.type)
        #expect(Array(boxes.suffix(2)) == ["mpvd", "sefd"])
        let trailer = try #require(try SamsungSEFTrailer.read(FileByteSource(path: output)))
        #expect(trailer.entries.contains { $0.name == "MotionPhoto_Data" })
    }

    @Test("a HEIC without Exif gets a new Exif item linked to the primary; meta grows and data moves")
    func createExif() throws {
        let scratch = try WriterScratch()
        let stripped = scratch.file("no-exif.heic")
        let input = SampleMedia.path("plain/IMG_2682.heic")
        let removed = try HEICExifWriter(source: FileByteSource(path: input)).writeRemovingExif(to: stripped)
        #expect(!removed.isEmpty)
        let strippedFile = try HEIFFile(source: FileByteSource(path: stripped))
        #expect(strippedFile.exifItemIDs.isEmpty)
        #expect(strippedFile.issues.isEmpty)
        #expect(try Self.itemData(stripped) == Self.itemData(input, except: Set(removed)))

        let identifier = UUID().uuidString
        let output = scratch.file("created.heic")
        let result = try HEICExifWriter(source: FileByteSource(path: stripped)).write(to: output, contentIdentifier: identifier)
        #expect(result.createdItem)
        #expect(result.method == .createdExif)
        #expect(result.metaSizeDelta > 0)
        let file = try HEIFFile(source: FileByteSource(path: output))
        let primary = try #require(file.meta.primaryItemID)
        #expect(file.meta.item(result.exifItemID)?.type == "Exif")
        #expect(file.meta.references(from: result.exifItemID, type: "cdsc") == [primary])
        #expect(result.exifItemID == (strippedFile.meta.items.map(\.id).max() ?? 0) + 1)
        #expect(try Self.itemData(output, except: [result.exifItemID]) == Self.itemData(stripped))
        #expect(try Self.livePairIdentifier(output) == identifier)
        if ReferenceTool.isInstalled("exiftool") {
            let tags = try StillOracle.tags(output)
            #expect(tags["Apple:MediaGroupUUID"] == identifier)
        }
        if let pixels = Self.libheifPixels(input, scratch: scratch) {
            #expect(Self.libheifPixels(output, scratch: scratch) == pixels)
        }
    }

    @Test("no iref: one is created for the new Exif item")
    func createReferenceBox() throws {
        let scratch = try WriterScratch()
        let input = SampleMedia.path("plain/IMG_2682.heic")
        // Remove Exif, then build a copy whose meta has no iref by editing the BoxNode tree.
        let stripped = scratch.file("no-exif.heic")
        try HEICExifWriter(source: FileByteSource(path: input)).writeRemovingExif(to: stripped)
        var nodes = try BoxNode.parseAll(try [UInt8](Data(contentsOf: URL(fileURLWithPath: stripped))))
        let metaIndex = try #require(nodes.firstIndex { $0.type == "meta" })
        let oldSize = nodes[metaIndex].size
        var meta = nodes[metaIndex]
        try #require(meta.isContainer)
        let irefSize = meta.child("iref")?.size ?? 0
        meta.removeChildren { $0.type == "iref" }
        meta.append(.leaf("free", [UInt8](repeating: 0, count: Int(irefSize) - 8)))
        nodes[metaIndex] = meta
        #expect(meta.size == oldSize)
        let noReferences = scratch.file("no-iref.heic")
        try AtomicFileWriter.write(BoxNode.serialize(nodes), to: noReferences)
        let output = scratch.file("out.heic")
        let identifier = UUID().uuidString
        let result = try HEICExifWriter(source: FileByteSource(path: noReferences)).write(to: output, contentIdentifier: identifier)
        let file = try HEIFFile(source: FileByteSource(path: output))
        #expect(file.meta.references == [HEIFItemReference(type: "cdsc", fromItemID: result.exifItemID, toItemIDs: [file.meta.primaryItemID ?? 0])])
        #expect(try Self.livePairIdentifier(output) == identifier)
        #expect(try Self.itemData(output, except: [result.exifItemID]) == Self.itemData(noReferences))
    }

    @Test("iloc without an offset field: it is widened, meta grows and every item's data moves with its box")
    func widenedLocations() throws {
        let scratch = try WriterScratch()
        let input = SampleMedia.path("plain/IMG_2682.heic")
        let bytes = try SampleMedia.bytes("plain/IMG_2682.heic")
        let file = try HEIFFile(source: FileByteSource(path: input))
        // Rewrite iloc with offset_size 0 (each item's position in its base offset; same size as
        // the original 4/4/0 layout, else padded with a free box inside meta) so nothing else moves.
        var payload = ByteWriter()
        payload.fullBoxHeader(version: 1, flags: 0)
        payload.u8(0x04)  // offset_size 0, length_size 4
        payload.u8(0x40)  // base_offset_size 4, index_size 0
        payload.u16(UInt16(file.meta.locations.count))
        for location in file.meta.locations {
            try #require(location.extents.count == 1)
            let extent = location.extents[0]
            payload.u16(UInt16(location.itemID))
            payload.u16(location.constructionMethod == .idatOffset ? 1 : 0)
            payload.u16(0)
            payload.u32(UInt32(location.baseOffset + extent.offset))
            payload.u16(1)
            payload.u32(UInt32(extent.length))
        }
        var nodes = try BoxNode.parseAll(bytes)
        let metaIndex = try #require(nodes.firstIndex { $0.type == "meta" })
        var meta = nodes[metaIndex]
        try #require(meta.isContainer)
        let oldSize = meta.size
        let ilocIndex = try #require(meta.childIndex("iloc"))
        var children = meta.children
        children[ilocIndex] = .leaf("iloc", payload.bytes)
        meta.children = children
        let padding = Int(oldSize) - Int(meta.size)
        try #require(padding == 0 || padding >= 8)
        if padding > 0 { meta.append(.leaf("free", [UInt8](repeating: 0, count: padding - 8))) }
        nodes[metaIndex] = meta
        let narrow = scratch.file("narrow.heic")
        try AtomicFileWriter.write(BoxNode.serialize(nodes), to: narrow)
        #expect(try Self.itemData(narrow) == Self.itemData(input))

        let (output, result) = try writeAndVerify(narrow, scratch: scratch)
        #expect(result.metaSizeDelta == Int64(4 * file.meta.locations.count))
        #expect(try Self.itemData(output, except: [result.exifItemID]) == Self.itemData(input, except: [result.exifItemID]))
    }

    @Test("a last mdat with size 0 (to the end of the file) gets its size written out")
    func sizeZeroMediaData() throws {
        let scratch = try WriterScratch()
        var bytes = try SampleMedia.bytes("live/IMG_2927.HEIC")
        let source = try FileByteSource(path: SampleMedia.path("live/IMG_2927.HEIC"))
        let mdat = try #require(try HEIFFile(source: source).topLevelBoxes.last)
        try #require(mdat.type == "mdat")
        bytes.replaceSubrange(Int(mdat.fileOffset)..<Int(mdat.fileOffset) + 4, with: [0, 0, 0, 0])
        let input = scratch.file("to-end.heic")
        try AtomicFileWriter.write(bytes, to: input)
        #expect(try HEIFFile(source: FileByteSource(path: input)).topLevelBoxes.last?.sizeEncoding == .toEnd)
        // An identifier longer than the old one: the new Exif does not fit the old space.
        let (output, _) = try writeAndVerify(input, scratch: scratch, identifier: String(repeating: "B", count: 200))
        let boxes = try TopLevelBoxScanner().scan(FileByteSource(path: output))
        #expect(boxes.map(\.type) == ["ftyp", "meta", "mdat", "mdat"])
        #expect(boxes[2].size == mdat.size && boxes[2].sizeEncoding == .compact)
    }

    @Test("a failing write leaves no output and the input intact")
    func failingWrite() throws {
        let scratch = try WriterScratch()
        let input = SampleMedia.path("live/IMG_3582.HEIC")
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        #expect(throws: FormatError.self) {
            try HEICExifWriter(source: FileByteSource(path: input))
                .write(to: scratch.file("never.heic"), contentIdentifier: UUID().uuidString) { sink in
                    FailingSink(sink, failAfter: 100_000)
                }
        }
        #expect(try scratch.contents().isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }

    @Test("an invalid identifier is refused before anything is written")
    func invalidIdentifier() throws {
        let scratch = try WriterScratch()
        #expect(throws: FormatError.self) {
            try HEICExifWriter(source: FileByteSource(path: SampleMedia.path("live/IMG_3582.HEIC")))
                .write(to: scratch.file("never.heic"), contentIdentifier: "")
        }
        #expect(try scratch.contents().isEmpty)
    }
}
