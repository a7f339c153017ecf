import Testing
import LivePairFormats
import TestSupport

// MARK: - A small HEIF writer for hand-made files

/// Writes minimal HEIF files with chosen `iloc`/`iinf`/`iref`/`ipma` encodings.
struct HEIFTestBuilder {
    struct Item {
        var id: UInt32
        var type: String
        var data: [UInt8]
        var inIdat = false
        var hidden = false
        var contentType: String?
        /// 1-based property indices, with the essential bit.
        var properties: [(index: Int, essential: Bool)] = []
        var constructionMethod: UInt8?
    }

    var ilocVersion: UInt8 = 1
    var offsetSize = 4
    var lengthSize = 4
    var baseOffsetSize = 0
    var indexSize = 0
    /// Subtracted from every file offset and written as the base offset (needs `baseOffsetSize` > 0).
    var baseOffset: UInt64 = 0
    /// 32-bit ids everywhere (`pitm` v1, `iinf` v1 + `infe` v3, `iref` v1, `ipma` v1).
    var wideIDs = false
    /// `ipma` flags & 1: 15-bit property indices.
    var wideIndices = false
    /// Split each item's data into two extents.
    var splitExtents = false
    var primary: UInt32 = 1
    var properties: [[UInt8]] = []
    var references: [(type: String, from: UInt32, to: [UInt32])] = []
    var items: [Item] = []
    var handler = "pict"

