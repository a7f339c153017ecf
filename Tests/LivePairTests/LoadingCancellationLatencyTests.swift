import Dispatch
import Foundation
import LivePair
import LivePairMedia
import Synchronization
import Testing
import TestSupport

/// How soon cancelled movie work lets go (issue 13): a cancel during the HEVC poster decode ends
/// the call and the request's work at once (the frame FFmpeg is decoding finishes in the
/// background, `DecoderRelease`), a cancelled frame iteration ends at once, and a cancelled HEVC
/// frame reader's decoding itself ends with the picture in progress.
///
/// Bounds: the target is 20 ms. Each case is run several times and the **median** must be under
/// 20 ms: on a quiet machine the figures are under 1 ms (the wait looks at the flag every
/// millisecond), so the median keeps a margin of 20x for a loaded 2-core CI machine, where a
/// waiting thread can be left unscheduled for a few milliseconds. The **maximum** is bounded at
/// 250 ms: one run may lose its core for a whole scheduling round on a loaded machine (the
/// project's runs under a load average of 10 to 13 saw up to 72 ms), while before this change the
/// call waited for the decode to reach its frame (160 ms median, 497 ms maximum in the same loaded
/// run), so a regression still shows in the median.
@Suite("Loading: cancellation latency", .serialized)
struct LoadingCancellationLatencyTests {
    static let movie = SampleMedia.path("live/IMG_3582.mov")
    static let medianBound = 0.020
    static let maximumBound = 0.250

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    @Test("a cancelled HEVC poster decode returns within 20 ms (median) and its decode then ends")
    func posterDecodeReturnsAtOnce() throws {
        let time = try #require(SampleMedia.entry("live/IMG_3582.mov")?.stillImageTime)
        let decoder = VideoFrameDecoder(maximumDimension: 512)
        let whole = try decoder.decodeFrame(path: Self.movie, at: time)
        #expect(whole.codecName == "hevc")
        var latencies: [Double] = []
        for step in 0..<12 {
            let flag = CancellationFlag()
            let outcome = Mutex<(error: MediaError?, ended: ContinuousClock.Instant?)>((nil, nil))
            let begun = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
            // A thread of its own (not a shared pool that may start it late), started before the clock.
            Thread {
                begun.signal()
                do throws(MediaError) {
                    _ = try decoder.decodeFrame(path: Self.movie, at: time, cancellation: flag)
                } catch {
                    outcome.withLock { $0.error = error }
                }
                outcome.withLock { $0.ended = ContinuousClock.now }
                finished.signal()
            }.start()
            begun.wait()
            // Cancel after 0.5 to 17 ms: the open, the read-ahead and the key frame's decode (at
            // least 20 ms of a 1920x1440 HEVC key frame on two cores) are all hit. Fixed delays, not
            // fractions of a measured decode: other suites running beside this one make any one
            // measurement of its duration unrepresentative.
            Thread.sleep(forTimeInterval: 0.0005 + 0.0015 * Double(step))
            let cancelled = ContinuousClock.now
            flag.cancel()
            finished.wait()
            let (error, ended) = outcome.withLock { $0 }
            guard let ended, ended > cancelled else { continue }  // finished before the cancel
            #expect(error == .cancelled)
            latencies.append((ended - cancelled).seconds)
        }
        // The background decode stops too: it ends (frame in progress finished, decoder freed).
        DecoderRelease.waitUntilReleased()
        #expect(latencies.count >= 6, "too few runs were cancelled in flight: \(latencies)")
        guard !latencies.isEmpty else { return }
        #expect(Self.median(latencies) < Self.medianBound, "latencies \(latencies)")
        #expect(latencies.max()! < Self.maximumBound, "latencies \(latencies)")
    }

