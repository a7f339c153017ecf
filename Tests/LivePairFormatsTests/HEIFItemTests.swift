import Testing
import LivePairFormats
import TestSupport

/// Item-level facts of the real HEIC samples (`ftyp` + `meta` + the Exif/XMP items only).
@Suite struct HEIFItemTests {
    static let heifFiles: [String] = SampleMedia.manifest
        .filter { entry in
            let lower = entry.file.lowercased()
            return (lower.hasPrefix("live/") || lower.hasPrefix("plain/") || lower.hasPrefix("motion/"))
                && (lower.hasSuffix(".heic") || lower.hasSuffix(".heif"))
        }
        .map(\.file)

    static func open(_ file: String) throws -> (HEIFFile, FileByteSource) {
        let source = try FileByteSource(path: SampleMedia.path(file))
        return (try HEIFFile(source: source), source)
    }

    @Test func manifestListsHEICFiles() {
        #expect(Self.heifFiles.count >= 14)
    }

    @Test(arguments: heifFiles)
    func primaryStoredSizeMatchesManifest(file: String) throws {
        let (heif, _) = try Self.open(file)
        let expected = try #require(SampleMedia.entry(file)?.dimensions)
        let primary = try #require(heif.primaryItem)
        #expect(primary.width == expected.width)
        #expect(primary.height == expected.height)
        #expect(heif.issues.isEmpty)
        #expect(heif.majorBrand == "heic")
        #expect(heif.handlerIsPict)
    }

    @Test func iPhone15ProPrimaryIsRotatedGrid() throws {
        let (heif, source) = try Self.open("live/IMG_3582.HEIC")
        #expect(heif.topLevelBoxes.map(\.type) == ["ftyp", "meta", "mdat"])
        #expect(heif.meta.primaryItemID == 46)
        let primary = try #require(heif.primaryItem)
        #expect(primary.type == "grid")
        #expect(primary.rotationDegrees == 270)
        #expect(primary.mirror == nil)
        #expect(primary.cleanAperture == nil)
        #expect(!primary.isHidden)
        let grid = try heif.grid(of: 46, from: source)
        #expect(grid == HEIFImageGrid(rows: 5, columns: 9, outputWidth: 5712, outputHeight: 4284))
        #expect(heif.meta.references(from: 46, type: "dimg") == Array(1...45))
        // The tiles are hidden hvc1 items.
        #expect(heif.meta.item(1)?.type == "hvc1")
        #expect(heif.meta.item(1)?.isHidden == true)
        #expect(heif.meta.item(69)?.type == "Exif")
        #expect(heif.exifItemIDs == [69])
        #expect(heif.meta.item(68)?.type == "tmap")
    }

    @Test func editedCopyIsPortraitGridWithoutThumbnail() throws {
        let (heif, source) = try Self.open("live/IMG_3582_edited.heic")
        let primary = try #require(heif.primaryItem)
        #expect(primary.id == 50)
        #expect(primary.rotationDegrees == 0)
        #expect(try heif.grid(of: 50, from: source) == HEIFImageGrid(rows: 7, columns: 7, outputWidth: 4284, outputHeight: 5712))
        #expect(heif.thumbnails.isEmpty)
    }

    @Test(arguments: [
        ("live/IMG_3582.HEIC", 47 as UInt32, 416, 312),
        ("live/IMG_4580.HEIC", 50, 416, 312),
        ("plain/IMG_5747.HEIC", 47, 416, 312),
        ("live/IMG_1853.HEIC", 50, 320, 240),
        ("plain/IMG_0102.HEIC", 37, 320, 240),
        ("plain/IMG_2682.heic", 50, 320, 240),
        ("motion/motionphoto.heic", 50, 512, 384),
        ("plain/sewing-threads.heic", 50, 512, 384),
    ])
    func thumbnailItem(file: String, id: UInt32, width: Int, height: Int) throws {
        let (heif, _) = try Self.open(file)
        let thumbnails = heif.thumbnails
        #expect(thumbnails.count == 1)
        let thumbnail = try #require(thumbnails.first)
        #expect(thumbnail.id == id)
        #expect(thumbnail.type == "hvc1")
        #expect(thumbnail.width == width)
        #expect(thumbnail.height == height)
        #expect(thumbnail.hasHEVCConfiguration)
    }

    @Test func auxiliaryImagesOfIPhone15Pro() throws {
        let (heif, _) = try Self.open("live/IMG_3582.HEIC")
        let auxiliary = heif.auxiliaryImages
        #expect(auxiliary.map(\.id) == [63, 64])
        #expect(auxiliary.first?.type == "grid")
        #expect(auxiliary.first?.auxiliaryType == "urn:com:apple:photo:2020:aux:hdrgainmap")
        #expect(auxiliary.first?.width == 2856)
        #expect(auxiliary.first?.height == 2142)
        #expect(auxiliary.last?.auxiliaryType == "urn:mpeg:hevc:2015:auxid:2")
        #expect(auxiliary.last?.width == 768)
        #expect(auxiliary.last?.height == 576)
    }