    static func be(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
    }
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be(UInt64(payload.count + 8), 4) + Array(type.utf8) + payload
    }
    static func fullBox(_ type: String, version: UInt8, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + be(UInt64(flags), 3) + payload)
    }
    static func ispe(_ width: UInt32, _ height: UInt32) -> [UInt8] {
        fullBox("ispe", version: 0, be(UInt64(width), 4) + be(UInt64(height), 4))
    }
    /// An `hvcC` with fake VPS/SPS/PPS NAL units.
    static func hvcC(lengthSizeMinusOne: UInt8 = 3) -> [UInt8] {
        var record: [UInt8] = [1, 0x01, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 0x5D, 0xF0, 0, 0xFC, 0xFD, 0xF8, 0xF8, 0, 0]
        record += [0xFC | (lengthSizeMinusOne & 3)]
        let units: [(UInt8, [UInt8])] = [(32, [0x40, 0x01, 0x0C]), (33, [0x42, 0x01, 0x01, 0x01]), (34, [0x44, 0x01, 0xC0])]
        record.append(UInt8(units.count))
        for (type, unit) in units {
            record += [0x80 | type] + be(1, 2) + be(UInt64(unit.count), 2) + unit
        }
        return box("hvcC", record)
    }
    /// One length-prefixed IDR slice NAL unit.
    static let tileData: [UInt8] = [0, 0, 0, 3, 0x26, 0x01, 0xAF]
    static let exifData: [UInt8] = [0, 0, 0, 6] + Array("Exif\0\0".utf8) + [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 0]

    func meta(mdatPayloadOffset: UInt64) -> [UInt8] {
        let idWidth = wideIDs ? 4 : 2
        var children: [UInt8] = []
        children += Self.fullBox("hdlr", version: 0, Self.be(0, 4) + Array(handler.utf8) + Self.be(0, 12) + [0])
        children += Self.fullBox("pitm", version: wideIDs ? 1 : 0, Self.be(UInt64(primary), idWidth))
        var entries: [UInt8] = []
        for item in items {
            var payload = Self.be(UInt64(item.id), idWidth) + Self.be(0, 2) + Array(item.type.utf8) + [0]
            if let contentType = item.contentType { payload += Array(contentType.utf8) + [0] }
            entries += Self.fullBox("infe", version: wideIDs ? 3 : 2, flags: item.hidden ? 1 : 0, payload)
        }
        children += Self.fullBox(
            "iinf", version: wideIDs ? 1 : 0, Self.be(UInt64(items.count), wideIDs ? 4 : 2) + entries)
        // iloc
        var iloc: [UInt8] = [UInt8(offsetSize << 4 | lengthSize), UInt8(baseOffsetSize << 4 | indexSize)]
        iloc += Self.be(UInt64(items.count), ilocVersion < 2 ? 2 : 4)
        var fileCursor = mdatPayloadOffset
        var idatCursor: UInt64 = 0
        var idat: [UInt8] = []
        for item in items {
            iloc += Self.be(UInt64(item.id), ilocVersion < 2 ? 2 : 4)
            let method: UInt8 = item.constructionMethod ?? (item.inIdat ? 1 : 0)
            if ilocVersion >= 1 { iloc += Self.be(UInt64(method), 2) }
            iloc += Self.be(0, 2)  // data reference index
            let start: UInt64
            if item.inIdat {
                start = idatCursor
                idatCursor += UInt64(item.data.count)
                idat += item.data
            } else {
                start = fileCursor
                fileCursor += UInt64(item.data.count)
            }
            let base = item.inIdat ? 0 : baseOffset
            iloc += Self.be(base, baseOffsetSize)
            let pieces: [(UInt64, UInt64)] =
                splitExtents && item.data.count >= 2
                ? [(start, UInt64(item.data.count / 2)),
                   (start + UInt64(item.data.count / 2), UInt64(item.data.count - item.data.count / 2))]
                : [(start, UInt64(item.data.count))]
            iloc += Self.be(UInt64(pieces.count), 2)
            for (index, piece) in pieces.enumerated() {
                if ilocVersion >= 1 && indexSize > 0 { iloc += Self.be(UInt64(index + 1), indexSize) }
                iloc += Self.be(piece.0 - base, offsetSize) + Self.be(piece.1, lengthSize)
            }
        }
        children += Self.fullBox("iloc", version: ilocVersion, iloc)
        if !idat.isEmpty { children += Self.box("idat", idat) }
        if !references.isEmpty {
            var iref: [UInt8] = []
            for reference in references {
                var payload = Self.be(UInt64(reference.from), idWidth) + Self.be(UInt64(reference.to.count), 2)
                for target in reference.to { payload += Self.be(UInt64(target), idWidth) }
                iref += Self.box(reference.type, payload)
            }
            children += Self.fullBox("iref", version: wideIDs ? 1 : 0, iref)
        }
        var ipma: [UInt8] = Self.be(UInt64(items.filter { !$0.properties.isEmpty }.count), 4)
        for item in items where !item.properties.isEmpty {
            ipma += Self.be(UInt64(item.id), idWidth) + [UInt8(item.properties.count)]
            for property in item.properties {
                if wideIndices {
                    ipma += Self.be(UInt64(property.index) | (property.essential ? 0x8000 : 0), 2)
                } else {
                    ipma += [UInt8(property.index) | (property.essential ? 0x80 : 0)]
                }
            }
        }
        let ipco = Self.box("ipco", properties.flatMap { $0 })
        children += Self.box("iprp", ipco + Self.fullBox("ipma", version: wideIDs ? 1 : 0, flags: wideIndices ? 1 : 0, ipma))
        return Self.fullBox("meta", version: 0, children)
    }

    func build() -> [UInt8] {
        let ftyp = Self.box("ftyp", Array("heic".utf8) + Self.be(0, 4) + Array("mif1heic".utf8))
        let mdatData = items.filter { !$0.inIdat }.flatMap(\.data)
        let metaLength = meta(mdatPayloadOffset: 1 << 16).count
        let meta = meta(mdatPayloadOffset: UInt64(ftyp.count + metaLength + 8))
        return ftyp + meta + Self.box("mdat", mdatData)
    }

    /// A file with an hvc1 primary (64x48) and an Exif item describing it.
    static func simple() -> HEIFTestBuilder {
        var builder = HEIFTestBuilder()
        builder.properties = [ispe(64, 48), hvcC()]
        builder.items = [
            Item(id: 1, type: "hvc1", data: tileData, properties: [(1, false), (2, true)]),
            Item(id: 2, type: "Exif", data: exifData, hidden: true),
        ]
        builder.references = [("cdsc", 2, [1])]
        return builder
    }

    /// A 1x2 grid (128x48 output, 32-bit sizes, data in idat) of two 64x48 tiles, 32-bit ids.
    static func grid() -> HEIFTestBuilder {
        var builder = HEIFTestBuilder()
        builder.ilocVersion = 2
        builder.wideIDs = true
        builder.wideIndices = true
        builder.primary = 70_000
        builder.properties = [ispe(64, 48), hvcC(), ispe(128, 48), fullBox("irot", version: 0, []).dropLast(4) + box("irot", [1])]
        builder.properties[3] = box("irot", [1])
        builder.items = [
            Item(id: 70_001, type: "hvc1", data: tileData, hidden: true, properties: [(1, false), (2, true)]),
            Item(id: 70_002, type: "hvc1", data: tileData, hidden: true, properties: [(1, false), (2, true)]),
            Item(id: 70_000, type: "grid", data: [0, 1, 0, 1] + be(128, 4) + be(48, 4), inIdat: true,
                 properties: [(3, false), (4, true)]),
        ]
        builder.references = [("dimg", 70_000, [70_001, 70_002])]
        return builder
    }
}

