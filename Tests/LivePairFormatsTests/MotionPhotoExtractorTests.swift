import Foundation
import LivePairFormats
import TestSupport
import Testing

@Suite("Motion photo extraction")
struct MotionPhotoExtractorTests {
    static let motionSamples: [(String, Int64?)] = [
        ("motion/PXL_20200710_061629144.MP.jpg", 0), ("motion/motionphoto.heic", 2_056_590),
        ("motion/photo-sg22-ultra.heic", 2_990_844), ("motion/samsung-one-ui-6.heic", 3_000_000),
    ]

    @Test(arguments: motionSamples)
    func extractsWhatTheLocatorFinds(file: String, timestamp: Int64?) throws {
        let path = SampleMedia.path(file)
        let extractor = MotionPhotoVideoExtractor(source: try FileByteSource(path: path))
        let extraction = try extractor.locate()
        let located = try #require(try MotionPhotoOracle.lookup(path).video)
        #expect(extraction.video == located)
        #expect(extraction.presentationTimestampUs == timestamp)
        #expect(extraction.stillEnd <= extraction.video.fileOffset)
        let bytes = try extractor.videoBytes()
        #expect(bytes.count == Int(extraction.video.length))
        #expect(bytes[4..<8].elementsEqual("ftyp".utf8))
        let scratch = try WriterScratch()
        let videoPath = scratch.file("video.mp4")
        try extractor.writeVideo(to: videoPath)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: videoPath))) == bytes)
        if ReferenceTool.isInstalled("ffprobe") {
            #expect(try MotionPhotoOracle.ffprobeSeesVideo(bytes, scratch: scratch))
        }
    }

    /// Extract, rewrite as a motion photo (from the original and from the plain still),
    /// re-extract: the same video bytes and timestamp.
    @Test(arguments: motionSamples)
    func roundTripKeepsTheVideoBytes(file: String, timestamp: Int64?) throws {
        let scratch = try WriterScratch()
        let path = SampleMedia.path(file)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let extractor = MotionPhotoVideoExtractor(source: try FileByteSource(path: path))
        let video = try extractor.videoBytes()
        let stillPath = scratch.file("still" + (file.hasSuffix(".jpg") ? ".jpg" : ".heic"))
        try extractor.writeStill(to: stillPath)
        for input in [path, stillPath] {
            let output = scratch.file("again-\(UUID().uuidString)")
            let result = try MotionPhotoWriter(still: FileByteSource(path: input), video: MemoryByteSource(video))
                .write(to: output, presentationTimestampUs: timestamp ?? -1)
            let again = MotionPhotoVideoExtractor(source: try FileByteSource(path: output))
            let extraction = try again.locate()
            #expect(extraction.video.fileOffset == result.videoFileOffset)
            #expect(extraction.presentationTimestampUs == timestamp)
            #expect(extraction.video.vendor == .google, "a written motion photo has no Samsung data")
            #expect(try again.videoBytes() == video)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the input is never modified")
    }

    @Test(arguments: motionSamples)
    func plainStillHasNoMotionPhotoLeft(file: String, timestamp: Int64?) throws {
        let scratch = try WriterScratch()
        let path = SampleMedia.path(file)
        let extractor = MotionPhotoVideoExtractor(source: try FileByteSource(path: path))
        let extraction = try extractor.locate()
        let stillPath = scratch.file("still")
        let size = try extractor.writeStill(to: stillPath)
        let still = try FileByteSource(path: stillPath)
        #expect(still.size == size)
        // No motion-photo XMP.
        if let xmp = try MotionPhotoOracle.xmp(stillPath).map({ MotionPhotoXMP($0) }) {
            #expect(!xmp.claimsMotionPhoto)
            #expect(xmp.containerItems.isEmpty)
            #expect(xmp.motionPhotoPresentationTimestampUs == nil)
        }
        // Not a motion photo, even when scanning the tail for an ftyp box.
        let xmp = try MotionPhotoOracle.xmp(stillPath).map { MotionPhotoXMP($0) }
        if extraction.stillFormat == .jpeg {
            let structure = try JPEGSegmentReader().read(still)
            #expect(structure.reachedStartOfScan)
            #expect(size == extraction.stillEnd - (try JPEGSegmentReader().read(FileByteSource(path: path)).xmp.map { UInt64($0.count + 33) } ?? 0),
                "the JPEG ends at EOI (the motion-only XMP APP1 is gone)")
            let tail = try still.read(at: still.size - 2, count: 2)
            #expect(tail == [0xFF, 0xD9])
            #expect(try MotionPhotoLocator(scansUnclaimedFiles: true).locate(in: still, xmp: xmp) == .notMotionPhoto)
        } else {
            let file = try HEIFFile(source: still)
            #expect(file.issues.isEmpty)
            #expect(file.motionPhotoVideoBox == nil)
            // Samsung's SEF records stay in a trailing sefd box, without the video's.
            let originalTrailer = try SamsungSEFTrailer.read(FileByteSource(path: path))
            let trailer = try SamsungSEFTrailer.read(still)
            #expect((file.samsungExtraDataBox != nil) == (originalTrailer != nil))
            #expect(trailer?.motionPhotoData == nil)
            #expect(trailer?.entries.map(\.name) == originalTrailer?.entries.filter { $0 != originalTrailer?.motionPhotoData }.map(\.name))
            #expect(
                try MotionPhotoLocator(scansUnclaimedFiles: true).locate(in: still, xmp: xmp, topLevelBoxes: file.topLevelBoxes)
                    == .notMotionPhoto)
            let original = try HEIFFile(source: FileByteSource(path: path))
            #expect(file.primaryItem == original.primaryItem)
            let removed = Set(original.xmpItemIDs)
            #expect(try HEICExifWriterTests.itemData(stillPath, except: removed) == HEICExifWriterTests.itemData(path, except: removed))
            if ReferenceTool.isInstalled("exiftool") {
                #expect(try MotionPhotoOracle.exiftoolWarnings(stillPath) == MotionPhotoOracle.exiftoolWarnings(path))
            }
        }
    }

    @Test func ultraHDRStillKeepsItsGainMap() throws {
        let scratch = try WriterScratch()
        let motion = scratch.file("hdr.MP.jpg")
        try MotionPhotoWriter(
            still: FileByteSource(path: SampleMedia.path("plain/pixel_8.jpg")),
            video: FileByteSource(path: SampleMedia.path("live/train.mov"))
        ).write(to: motion, presentationTimestampUs: 5)
        let still = scratch.file("hdr.jpg")
        try MotionPhotoVideoExtractor(source: FileByteSource(path: motion)).writeStill(to: still)
        let xmp = MotionPhotoXMP(try #require(try MotionPhotoOracle.xmp(still)))
        #expect(xmp.containerItems.map(\.semantic) == ["Primary", "GainMap"])
        #expect(!xmp.claimsMotionPhoto)
        let original = try FileByteSource(path: SampleMedia.path("plain/pixel_8.jpg"))
        let plain = try FileByteSource(path: still)
        #expect(try plain.read(at: plain.size - 9554, count: 9554) == original.read(at: original.size - 9554, count: 9554))
    }

    @Test func notAMotionPhotoIsUnsupported() throws {
        for file in ["live/train.jpg", "plain/sewing-threads.heic"] {
            let extractor = MotionPhotoVideoExtractor(source: try FileByteSource(path: SampleMedia.path(file)))
            #expect(throws: FormatError.self) { try extractor.locate() }
        }
        let broken = MotionPhotoVideoExtractor(source: try FileByteSource(path: SampleMedia.path("broken/google_motion_photo_broken.jpg")))
        #expect(throws: FormatError.self) { try broken.locate() }
    }

    @Test func interruptedStillWriteLeavesNothing() throws {
        let scratch = try WriterScratch()
        let extractor = MotionPhotoVideoExtractor(source: try FileByteSource(path: SampleMedia.path("motion/motionphoto.heic")))
        #expect(throws: FormatError.self) {
            try extractor.writeStill(to: scratch.file("still.heic"), interpose: { FailingSink($0, failAfter: 4_000) })
        }
        #expect(throws: FormatError.self) {
            try extractor.writeVideo(to: scratch.file("video.mp4"), interpose: { FailingSink($0, failAfter: 4_000) })
        }
        #expect(try scratch.contents().isEmpty)
    }
}

