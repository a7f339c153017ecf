import Foundation
import LivePairFormats
import TestSupport
import Testing

@Suite("Writer: motion photo")
struct MotionPhotoWriterTests {
    static let jpegPairs = [
        ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"),
        ("live/train.jpg", "live/train.mov"),
    ]
    static let heicPairs = [("live/IMG_3582.HEIC", "live/IMG_3582.mov"), ("live/IMG_4580.HEIC", "live/IMG_4580.mov")]

    /// Writes `still` + `video` and checks what every reader says about the output.
    @discardableResult
    func writeAndVerify(
        still: String, video: String, timestamp: Int64, scratch: WriterScratch
    ) throws -> (output: String, result: MotionPhotoWriter.Result) {
        let stillPath = SampleMedia.path(still), videoPath = SampleMedia.path(video)
        let stillBefore = try Data(contentsOf: URL(fileURLWithPath: stillPath))
        let output = scratch.file("out-\(UUID().uuidString).MP" + (still.lowercased().hasSuffix("heic") ? ".heic" : ".jpg"))
        let result = try MotionPhotoWriter(still: FileByteSource(path: stillPath), video: FileByteSource(path: videoPath))
            .write(to: output, presentationTimestampUs: timestamp)
        #expect(try Data(contentsOf: URL(fileURLWithPath: stillPath)) == stillBefore, "the input is never modified")
        let outputSource = try FileByteSource(path: output)
        let videoSize = try FileByteSource(path: videoPath).size
        #expect(outputSource.size == result.outputSize)
        #expect(result.videoLength == videoSize)
        #expect(result.videoFileOffset + result.videoLength == result.outputSize, "the video ends the file")

        // LivePair's locator finds exactly the video written, with the timestamp.
        let video = try #require(try MotionPhotoOracle.lookup(output).video)
        #expect(video.fileOffset == result.videoFileOffset)
        #expect(video.length == result.videoLength)
        #expect(video.presentationTimestampUs == (timestamp >= 0 ? timestamp : nil))
        #expect(video.ftypVerified)
        #expect(video.warnings.isEmpty)
        let embedded = try MotionPhotoOracle.bytes(output, at: video.fileOffset, count: video.length)
        #expect(embedded == [UInt8](try Data(contentsOf: URL(fileURLWithPath: videoPath))), "the video is embedded verbatim")

        let xmp = MotionPhotoXMP(try #require(try MotionPhotoOracle.xmp(output)))
        #expect(xmp.malformation == nil)
        #expect(xmp.motionPhoto == 1)
        #expect(xmp.motionPhotoVersion == 1)
        #expect(xmp.motionPhotoPresentationTimestampUs == timestamp)
        #expect(xmp.containerItems.last?.length == Int64(videoSize))

        if ReferenceTool.isInstalled("exiftool") {
            let tags = try MotionPhotoOracle.exiftool(output)
            #expect((tags["XMP-GCamera:MotionPhoto"] as? NSNumber)?.intValue == 1)
            #expect((tags["XMP-GCamera:MotionPhotoVersion"] as? NSNumber)?.intValue == 1)
            #expect((tags["XMP-GCamera:MotionPhotoPresentationTimestampUs"] as? NSNumber)?.int64Value == timestamp)
            let lengths = try MotionPhotoOracle.exiftoolDirectoryLengths(output)
            #expect(lengths == xmp.containerItems.map { $0.length ?? 0 })
            #expect(lengths.last == Int64(videoSize))
        }
        if ReferenceTool.isInstalled("ffprobe") {
            #expect(try MotionPhotoOracle.ffprobeSeesVideo(embedded, scratch: scratch))
        }
        return (output, result)
    }

    @Test(arguments: jpegPairs)
    func jpegStillWithMovie(still: String, video: String) throws {
        let scratch = try WriterScratch()
        let (output, result) = try writeAndVerify(still: still, video: video, timestamp: 1_201_700, scratch: scratch)
        #expect(result.stillFormat == .jpeg)
        #expect(result.droppedTrailerLength == 0)
        #expect(!result.mergedExistingXMP)
        let input = SampleMedia.path(still)
        // Every other segment, in order, and the image data are byte for byte the input's.
        #expect(try MotionPhotoOracle.segmentsExceptXMP(output) == MotionPhotoOracle.segmentsExceptXMP(input))
        let inputSource = try FileByteSource(path: input)
        let inputStart = try #require(try JPEGSegmentReader().read(inputSource).startOfScanFileOffset)
        let outputStart = try #require(try JPEGSegmentReader().read(FileByteSource(path: output)).startOfScanFileOffset)
        let imageLength = inputSource.size - inputStart
        #expect(try MotionPhotoOracle.bytes(output, at: outputStart, count: imageLength) == MotionPhotoOracle.bytes(input, at: inputStart, count: imageLength))
        #expect(outputStart + imageLength == result.videoFileOffset, "the video follows EOI")
        // The XMP APP1 sits right after the Exif APP1.
        let structure = try JPEGSegmentReader().read(FileByteSource(path: output))
        let xmpIndex = try #require(structure.segments.firstIndex {
            $0.marker == 0xE1 && $0.payloadFileOffset + 29 == structure.xmpFileOffset
        })
        let segments = structure.segments
        #expect(segments[xmpIndex - 1].marker == 0xE1, "after the Exif APP1")
    }

    @Test(arguments: heicPairs)
    func heicStillWithMovie(still: String, video: String) throws {
        let scratch = try WriterScratch()
        let (output, result) = try writeAndVerify(still: still, video: video, timestamp: 1_331_700, scratch: scratch)
        #expect(result.stillFormat == .heif)
        let input = SampleMedia.path(still)
        let inputFile = try HEIFFile(source: FileByteSource(path: input))
        // The primary's own XMP is merged; an XMP item describing another item (a gain map) is not.
        #expect(result.mergedExistingXMP == (inputFile.primaryXMPItemID != nil))
        let xmpID = try #require(try HEIFFile(source: FileByteSource(path: output)).xmpItemIDs.first)
        let new = try HEICExifWriterTests.expectImagesKept(input: input, output: output, changed: xmpID)
        #expect(new.topLevelBoxes.last?.type == "mpvd")
        #expect(new.topLevelBoxes.last.map { $0.payloadFileOffset } == result.videoFileOffset)
        let xmp = MotionPhotoXMP(try #require(try MotionPhotoOracle.xmp(output)))
        #expect(xmp.containerItems.first == ContainerItem(mime: "image/heic", semantic: "Primary", length: 0, padding: 8))
        // Every property of the primary's XMP is still there.
        if let primaryXMP = inputFile.primaryXMPItemID {
            let before = MotionPhotoXMP(try inputFile.itemData(primaryXMP, from: FileByteSource(path: input)).bytes)
            for (name, value) in before.properties { #expect(xmp.properties[name] == value, "\(name.localName)") }
        }
        if ReferenceTool.isInstalled("exiftool") {
            #expect(try MotionPhotoOracle.exiftoolWarnings(output) == MotionPhotoOracle.exiftoolWarnings(input))
        }
    }

    @Test func heicWithoutXMPGetsANewXMPItem() throws {
        let scratch = try WriterScratch()
        let (output, result) = try writeAndVerify(
            still: "live/IMG_1853.HEIC", video: "live/IMG_3582.mov", timestamp: -1, scratch: scratch)
        #expect(!result.mergedExistingXMP)
        let file = try HEIFFile(source: FileByteSource(path: output))
        let id = try #require(file.xmpItemIDs.first)
        #expect(file.meta.item(id)?.contentType == "application/rdf+xml")
        #expect(file.meta.references(from: id, type: "cdsc") == [try #require(file.meta.primaryItemID)])
    }

    @Test func motionPhotoStillsLoseTheirOldVideo() throws {
        let scratch = try WriterScratch()
        let (_, jpeg) = try writeAndVerify(
            still: "motion/PXL_20200710_061629144.MP.jpg", video: "live/train.mov", timestamp: 480_000, scratch: scratch)
        #expect(jpeg.droppedTrailerLength == 1_317_283)
        #expect(jpeg.mergedExistingXMP)
        let (output, heic) = try writeAndVerify(
            still: "motion/samsung-one-ui-6.heic", video: "live/train.mov", timestamp: 480_000, scratch: scratch)
        #expect(heic.droppedTrailerLength == 3_226_477 + 199, "the mpvd and sefd boxes")
        let boxes = try TopLevelBoxScanner().scan(FileByteSource(path: output))
        #expect(boxes.filter { $0.type == "mpvd" }.count == 1)
        #expect(!boxes.contains { $0.type == "sefd" })
    }

    @Test func ultraHDRGainMapIsKept() throws {
        let scratch = try WriterScratch()
        let (output, result) = try writeAndVerify(
            still: "plain/pixel_8.jpg", video: "live/train.mov", timestamp: 0, scratch: scratch)
        #expect(result.droppedTrailerLength == 0)
        let xmp = MotionPhotoXMP(try #require(try MotionPhotoOracle.xmp(output)))
        #expect(xmp.containerItems.map(\.semantic) == ["Primary", "GainMap", "MotionPhoto"])
        #expect(xmp.containerItems[1].length == 9554)
        #expect(xmp.property(XMPNamespace.hdrGainMap, "Version") == "1.0")
        #expect(xmp.extendedXMPGUID == "A75262B98F95CFE9B516DB50AA628C78")
        let input = SampleMedia.path("plain/pixel_8.jpg")
        let gainMap = try MotionPhotoOracle.bytes(input, at: try FileByteSource(path: input).size - 9554, count: 9554)
        #expect(try MotionPhotoOracle.bytes(output, at: result.videoFileOffset - 9554, count: 9554) == gainMap)
        #expect(try JPEGSegmentReader().read(FileByteSource(path: output)).extendedXMP == JPEGSegmentReader().read(FileByteSource(path: input)).extendedXMP)
    }

    @Test func writingToASinkMatchesThePathWrite() throws {
        let scratch = try WriterScratch()
        let writer = MotionPhotoWriter(
            still: try FileByteSource(path: SampleMedia.path("live/train.jpg")),
            video: try FileByteSource(path: SampleMedia.path("live/train.mov")))
        let sink = MemoryByteSink()
        let result = try writer.write(to: sink, presentationTimestampUs: 480_000)
        let path = scratch.file("train.MP.jpg")
        #expect(try writer.write(to: path, presentationTimestampUs: 480_000) == result)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == sink.bytes)
    }

    @Test(arguments: [UInt64(100), 70_000, 2_000_000])
    func interruptedWriteLeavesNothing(failAfter: UInt64) throws {
        let scratch = try WriterScratch()
        for (still, video) in [Self.jpegPairs[1], Self.heicPairs[1]] {
            let stillPath = SampleMedia.path(still)
            let before = try Data(contentsOf: URL(fileURLWithPath: stillPath))
            let output = scratch.file("interrupted.MP")
            #expect(throws: FormatError.self) {
                try MotionPhotoWriter(still: FileByteSource(path: stillPath), video: FileByteSource(path: SampleMedia.path(video)))
                    .write(to: output, presentationTimestampUs: 0, interpose: { FailingSink($0, failAfter: failAfter) })
            }
            #expect(try scratch.contents().isEmpty, "no output and no temporary file")
            #expect(try Data(contentsOf: URL(fileURLWithPath: stillPath)) == before)
        }
    }

    @Test func hostileInputsGiveTypedErrors() throws {
        let jpeg = try SampleMedia.bytes("live/train.jpg")
        let heic = try SampleMedia.bytes("live/IMG_4580.HEIC")
        let movie = try SampleMedia.bytes("live/train.mov")
        let video = MemoryByteSource(movie)
        func write(_ still: [UInt8], _ video: any ByteSource = video) throws(FormatError) {
            _ = try MotionPhotoWriter(still: MemoryByteSource(still), video: video).write(to: MemoryByteSink(), presentationTimestampUs: 0)
        }
        // Truncated stills: inside the segments, inside the image data, inside meta / mdat.
        for count in [1, 3, 100, 5_000, jpeg.count / 2, jpeg.count - 1] {
            #expect(throws: FormatError.self) { try write(Array(jpeg.prefix(count))) }
        }
        for count in [7, 30, 2_000, heic.count / 2] {
            #expect(throws: FormatError.self) { try write(Array(heic.prefix(count))) }
        }
        // Not an image.
        #expect(throws: FormatError.self) { try write(movie) }
        #expect(throws: FormatError.self) { try write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 64)) }
        // Videos without ftyp, too short, or with an impossible ftyp size.
        #expect(throws: FormatError.self) { try write(jpeg, MemoryByteSource(Array(movie.dropFirst(4)))) }
        #expect(throws: FormatError.self) { try write(jpeg, MemoryByteSource(Array(movie.prefix(6)))) }
        #expect(throws: FormatError.self) { try write(jpeg, MemoryByteSource([0xFF, 0xFF, 0xFF, 0xFF] + Array("ftypisom".utf8))) }
        #expect(throws: FormatError.self) { try write(jpeg, MemoryByteSource(jpeg)) }
        // A timestamp below -1.
        #expect(throws: FormatError.self) {
            try MotionPhotoWriter(still: MemoryByteSource(jpeg), video: video).write(to: MemoryByteSink(), presentationTimestampUs: -2)
        }
    }
}