/// A source over shared bytes with a few bytes replaced (cheap fuzzing of big files).
struct PatchedSource: ByteSource {
    let base: [UInt8]
    let patches: [Int: UInt8]
    var size: UInt64 { UInt64(base.count) }
    var name: String { "patched" }
    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let start = Int(offset), stop = start + min(count, base.count - start)
        var bytes = Array(base[start..<stop])
        for (index, value) in patches where index >= start && index < stop { bytes[index - start] = value }
        return bytes
    }
}

func expectError(_ body: () throws(FormatError) -> Void, matching check: (FormatError) -> Bool) {
    do {
        try body()
        Issue.record("expected an error")
    } catch {
        #expect(check(error), "unexpected error \(error)")
    }
}

// MARK: - Hand-made files

@Suite struct HEIFBuilderTests {
    @Test(arguments: [
        (UInt8(0), 4, 4, 0, 0, UInt64(0), false),
        (0, 8, 8, 8, 0, 100, false),
        (1, 4, 4, 0, 0, 0, false),
        (1, 8, 8, 4, 4, 64, true),
        (1, 4, 8, 8, 8, 30, true),
        (2, 8, 4, 8, 4, 16, true),
        (2, 4, 4, 4, 0, 0, false),
    ])
    func ilocVariants(
        version: UInt8, offsetSize: Int, lengthSize: Int, baseOffsetSize: Int, indexSize: Int, base: UInt64,
        split: Bool
    ) throws {
        var builder = HEIFTestBuilder.simple()
        builder.ilocVersion = version
        builder.offsetSize = offsetSize
        builder.lengthSize = lengthSize
        builder.baseOffsetSize = baseOffsetSize
        builder.indexSize = version == 0 ? 0 : indexSize
        builder.baseOffset = base
        builder.splitExtents = split
        let source = MemoryByteSource(builder.build())
        let heif = try HEIFFile(source: source)
        #expect(heif.issues.isEmpty)
        let location = try #require(heif.meta.location(of: 1))
        #expect(location.baseOffset == base)
        #expect(location.extents.count == (split ? 2 : 1))
        #expect(try heif.itemData(1, from: source).bytes == HEIFTestBuilder.tileData)
        let exif = try #require(try heif.exif(from: source))
        #expect(Array(exif.tiff.prefix(4)) == [0x4D, 0x4D, 0, 0x2A])
        #expect(try source.read(at: exif.fileOffset, count: 4) == [0x4D, 0x4D, 0, 0x2A])
        let recipe = try heif.primaryImageRecipe(from: source)
        #expect(recipe.tiles.count == 1)
        #expect(recipe.tiles[0].data == HEIFTestBuilder.tileData)
        #expect(recipe.tiles[0].configuration.parameterSetTypes == [32, 33, 34])
        #expect(recipe.outputWidth == 64 && recipe.outputHeight == 48)
    }

    @Test func exifInIdatWithConstructionMethodOne() throws {
        var builder = HEIFTestBuilder.simple()
        builder.items[1].inIdat = true
        let bytes = builder.build()
        let source = MemoryByteSource(bytes)
        let heif = try HEIFFile(source: source)
        #expect(heif.meta.location(of: 2)?.constructionMethod == .idatOffset)
        let exif = try #require(try heif.exif(from: source))
        #expect(exif.tiff == Array(HEIFTestBuilder.exifData[10...]))
        #expect(Array(bytes[Int(exif.fileOffset)..<Int(exif.fileOffset) + 4]) == [0x4D, 0x4D, 0, 0x2A])
    }

