import Foundation
import LivePairFormats
@testable import LivePairMedia
import TestSupport
import Testing

/// How `SequentialFrameReader` spreads decoding over the cores (issue 13): Apple's HEVC movies,
/// whose pictures split into wavefront rows, are decoded with slice threads and the next frame
/// read ahead; H.264 and HEVC with tiles keep frame threads. Both kinds give the same frames, times and pixels.
@Suite("Sequential frame reader threading")
struct SequentialFrameThreadingTests {
    /// Every frame of `reader`: its time and its RGBA bytes.
    static func allFrames(_ reader: SequentialFrameReader) throws -> [(time: Double, pixels: [UInt8])] {
        var frames: [(Double, [UInt8])] = []
        while let frame = try reader.next() { frames.append((frame.presentationTime, frame.image.storage)) }
        return frames
    }

    @Test("Apple's HEVC movie is read with slice threads, H.264 with frame threads")
    func threadingFollowsTheStream() throws {
        let hevc = try SequentialFrameReader(path: SampleMedia.path("live/IMG_3582.mov"), width: 64, height: 48)
        #expect(hevc.codecName == "hevc")
        #expect(hevc.usesSliceThreads)
        let h264 = try SequentialFrameReader(path: SampleMedia.path("live/train.mov"), width: 64, height: 48)
        #expect(h264.codecName == "h264")
        #expect(!h264.usesSliceThreads)
    }

    /// FFmpeg 5.1 decodes HEVC tiles on one thread: slice threads would halve the speed
    /// (measured: 531 ms against 368 ms with frame threads for this movie's 42 frames).
    @Test("a Samsung motion photo's HEVC (tiles, no wavefronts) keeps frame threads")
    func tilesKeepFrameThreads() throws {
        let path = SampleMedia.path("motion/motionphoto.heic")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The embedded MP4 starts 4 bytes before the second `ftyp` (the first is the HEIC's own).
        let type: [UInt8] = Array("ftyp".utf8)
        let at = try #require((8..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual(type) })
        let reader = try SequentialFrameReader(
            path: path, embeddedAt: UInt64(at - 4), length: UInt64(bytes.count - at + 4), width: 64, height: 48)
        #expect(reader.codecName == "hevc")
        #expect(!reader.usesSliceThreads)
        #expect(try reader.next() != nil)
    }

    /// At the reader's own slice-thread count (two per core): a picture whose wavefront rows were
    /// left unwritten (the failure seen once with four threads in the single-frame decode, not
    /// reproduced since) would differ from the frame-threaded decode in its bottom rows.
    @Test("slice threads with the frame read ahead give the frame-threaded decode's frames, times and pixels", arguments: [
        "live/IMG_3582_edited.mov", "live/IMG_4580.mov", "live/IMG_3582.mov",
    ])
    func readAheadMatchesFrameThreads(file: String) throws {
        let path = SampleMedia.path(file)
        let ahead = try SequentialFrameReader(
            path: path, width: 96, height: 72, limits: .default, cancellation: CancellationFlag(), threading: .slices)
        let threaded = try SequentialFrameReader(
            path: path, width: 96, height: 72, limits: .default, cancellation: CancellationFlag(), threading: .frames)
        #expect(ahead.usesSliceThreads && !threaded.usesSliceThreads)
        let aheadFrames = try Self.allFrames(ahead), threadedFrames = try Self.allFrames(threaded)
        let probed = try ReferenceTool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path])
            .split(separator: "\n").compactMap { line in line.split(separator: ",").first.flatMap { Double($0) } }
        #expect(aheadFrames.count == probed.count)
        #expect(aheadFrames.count == threadedFrames.count)
        #expect(zip(aheadFrames.map(\.time), probed).allSatisfy { abs($0 - $1) < 0.0005 })
        #expect(aheadFrames.map(\.time) == threadedFrames.map(\.time))
        let differing = zip(aheadFrames, threadedFrames).enumerated().filter { $0.element.0.pixels != $0.element.1.pixels }
        #expect(differing.isEmpty, "frames \(differing.map(\.offset)) differ")
        #expect(ahead.framesDecoded == probed.count)
    }

    /// (A cancel while reading ahead: `LoadingDecoderTests.sequentialReaderCancellation`.)
    @Test("a reader dropped while its next frame is decoded ahead is freed on the release queue")
    func droppedWhileReadingAhead() throws {
        var dropped: SequentialFrameReader? = try SequentialFrameReader(
            path: SampleMedia.path("live/IMG_3582.mov"), width: 64, height: 48)
        var times: [Double] = []
        for _ in 0..<3 { times.append(try #require(try dropped?.next()).presentationTime) }
        #expect(times == times.sorted() && Set(times).count == 3)
        dropped = nil  // its fourth frame is being decoded ahead: freed once that decode ends
        DecoderRelease.waitUntilReadersReleased()
    }
}
