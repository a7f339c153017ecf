import Foundation
import LivePair
import LivePairMedia
import Testing
import TestSupport

/// The real decoders behind the loader: cheapest honest placeholder sources, the sequential
/// frame reader and its cancellation.
@Suite("Loading: media decoders")
struct LoadingDecoderTests {
    @Test("small targets: the HEIC thmb item and the JPEG Exif thumbnail are the placeholders")
    func thumbnailsAreUsed() throws {
        let decoder = MediaStillDecoder()
        let geometry = ImageGeometry(targetSize: PixelSize(width: 96, height: 96))
        let heic = try decoder.decodePreview(
            path: SampleMedia.path("live/IMG_4580.HEIC"), geometry: geometry, cancellation: CancellationFlag())
        #expect(!heic.isFullQuality)
        #expect(Set([heic.image.width, heic.image.height]) == [416, 312])
        let jpeg = try decoder.decodePreview(
            path: SampleMedia.path("live/train.jpg"), geometry: geometry, cancellation: CancellationFlag())
        #expect(!jpeg.isFullQuality)
        #expect(max(jpeg.image.width, jpeg.image.height) <= 160)
    }

    @Test("larger targets: a DCT-scaled JPEG decode that still covers the target")
    func dctScaling() throws {
        let decoder = MediaStillDecoder()
        let geometry = ImageGeometry(targetSize: PixelSize(width: 400, height: 400), degradedMinimumCoverage: 1)
        let jpeg = try decoder.decodePreview(
            path: SampleMedia.path("live/train.jpg"), geometry: geometry, cancellation: CancellationFlag())
        #expect(jpeg.isFullQuality)
        #expect(max(jpeg.image.width, jpeg.image.height) == 504)  // 4032 / 8 covers 400
    }

    @Test("a cancelled flag stops the still decoders before any work")
    func cancelledStill() {
        let flag = CancellationFlag()
        flag.cancel()
        #expect(throws: LoaderError.cancelled) {
            try MediaStillDecoder().decodeFull(
                path: SampleMedia.path("live/IMG_3582.HEIC"), geometry: ImageGeometry(targetSize: .maximum),
                cancellation: flag)
        }
    }

    /// H.264 (frame threads) and Apple's HEVC (slice threads: from the second call the next
    /// frame is being decoded ahead when the flag is set).
    @Test("the sequential reader returns every frame in order and stops when cancelled", arguments: [
        "live/train.mov", "live/IMG_3582.mov",
    ])
    func sequentialReaderCancellation(file: String) throws {
        let flag = CancellationFlag()
        let reader = try SequentialFrameReader(
            path: SampleMedia.path(file), width: 48, height: 36, cancellation: flag)
        var times: [Double] = []
        for _ in 0..<3 { times.append(try #require(try reader.next()).presentationTime) }
        #expect(times == times.sorted() && Set(times).count == 3)
        flag.cancel()
        #expect(throws: MediaError.cancelled) { try reader.next() }
        #expect(try reader.next() == nil)
        #expect(reader.framesDecoded == 3)
    }

    @Test("the reader decodes the whole movie at the requested size")
    func sequentialReaderAll() throws {
        let reader = try SequentialFrameReader(path: SampleMedia.path("live/train.mov"), width: 40, height: 30)
        var count = 0
        while let frame = try reader.next() {
            #expect(frame.image.width == 40 && frame.image.height == 30)
            count += 1
        }
        #expect(count == 22)
        #expect(reader.codecName == "h264" && reader.codedWidth == 1440)
    }

    @Test("H.264 motion movie: every frame with its time, readable by ffprobe")
    func h264Motion() throws {
        let workspace = try SampleVariants.Workspace()
        let path = workspace.url.appendingPathComponent("motion.mp4").path
        let reader = try SequentialFrameReader(path: SampleMedia.path("live/train.mov"), width: 64, height: 48)
        let writer = try H264MovieWriter(path: path, width: 64, height: 48)
        var times: [Double] = []
        while let frame = try reader.next() {
            try writer.append(frame.image, presentationTime: frame.presentationTime)
            times.append(frame.presentationTime)
        }
        try writer.finish()
        #expect(writer.frameCount == 22)
        let text = try ReferenceTool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path])
        let encoded = text.split(whereSeparator: { $0 == "\n" || $0 == "," }).compactMap { Double($0) }
        #expect(encoded.count == times.count)
        #expect(zip(encoded, times).allSatisfy { abs($0 - $1) < 0.001 })
        let codec = try ReferenceTool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", path])
        #expect(codec.trimmingCharacters(in: .whitespacesAndNewlines) == "h264")
    }
}