    @Test func gridWithWideIDsAndIndices() throws {
        let source = MemoryByteSource(HEIFTestBuilder.grid().build())
        let heif = try HEIFFile(source: source)
        #expect(heif.issues.isEmpty)
        #expect(heif.meta.primaryItemID == 70_000)
        #expect(heif.meta.associations[70_001] == [
            HEIFPropertyAssociation(propertyIndex: 1, isEssential: false),
            HEIFPropertyAssociation(propertyIndex: 2, isEssential: true),
        ])
        let primary = try #require(heif.primaryItem)
        #expect(primary.type == "grid")
        #expect(primary.rotationDegrees == 90)
        #expect(heif.meta.item(70_001)?.isHidden == true)
        #expect(try heif.grid(of: 70_000, from: source) == HEIFImageGrid(rows: 1, columns: 2, outputWidth: 128, outputHeight: 48))
        let recipe = try heif.primaryImageRecipe(from: source)
        #expect(recipe.tiles.map(\.itemID) == [70_001, 70_002])
        #expect(recipe.rows == 1 && recipe.columns == 2)
        #expect(recipe.rotationDegrees == 90)
    }

    @Test func gridTileCountMismatchIsInvalid() throws {
        var builder = HEIFTestBuilder.grid()
        builder.references = [("dimg", 70_000, [70_001])]
        let source = MemoryByteSource(builder.build())
        let heif = try HEIFFile(source: source)
        expectError({ () throws(FormatError) in _ = try heif.primaryImageRecipe(from: source) }) {
            if case .invalid = $0 { return true } else { return false }
        }
    }

    @Test func tileWithoutConfigurationIsInvalid() throws {
        var builder = HEIFTestBuilder.grid()
        builder.items[1].properties = [(1, false)]
        let source = MemoryByteSource(builder.build())
        let heif = try HEIFFile(source: source)
        expectError({ () throws(FormatError) in _ = try heif.primaryImageRecipe(from: source) }) {
            if case .invalid = $0 { return true } else { return false }
        }
    }

    @Test func badNALLengthSizeIsReportedAndTileRejected() throws {
        var builder = HEIFTestBuilder.simple()
        builder.properties[1] = HEIFTestBuilder.hvcC(lengthSizeMinusOne: 2)
        let source = MemoryByteSource(builder.build())
        let heif = try HEIFFile(source: source)
        #expect(!heif.issues.isEmpty)
        #expect(heif.meta.properties[1] == .other(type: "hvcC"))
        expectError({ () throws(FormatError) in _ = try heif.primaryImageRecipe(from: source) }) { _ in true }
    }

    @Test func constructionMethodTwoIsUnsupported() throws {
        var builder = HEIFTestBuilder.simple()
        builder.items[0].constructionMethod = 2
        let source = MemoryByteSource(builder.build())
        let heif = try HEIFFile(source: source)
        expectError({ () throws(FormatError) in _ = try heif.itemData(1, from: source) }) {
            if case .unsupported = $0 { return true } else { return false }
        }
    }

    @Test func extentPastEndOfFileIsRejected() throws {
        var bytes = HEIFTestBuilder.simple().build()
        bytes.removeLast(4)  // cut the end of the Exif item (the last bytes of mdat)
        let source = MemoryByteSource(bytes)
        let heif = try HEIFFile(source: source)  // the mdat header is reported truncated, meta is intact
        #expect(heif.mediaDataBoxes.first?.isTruncated == true)
        expectError({ () throws(FormatError) in _ = try heif.exif(from: source) }) {
            if case .truncated = $0 { return true } else { return false }
        }
        #expect(try heif.itemData(1, from: source).bytes == HEIFTestBuilder.tileData)
    }

    @Test func hugeExtentAndOverflowingBaseAreRejected() throws {
        var builder = HEIFTestBuilder.simple()
        builder.ilocVersion = 1
        builder.offsetSize = 8
        builder.lengthSize = 8
        builder.baseOffsetSize = 8
        builder.baseOffset = 0  // patched below
        var bytes = builder.build()
        // Find item 1's extent in iloc and make its length 2^64 - 1.
        let iloc = try #require(find(Array("iloc".utf8), in: bytes))
        // After the type: version/flags 4, sizes 2, count 2, then item 1: id 2, method 2, dref 2, base 8, count 2, offset 8, length 8.
        let baseAt = iloc + 4 + 4 + 2 + 2 + 2 + 2 + 2
        let lengthAt = baseAt + 8 + 2 + 8
        for index in 0..<8 { bytes[lengthAt + index] = 0xFF }
        let source = MemoryByteSource(bytes)
        let heif = try HEIFFile(source: source)
        expectError({ () throws(FormatError) in _ = try heif.itemData(1, from: source) }) {
            if case .truncated = $0 { return true } else { return false }
        }
        for index in 0..<8 { bytes[baseAt + index] = 0xFF }
        let overflowing = MemoryByteSource(bytes)
        let heif2 = try HEIFFile(source: overflowing)
        expectError({ () throws(FormatError) in _ = try heif2.itemData(1, from: overflowing) }) {
            if case .truncated = $0 { return true } else { return false }
        }
    }

    @Test func hostileItemCountIsRejectedWithoutAllocating() throws {
        let hdlr = HEIFTestBuilder.fullBox("hdlr", version: 0, HEIFTestBuilder.be(0, 4) + Array("pict".utf8) + HEIFTestBuilder.be(0, 13))
        let ftyp = HEIFTestBuilder.box("ftyp", Array("heicmif1".utf8))
        for child in [
            HEIFTestBuilder.fullBox("iinf", version: 1, [0xFF, 0xFF, 0xFF, 0xFF]),
            HEIFTestBuilder.fullBox("iloc", version: 2, [0x44, 0x00, 0xFF, 0xFF, 0xFF, 0xFF]),
            HEIFTestBuilder.box("iprp", HEIFTestBuilder.fullBox("ipma", version: 1, [0xFF, 0xFF, 0xFF, 0xFF])),
        ] {
            let file = ftyp + HEIFTestBuilder.fullBox("meta", version: 0, hdlr + child)
            expectError({ () throws(FormatError) in _ = try HEIFFile(source: MemoryByteSource(file)) }) {
                if case .limitExceeded(_, _, let value, _) = $0 { return value == 0xFFFF_FFFF } else { return false }
            }
        }
        // A count under the item limit but larger than the bytes: a truncated table, kept as an issue.
        let small = ftyp + HEIFTestBuilder.fullBox("meta", version: 0, hdlr + HEIFTestBuilder.fullBox("iinf", version: 1, [0, 0, 0x10, 0]))
        let heif = try HEIFFile(source: MemoryByteSource(small))
        #expect(heif.meta.items.isEmpty)
        #expect(heif.issues.contains { if case .truncated = $0 { return true } else { return false } })
    }

    @Test func hugeImageIsRejectedByPixelLimit() throws {
        var builder = HEIFTestBuilder.simple()
        builder.properties[0] = HEIFTestBuilder.ispe(0xFFFF_FFFF, 0xFFFF_FFFF)
        let source = MemoryByteSource(builder.build())
        let heif = try HEIFFile(source: source)
        expectError({ () throws(FormatError) in _ = try heif.primaryImageRecipe(from: source) }) {
            if case .limitExceeded = $0 { return true } else { return false }
        }
    }

    @Test func nonPictureHandlerAndNonHEIFInputAreRejected() throws {
        var builder = HEIFTestBuilder.simple()
        builder.handler = "vide"
        expectError({ () throws(FormatError) in _ = try HEIFFile(source: MemoryByteSource(builder.build())) }) {
            if case .unsupported = $0 { return true } else { return false }
        }
        expectError({ () throws(FormatError) in
            _ = try HEIFFile(source: MemoryByteSource([0xFF, 0xD8, 0xFF, 0xE1] + [UInt8](repeating: 0, count: 20)))
        }) { if case .unsupported = $0 { return true } else { return false } }
        expectError({ () throws(FormatError) in _ = try HEIFFile(source: MemoryByteSource([])) }) { _ in true }
    }

    @Test func xmpItemIsReturned() throws {
        var builder = HEIFTestBuilder.simple()
        let packet = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"></x:xmpmeta>".utf8)
        builder.items.append(.init(id: 3, type: "mime", data: packet, contentType: "application/rdf+xml"))
        builder.references.append(("cdsc", 3, [1]))
        let source = MemoryByteSource(builder.build())
        let heif = try HEIFFile(source: source)
        #expect(heif.meta.item(3)?.isXMP == true)
        #expect(try heif.xmp(from: source).map(\.bytes) == [packet])
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where Array(haystack[index..<index + needle.count]) == needle {
            return index
        }
        return nil
    }
}