@Suite("Motion photo extraction: built files")
struct MotionPhotoExtractorBuiltFileTests {
    @Test func samsungSEFJPEG() throws {
        let still = MotionPhotoLocatorTests.still(xmp: nil)
        let bytes = MotionPhotoLocatorTests.withSEF(
            still, blocks: [(0x0A01, "Image_UTC_Data", Array("1696508863000".utf8)), (0x0A30, "MotionPhoto_Data", MotionPhotoLocatorTests.fakeMP4)])
        let extractor = MotionPhotoVideoExtractor(source: MemoryByteSource(bytes))
        let extraction = try extractor.locate()
        #expect(extraction.video.vendor == .samsung)
        #expect(extraction.stillEnd == UInt64(still.count))
        #expect(try extractor.videoBytes() == MotionPhotoLocatorTests.fakeMP4)
        let plain = MemoryByteSink()
        try extractor.writeStill(to: plain)
        #expect(
            plain.bytes == MotionPhotoLocatorTests.withSEF(still, blocks: [(0x0A01, "Image_UTC_Data", Array("1696508863000".utf8))]),
            "the video and its SEF record are cut off; the other SEF record stays after EOI")
        // Rewritten as a Google motion photo: the SEF trailer is dropped.
        let output = MemoryByteSink()
        let result = try MotionPhotoWriter(still: MemoryByteSource(bytes), video: MemoryByteSource(MotionPhotoLocatorTests.fakeMP4))
            .write(to: output, presentationTimestampUs: 7)
        #expect(result.droppedTrailerLength == UInt64(bytes.count - still.count))
        let again = try MotionPhotoVideoExtractor(source: MemoryByteSource(output.bytes)).locate()
        #expect(again.video.vendor == .google)
        #expect(again.video.method == .containerDirectory)
        #expect(again.presentationTimestampUs == 7)
        #expect(Array(output.bytes[Int(again.video.fileOffset)...]) == MotionPhotoLocatorTests.fakeMP4)
    }

    @Test func legacyMicroVideoJPEG() throws {
        let xmp = MotionPhotoLocatorTests.cameraXMP(
            "GCamera:MicroVideo=\"1\" GCamera:MicroVideoVersion=\"1\" GCamera:MicroVideoOffset=\"\(MotionPhotoLocatorTests.fakeMP4.count)\" GCamera:MicroVideoPresentationTimestampUs=\"9\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" dc:format=\"image/jpeg\"/>")
        let still = MotionPhotoLocatorTests.still(xmp: xmp)
        let extractor = MotionPhotoVideoExtractor(source: MemoryByteSource(still + MotionPhotoLocatorTests.fakeMP4))
        let extraction = try extractor.locate()
        #expect(extraction.video.method == .microVideoOffset)
        #expect(extraction.presentationTimestampUs == 9)
        let plain = MemoryByteSink()
        try extractor.writeStill(to: plain)
        let structure = try JPEGSegmentReader().read(MemoryByteSource(plain.bytes))
        let left = MotionPhotoXMP(try #require(structure.xmp))
        #expect(left.microVideo == nil && left.microVideoOffset == nil && !left.claimsMotionPhoto)
        #expect(left.property("http://purl.org/dc/elements/1.1/", "format") == "image/jpeg")
        #expect(plain.bytes.suffix(2) == [0xFF, 0xD9])
    }
}