    /// The frame reader's own work, not only the caller: from the cancel until the thread reading
    /// frames has returned and dropped the reader and the reader's decoder has been freed (the
    /// frame decoded ahead finished). With slice threads that is the one picture in progress
    /// (about 10 ms for a 1920x1440 HEVC picture on two cores; 5 to 7 ms median measured on this
    /// machine under a load of 25). The frame threads used before kept three pictures in flight
    /// and took 14 to 30 ms on a quiet machine (119 to 141 ms median under load), so the median
    /// bound catches a return to them. Bounds as above (median 20 ms, maximum 250 ms).
    @Test("a cancelled HEVC frame reader's decoding ends within 20 ms (median)")
    func frameReaderDecodingEnds() throws {
        let decoder = MediaMovieDecoder()
        let metadata = try decoder.readMetadata(path: Self.movie, cancellation: CancellationFlag())
        #expect(metadata.codec == "hevc")
        var latencies: [Double] = []
        for step in 0..<10 {
            let flag = CancellationFlag()
            let reached = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
            let outcome = Mutex<(frames: Int, error: LoaderError?)>((0, nil))
            // Cancel after 2 to 6 frames (the reader is then decoding the next picture ahead).
            let framesBeforeCancel = 2 + step % 5
            Thread {
                do throws(LoaderError) {
                    let reader = try decoder.makeFrameReader(
                        path: Self.movie, movie: metadata, size: PixelSize(width: 384, height: 512), cancellation: flag)
                    while try reader.nextFrame() != nil {
                        let count = outcome.withLock { $0.frames += 1; return $0.frames }
                        if count == framesBeforeCancel { reached.signal() }
                    }
                } catch {
                    outcome.withLock { $0.error = error }
                }
                // The reader is dropped here: freed at once, or handed to the release queue.
                finished.signal()
            }.start()
            reached.wait()
            Thread.sleep(forTimeInterval: 0.001 * Double(step % 3))
            let cancelled = ContinuousClock.now
            flag.cancel()
            finished.wait()
            DecoderRelease.waitUntilReadersReleased()
            latencies.append((ContinuousClock.now - cancelled).seconds)
            let (frames, error) = outcome.withLock { $0 }
            #expect(error == .cancelled, "after \(frames) frames")
            #expect(frames >= framesBeforeCancel && frames < 55)
        }
        #expect(Self.median(latencies) < Self.medianBound, "latencies \(latencies)")
        #expect(latencies.max()! < Self.maximumBound, "latencies \(latencies)")
    }

    @Test("a Live Photo request cancelled in the poster stage ends its work within 20 ms (median)")
    func posterStageWorkEnds() throws {
        var latencies: [Double] = []
        for _ in 0..<5 {
            let queue = DispatchQueue(label: "test.loading.cancellation-latency")
            let posterStarted = DispatchSemaphore(value: 0)
            let manager = LivePhotoManager(
                movieDecoder: PosterSignallingDecoder(posterStarted: posterStarted), workQueue: queue)
            let recorder = CallRecorder()
            let id = manager.requestLivePhoto(
                resourceFileURLs: [SampleMedia.path("live/IMG_3582.HEIC"), Self.movie],
                targetSize: PixelSize(width: 512, height: 512), options: ImageRequestOptions(deliveryMode: .highQualityFormat),
                resultHandler: recorder.livePhotoHandler())
            posterStarted.wait()
            Thread.sleep(forTimeInterval: 0.005)  // inside the decode
            let cancelled = ContinuousClock.now
            manager.cancelRequest(id)
            queue.sync {}
            latencies.append((ContinuousClock.now - cancelled).seconds)
        }
        DecoderRelease.waitUntilReleased()
        #expect(Self.median(latencies) < Self.medianBound, "latencies \(latencies)")
        #expect(latencies.max()! < Self.maximumBound, "latencies \(latencies)")
    }
}

/// `MediaMovieDecoder`, signalling when a poster decode starts.
private struct PosterSignallingDecoder: MovieDecoding {
    let posterStarted: DispatchSemaphore
    let base = MediaMovieDecoder()

    func readMetadata(path: String, cancellation: CancellationFlag) throws(LoaderError) -> MovieMetadata {
        try base.readMetadata(path: path, cancellation: cancellation)
    }

    func decodeFrame(
        path: String, at time: Double, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag
    ) throws(LoaderError) -> MovieFrame {
        posterStarted.signal()
        return try base.decodeFrame(path: path, at: time, movie: movie, size: size, cancellation: cancellation)
    }

    func makeFrameReader(path: String, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag)
        throws(LoaderError) -> any MovieFrameReading
    {
        try base.makeFrameReader(path: path, movie: movie, size: size, cancellation: cancellation)
    }
}

extension Duration {
    /// The duration in seconds.
    fileprivate var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