// MARK: - Corrupt real files

@Suite struct HEIFRobustnessTests {
    @Test func fuzzedFileWithBadILocGivesPartialResult() throws {
        let source = try FileByteSource(path: SampleMedia.path("broken/IllegalArgumentException.HeifReader.processBoxes.heif"))
        let heif = try HEIFFile(source: source)
        #expect(!heif.issues.isEmpty)
        #expect(heif.meta.primaryItemID == 1002)
        #expect(heif.meta.items.map(\.id) == [1002, 1005])
        #expect(heif.meta.references == [HEIFItemReference(type: "thmb", fromItemID: 1005, toItemIDs: [1002])])
        #expect(heif.meta.locations.isEmpty)
        #expect(heif.topLevelBoxes.last?.isTruncated == true)
        expectError({ () throws(FormatError) in _ = try heif.primaryImageRecipe(from: source) }) { _ in true }
        #expect(try heif.exif(from: source) == nil)
    }

    @Test func fuzzedFileWithBadPrimaryBoxGivesPartialResult() throws {
        let source = try FileByteSource(path: SampleMedia.path("broken/NegativeArraySizeException.HeifReader.processBoxes.heif"))
        let heif = try HEIFFile(source: source)
        #expect(heif.issues.contains { if case .invalid = $0 { return true } else { return false } })
        #expect(heif.meta.primaryItemID == nil)
        #expect(heif.primaryItem == nil)
        #expect(heif.mediaDataBoxes.count == 1)
        expectError({ () throws(FormatError) in _ = try heif.primaryImageRecipe(from: source) }) {
            if case .invalid = $0 { return true } else { return false }
        }
    }

