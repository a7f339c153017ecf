import Dispatch
import Foundation
import LivePair
@testable import LivePairMedia
import Synchronization
import Testing
import TestSupport

/// Cancelled movie work stops (issue 13), counted rather than timed: a cancelled HEVC poster
/// decode returns `.cancelled` and its background decode hands no further packet to the decoder;
/// a cancelled HEVC frame reader returns no further frame and its decoding (the frame read
/// ahead) begins no further picture; a Live Photo request cancelled in its poster stage likewise.
///
/// The count is the cancellation flag's: every packet sent to a decoder is counted on the flag as
/// it begins (`CancellationFlag.notePieceBegun()`), checked or not, and a piece may begin after
/// `cancel()` only when its thread had already passed the check as the flag was set: at most one
/// per decoding thread.
/// How fast the work stops (the 20 ms targets) is measured by `livepair-bench load`
/// (docs/benchmarks.md), not here: a busy machine may leave a thread unscheduled for any time.
@Suite("Loading: cancelled work stops", .serialized)
struct LoadingCancelledWorkTests {
    static let movie = SampleMedia.path("live/IMG_3582.mov")

    /// The edited movie's poster (1.33 s) is not a key frame: its decode sends the reference
    /// packets from the key frame at 0.93 s to it.
    static let editedMovie = SampleMedia.path("live/IMG_3582_edited.mov")

    @Test("a cancelled HEVC poster decode returns .cancelled and sends no further packet to the decoder")
    func posterDecodeStops() throws {
        let time = try #require(SampleMedia.entry("live/IMG_3582_edited.mov")?.stillImageTime)
        let decoder = VideoFrameDecoder(maximumDimension: 512)
        let whole = CancellationFlag()
        #expect(try decoder.decodeFrame(path: Self.editedMovie, at: time, cancellation: whole).codecName == "hevc")
        // The uncancelled decode: the packets from the key frame to the chosen frame.
        #expect(whole.piecesBegun >= 4 && whole.piecesBegunAfterCancel == 0, "\(whole.piecesBegun) packets")
        var inFlight = 0
        for step in 0..<12 {
            let flag = CancellationFlag()
            let outcome = Mutex<MediaError?>(nil)
            let begun = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
            Thread {
                begun.signal()
                do throws(MediaError) {
                    _ = try decoder.decodeFrame(path: Self.editedMovie, at: time, cancellation: flag)
                } catch {
                    outcome.withLock { $0 = error }
                }
                finished.signal()
            }.start()
            begun.wait()
            // Cancel at different points of the open, the read-ahead and the decode.
            Thread.sleep(forTimeInterval: 0.0005 + 0.0015 * Double(step))
            flag.cancel()
            finished.wait()
            // The background decode ends too (frame in progress finished, decoder freed).
            DecoderRelease.waitUntilReleased()
            let error = outcome.withLock { $0 }
            let begunAtCancel = flag.piecesBegun - flag.piecesBegunAfterCancel
            if error == nil {
                // Finished before the cancel: every packet was sent before it.
                #expect(flag.piecesBegunAfterCancel == 0 && begunAtCancel == whole.piecesBegun)
                continue
            }
            inFlight += 1
            #expect(error == .cancelled)
            #expect(flag.piecesBegunAfterCancel <= 1, "step \(step): \(flag.piecesBegunAfterCancel) packets after the cancel")
        }
        // The slowest cancels come after 17 ms, less than a 1920x1440 HEVC key frame's decode.
        #expect(inFlight >= 1, "no run was cancelled in flight")
    }