    @Test func hevcConfigurationOfTiles() throws {
        let (heif, _) = try Self.open("live/IMG_4580.HEIC")
        let tileID = try #require(heif.meta.references(from: 49, type: "dimg").first)
        let configurations = heif.meta.properties(of: tileID).compactMap { property -> HEVCDecoderConfiguration? in
            if case .hevcConfiguration(let value) = property { return value }
            return nil
        }
        let configuration = try #require(configurations.first)
        #expect(configuration.nalLengthSize == 4)
        #expect(configuration.parameterSetTypes == [32, 33, 34])
        #expect(configuration.record.first == 1)  // configurationVersion
        #expect(configuration.parameterSets.allSatisfy { !$0.isEmpty })
    }

    @Test func colourAndPixelProperties() throws {
        let (heif, _) = try Self.open("live/IMG_3582.HEIC")
        let tileProperties = heif.meta.properties(of: 1)
        #expect(tileProperties.map(\.type) == ["ispe", "colr", "hvcC"])
        let icc = tileProperties.compactMap { property -> [UInt8]? in
            if case .colour(.icc(type: "prof", let profile)) = property { return profile }
            return nil
        }.first
        #expect(icc.map { Array($0[36..<40]) } == Array("acsp".utf8))  // ICC signature
        #expect(heif.meta.properties(of: 46).contains(.pixelInformation(bitsPerChannel: [8, 8, 8])))
    }

    @Test(arguments: [
        "live/IMG_3582.HEIC", "live/IMG_3582_edited.heic", "live/IMG_4580.HEIC", "live/IMG_1853.HEIC",
        "live/IMG_E1853.heic", "live/IMG_2927.HEIC", "plain/IMG_0102.HEIC", "plain/IMG_2682.heic", "plain/IMG_5747.HEIC",
    ])
    func appleExifIsBigEndianTIFF(file: String) throws {
        let (heif, source) = try Self.open(file)
        let exif = try #require(try heif.exif(from: source))
        #expect(Array(exif.tiff.prefix(4)) == [0x4D, 0x4D, 0x00, 0x2A])
        // The reported offset points at the same bytes in the file, preceded by "Exif\0\0".
        #expect(try source.read(at: exif.fileOffset, count: 8) == Array(exif.tiff.prefix(8)))
        #expect(try source.read(at: exif.fileOffset - 6, count: 6) == Array("Exif\0\0".utf8))
    }

    @Test func exifStoredAfterImageData() throws {
        let (heif, source) = try Self.open("live/exif-at-eof.heic")
        let exif = try #require(try heif.exif(from: source))
        // The rewriting tool stored it little-endian (exiftool: ExifByteOrder Little-endian), after the tiles.
        #expect(Array(exif.tiff.prefix(4)) == [0x49, 0x49, 0x2A, 0x00])
        let firstMediaData = try #require(heif.mediaDataBoxes.first)
        #expect(exif.fileOffset > firstMediaData.fileOffset + firstMediaData.size)
        #expect(exif.fileOffset == 717_313)
        #expect(try source.read(at: exif.fileOffset, count: 16) == Array(exif.tiff.prefix(16)))
    }

    @Test func xmpItems() throws {
        let (heif, source) = try Self.open("live/IMG_3582.HEIC")
        let packets = try heif.xmp(from: source)
        #expect(packets.count == 3)
        for packet in packets {
            #expect(String(decoding: packet.bytes, as: UTF8.self).contains("x:xmpmeta"))
        }
        let (older, olderSource) = try Self.open("live/IMG_1853.HEIC")
        #expect(try older.xmp(from: olderSource).isEmpty)
    }

    @Test(arguments: ["motion/motionphoto.heic", "motion/photo-sg22-ultra.heic", "motion/samsung-one-ui-6.heic"])
    func samsungMotionPhotoHasTopLevelVideoBox(file: String) throws {
        let (heif, source) = try Self.open(file)
        let box = try #require(heif.motionPhotoVideoBox)
        #expect(box.type == "mpvd")
        #expect(!box.isTruncated)
        #expect(box.fileOffset + box.size <= source.size)
        #expect(box.payloadSize > 100_000)
        // The still's Exif is little-endian on these Samsung files.
        #expect(Array(try #require(try heif.exif(from: source)).tiff.prefix(2)) == [0x49, 0x49])
    }

    @Test func samsungExtraData() throws {
        #expect(try Self.open("motion/samsung-one-ui-6.heic").0.samsungExtraDataBox != nil)
        #expect(try Self.open("plain/sewing-threads.heic").0.samsungExtraDataBox != nil)
        #expect(try Self.open("plain/sewing-threads.heic").0.motionPhotoVideoBox == nil)
        #expect(try Self.open("live/IMG_3582.HEIC").0.motionPhotoVideoBox == nil)
    }

    @Test func identificationReadsOnlyHeaderMetaAndExif() throws {
        let file = SampleMedia.path("live/IMG_3582.HEIC")
        let source = CountingSource(base: try FileByteSource(path: file))
        let heif = try HEIFFile(source: source)
        _ = try heif.exif(from: source)
        #expect(source.bytesRead < 64 * 1024)
        #expect(source.bytesRead < Int(source.size / 20))
    }
}

extension HEIFFile {
    fileprivate var handlerIsPict: Bool { meta.handlerType == "pict" }
}

/// A source that counts the bytes read through it.
final class CountingSource: ByteSource, @unchecked Sendable {
    // Only used from one test at a time.
    let base: any ByteSource
    var bytesRead = 0
    init(base: any ByteSource) { self.base = base }
    var size: UInt64 { base.size }
    var name: String { base.name }
    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        let bytes = try base.read(at: offset, count: count)
        bytesRead += bytes.count
        return bytes
    }
}