    @Test(arguments: ["live/IMG_4580.HEIC", "live/IMG_3582.HEIC"])
    func everyTruncationOfTheMetadataIsSafe(file: String) throws {
        let bytes = try SampleMedia.bytes(file)
        let whole = try HEIFFile(source: MemoryByteSource(bytes))
        let meta = try #require(whole.topLevelBox("meta"))
        let end = Int(meta.fileOffset + meta.size) + 64
        var failures = 0
        for length in stride(from: 0, through: end, by: 3) {
            let source = PatchedSource(base: Array(bytes[0..<length]), patches: [:])
            do {
                let heif = try HEIFFile(source: source)
                _ = heif.primaryItem
                _ = try? heif.exif(from: source)
            } catch {
                failures += 1
            }
        }
        #expect(failures > 0)
    }

    @Test(arguments: ["live/IMG_4580.HEIC", "live/exif-at-eof.heic", "motion/samsung-one-ui-6.heic"])
    func randomByteDamageNeverCrashes(file: String) throws {
        let bytes = try SampleMedia.bytes(file)
        let whole = try HEIFFile(source: MemoryByteSource(bytes))
        let meta = try #require(whole.topLevelBox("meta"))
        var random = SplitMix64(seed: 0x4845_4946)
        var parsed = 0
        for _ in 0..<1500 {
            var patches: [Int: UInt8] = [:]
            for _ in 0..<(1 + random.next() % 6) {
                let index = Int(meta.fileOffset + random.next() % meta.size)
                let choice = random.next() % 4
                patches[index] = choice == 0 ? 0xFF : choice == 1 ? 0 : UInt8(truncatingIfNeeded: random.next())
            }
            let source = PatchedSource(base: bytes, patches: patches)
            guard let heif = try? HEIFFile(source: source) else { continue }
            parsed += 1
            _ = heif.thumbnails
            _ = heif.auxiliaryImages
            _ = try? heif.exif(from: source)
            _ = try? heif.xmp(from: source)
            if random.next() % 8 == 0 { _ = try? heif.primaryImageRecipe(from: source) }
        }
        #expect(parsed > 0)
    }
}