    /// The frame reader's own work, not only the caller's loop: after the cancel the consumer gets
    /// no further frame (beyond one being converted as the flag was set), the reader's thread
    /// returns `.cancelled`, and the decoder (the frame decoded ahead included) begins no further
    /// picture; then the reader's decoder is freed.
    @Test("a cancelled HEVC frame reader returns no further frame and begins no further picture")
    func frameReaderStops() throws {
        let decoder = MediaMovieDecoder()
        let metadata = try decoder.readMetadata(path: Self.movie, cancellation: CancellationFlag())
        #expect(metadata.codec == "hevc")
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
            flag.cancel()
            let framesAtCancel = outcome.withLock { $0.frames }
            finished.wait()
            DecoderRelease.waitUntilReadersReleased()
            let (frames, error) = outcome.withLock { $0 }
            #expect(error == .cancelled, "after \(frames) frames")
            #expect(frames >= framesBeforeCancel && frames <= framesAtCancel + 1, "\(frames) frames, \(framesAtCancel) at the cancel")
            #expect(flag.piecesBegunAfterCancel <= 1, "step \(step): \(flag.piecesBegunAfterCancel) packets after the cancel")
            #expect(flag.piecesBegun >= framesBeforeCancel)
        }
    }

    @Test("a Live Photo request cancelled in the poster stage ends its work and sends no further packet")
    func posterStageWorkStops() async throws {
        for _ in 0..<5 {
            let queue = DispatchQueue(label: "test.loading.cancelled-work")
            let posterStarted = DispatchSemaphore(value: 0)
            let proceed = DispatchSemaphore(value: 0)
            let movieDecoder = PosterSignallingDecoder(posterStarted: posterStarted, proceed: proceed)
            let manager = LivePhotoManager(movieDecoder: movieDecoder, workQueue: queue)
            let recorder = CallRecorder()
            let id = manager.requestLivePhoto(
                resourceFileURLs: [SampleMedia.path("live/IMG_3582.HEIC"), Self.movie],
                targetSize: PixelSize(width: 512, height: 512), options: ImageRequestOptions(deliveryMode: .highQualityFormat),
                resultHandler: recorder.livePhotoHandler())
            // Cancelled while the poster stage is in its decoder (which waits for the cancel, so a
            // fast decode cannot finish first on a loaded machine).
            posterStarted.wait()
            manager.cancelRequest(id)
            proceed.signal()
            queue.sync {}  // the request's work has returned
            DecoderRelease.waitUntilReleased()
            let flag = try #require(movieDecoder.posterFlag.withLock { $0 })
            #expect(flag.isCancelled)
            #expect(flag.piecesBegunAfterCancel <= 1, "\(flag.piecesBegunAfterCancel) packets after the cancel")
            let calls = await recorder.waitForTerminal()
            #expect(calls.last?.isCancelled == true && !calls.contains { $0.livePhoto != nil }, "\(calls.map(\.isCancelled))")
        }
    }
}

/// `MediaMovieDecoder`, signalling when a poster decode starts, then decoding once `proceed` is
/// signalled, and keeping the flag it was given.
private final class PosterSignallingDecoder: MovieDecoding {
    let posterStarted: DispatchSemaphore
    let proceed: DispatchSemaphore
    let posterFlag = Mutex<CancellationFlag?>(nil)
    let base = MediaMovieDecoder()

    init(posterStarted: DispatchSemaphore, proceed: DispatchSemaphore) {
        self.posterStarted = posterStarted
        self.proceed = proceed
    }

    func readMetadata(path: String, cancellation: CancellationFlag) throws(LoaderError) -> MovieMetadata {
        try base.readMetadata(path: path, cancellation: cancellation)
    }

    func decodeFrame(
        path: String, at time: Double, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag
    ) throws(LoaderError) -> MovieFrame {
        let first = posterFlag.withLock { flag in
            defer { flag = cancellation }
            return flag == nil
        }
        if first {
            posterStarted.signal()
            proceed.wait()
        }
        return try base.decodeFrame(path: path, at: time, movie: movie, size: size, cancellation: cancellation)
    }

    func makeFrameReader(path: String, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag)
        throws(LoaderError) -> any MovieFrameReading
    {
        try base.makeFrameReader(path: path, movie: movie, size: size, cancellation: cancellation)
    }
}
