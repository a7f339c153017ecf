import LivePairFormats
import TestSupport
import Testing

/// A byte source that counts the bytes read, to check that the JPEG reader reads little.
final class ReadCountingByteSource: ByteSource, @unchecked Sendable {
    // Sendable: only used from one test at a time; `bytesRead` is test bookkeeping.
    let inner: MemoryByteSource
    private(set) var bytesRead = 0
    private(set) var readCount = 0

    init(_ bytes: [UInt8]) { inner = MemoryByteSource(bytes) }

    var size: UInt64 { inner.size }
    var name: String { "counting" }

    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        let bytes = try inner.read(at: offset, count: count)
        bytesRead += bytes.count
        readCount += 1
        return bytes
    }
}

/// Builds JPEG byte arrays segment by segment.
struct JPEGBuilder {
    var bytes: [UInt8] = [0xFF, 0xD8]

    mutating func segment(_ marker: UInt8, _ payload: [UInt8]) {
        let length = payload.count + 2
        bytes += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    mutating func frame(width: Int, height: Int) {
        segment(0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
    }

    mutating func scan() {
        segment(0xDA, [1, 1, 0, 0, 63, 0])
        bytes += [0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD9]
    }
}

@Suite("JPEG segments")
struct JPEGSegmentTests {
    let jpegSamples = [
        "live/train.jpg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "motion/PXL_20200710_061629144.MP.jpg",
        "plain/pixel_8.jpg", "broken/google_motion_photo_broken.jpg",
    ]

    @Test func dimensionsMatchManifest() throws {
        for file in jpegSamples {
            let source = try FileByteSource(path: SampleMedia.path(file))
            let jpeg = try JPEGSegmentReader().read(source)
            #expect(jpeg.isJPEG, "\(file)")
            #expect(jpeg.reachedStartOfScan, "\(file)")
            let expected = try #require(SampleMedia.entry(file)?.dimensions, "\(file)")
            #expect(jpeg.width == expected.width, "\(file)")
            #expect(jpeg.height == expected.height, "\(file)")
        }
    }

    @Test func trainSegmentsAndExifOffset() throws {
        let jpeg = try JPEGSegmentReader().read(try FileByteSource(path: SampleMedia.path("live/train.jpg")))
        #expect(jpeg.segments.map(\.marker) == [0xD8, 0xE1, 0xDB, 0xDD, 0xC0, 0xC4, 0xDA])
        #expect(jpeg.segments.map(\.fileOffset) == [0, 2, 12290, 12424, 12430, 12449, 12869])
        #expect(jpeg.segments[1].length == 12286)
        #expect(jpeg.exifTIFFFileOffset == 12)
        #expect(jpeg.exifTIFF?.prefix(4) == [0x4D, 0x4D, 0x00, 0x2A])
        #expect(jpeg.exifTIFF?.count == 12286 - 2 - 6)
        #expect(jpeg.xmp == nil)
        #expect(jpeg.frameMarker == 0xC0)
        #expect(jpeg.startOfScanFileOffset == 12869)
    }

    @Test func readsOnlyTheFirstChunk() throws {
        let source = ReadCountingByteSource(try SampleMedia.bytes("live/train.jpg"))
        let jpeg = try JPEGSegmentReader().read(source)
        #expect(jpeg.reachedStartOfScan)
        #expect(source.readCount == 1)
        #expect(source.bytesRead == JPEGSegmentReader.initialReadSize)
    }

    @Test func readsSegmentsBeyondTheFirstChunk() throws {
        var builder = JPEGBuilder()
        for _ in 0..<3 { builder.segment(0xE2, [UInt8](repeating: 0x41, count: 60_000)) }
        builder.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array("<x:xmpmeta/>".utf8))
        builder.frame(width: 640, height: 480)
        builder.scan()
        builder.bytes += [UInt8](repeating: 0, count: 500_000)
        let source = ReadCountingByteSource(builder.bytes)
        let jpeg = try JPEGSegmentReader().read(source)
        #expect(jpeg.width == 640 && jpeg.height == 480)
        #expect(jpeg.xmp.map { String(decoding: $0, as: UTF8.self) } == "<x:xmpmeta/>")
        #expect(jpeg.xmpFileOffset == 2 + 3 * 60_004 + 4 + 29)
        #expect(source.bytesRead < 4 * JPEGSegmentReader.initialReadSize)
    }

    @Test func pixel8ExtendedXMP() throws {
        let jpeg = try JPEGSegmentReader().read(try FileByteSource(path: SampleMedia.path("plain/pixel_8.jpg")))
        let xmp = MotionPhotoXMP(try #require(jpeg.xmp))
        #expect(xmp.extendedXMPGUID == "A75262B98F95CFE9B516DB50AA628C78")
        #expect(jpeg.extendedXMP.count == 1)
        let extended = try #require(jpeg.extendedXMP.first)
        #expect(extended.guid == "A75262B98F95CFE9B516DB50AA628C78")
        #expect(extended.isComplete)
        #expect(extended.bytes.count == extended.fullLength)
        #expect(String(decoding: extended.bytes.prefix(200), as: UTF8.self).contains("xmpmeta"))
    }

    @Test func notJPEG() throws {
        let jpeg = try JPEGSegmentReader().read(try FileByteSource(path: SampleMedia.path("broken/normalphoto.jpg")))
        #expect(!jpeg.isJPEG)
        #expect(jpeg.segments.isEmpty)
        #expect(!JPEGSegmentReader.isJPEG([0x89, 0x50, 0x4E, 0x47]))
        #expect(try !JPEGSegmentReader().read(MemoryByteSource([])).isJPEG)
    }

    @Test func badImageGivesPartialResultOrTypedError() throws {
        let source = try FileByteSource(path: SampleMedia.path("broken/badimage.jpeg"))
        do {
            let jpeg = try JPEGSegmentReader().read(source)
            #expect(jpeg.isJPEG)
            #expect(jpeg.exifTIFF != nil)
            #expect(!jpeg.warnings.isEmpty)
        } catch {
            #expect(!error.code.isEmpty)
        }
    }

    @Test func fillBytesRestartMarkersAndStandaloneMarkers() throws {
        var builder = JPEGBuilder()
        builder.bytes += [0xFF, 0xFF, 0xFF]  // fill bytes before the next marker
        builder.segment(0xE0, Array("JFIF".utf8) + [0, 1, 2])
        builder.bytes += [0xFF, 0xD0, 0xFF, 0x01]  // RST0 and TEM, no length
        builder.frame(width: 3, height: 2)
        builder.scan()
        let jpeg = try JPEGSegmentReader().read(MemoryByteSource(builder.bytes))
        #expect(jpeg.segments.map(\.marker) == [0xD8, 0xE0, 0xD0, 0x01, 0xC0, 0xDA])
        #expect(jpeg.segments[1].fileOffset == 5)  // the last FF before the marker code
        #expect(jpeg.width == 3 && jpeg.height == 2)
        #expect(jpeg.reachedStartOfScan)
    }

    @Test func garbageBetweenSegmentsIsSkippedWithAWarning() throws {
        var builder = JPEGBuilder()
        builder.segment(0xE0, [1, 2, 3])
        builder.bytes += Array("junk".utf8)
        builder.frame(width: 10, height: 20)
        builder.scan()
        let jpeg = try JPEGSegmentReader().read(MemoryByteSource(builder.bytes))
        #expect(jpeg.width == 10)
        #expect(jpeg.warnings.count == 1)
    }

    @Test func truncationIsATypedError() throws {
        var builder = JPEGBuilder()
        builder.segment(0xE1, Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0, count: 100))
        let cut = Array(builder.bytes.prefix(50))
        #expect(throws: FormatError.self) { try JPEGSegmentReader().read(MemoryByteSource(cut)) }
        // Ends cleanly between segments but before SOS.
        #expect(throws: FormatError.self) { try JPEGSegmentReader().read(MemoryByteSource(builder.bytes)) }
        // Every prefix of a real header either parses or throws; none traps.
        let head = Array(try SampleMedia.bytes("plain/pixel_8.jpg").prefix(62_000))
        for length in stride(from: 0, to: head.count, by: 397) {
            _ = try? JPEGSegmentReader().read(MemoryByteSource(Array(head.prefix(length))))
        }
    }

    @Test func badLengthIsInvalid() throws {
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0, 0, 0, 0]
        #expect(throws: FormatError.self) { try JPEGSegmentReader().read(MemoryByteSource(bytes)) }
    }

    @Test func extendedXMPChunksAreReassembledByOffset() throws {
        let guid = Array("0123456789ABCDEF0123456789ABCDEF".utf8)
        let full = Array("<x:xmpmeta>extended body</x:xmpmeta>".utf8)
        func chunk(_ range: Range<Int>, guid: [UInt8]) -> [UInt8] {
            let length = UInt32(full.count), offset = UInt32(range.lowerBound)
            return Array("http://ns.adobe.com/xmp/extension/".utf8) + [0] + guid
                + [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                + [UInt8(offset >> 24), UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)]
                + Array(full[range])
        }
        var builder = JPEGBuilder()
        builder.segment(0xE1, chunk(20..<full.count, guid: guid))  // second half first
        builder.segment(0xE1, chunk(0..<20, guid: guid))
        builder.frame(width: 1, height: 1)
        builder.scan()
        let jpeg = try JPEGSegmentReader().read(MemoryByteSource(builder.bytes))
        #expect(jpeg.extendedXMP.count == 1)
        #expect(jpeg.extendedXMP.first?.bytes == full)
        #expect(jpeg.extendedXMP.first?.isComplete == true)

        // A chunk claiming more than the metadata limit is dropped with a warning, nothing allocated.
        var limits = ParseLimits.default
        limits.maximumMetadataBytes = 16
        let limited = try JPEGSegmentReader(limits: limits).read(MemoryByteSource(builder.bytes))
        #expect(limited.extendedXMP.isEmpty)
        #expect(limited.warnings.count == 2)
    }
}
