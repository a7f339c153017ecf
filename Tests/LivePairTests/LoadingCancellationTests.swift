import Dispatch
import LivePair
import LivePairMedia
import Synchronization
import Testing
import TestSupport

/// Cancellation at every stage gives exactly one cancelled call, and the decode work stops.
@Suite("Loading: cancellation")
struct LoadingCancellationTests {
    static let target = PixelSize(width: 64, height: 64)
    static let paths = samplePaths(loadingSamplePairs[0])

    @Test("cancelled before the work starts: one cancelled call, nothing decoded")
    func beforeStart() async {
        let stills = FakeStillDecoder(), movies = FakeMovieDecoder()
        // The work queue is held until the request is cancelled, so the work cannot have started.
        let held = DispatchQueue(label: "held", attributes: .concurrent)
        held.suspend()
        let manager = LivePhotoManager(stillDecoder: stills, movieDecoder: movies, workQueue: held)
        let recorder = CallRecorder()
        let id = manager.requestLivePhoto(
            resourceFileURLs: Self.paths, targetSize: Self.target, resultHandler: recorder.livePhotoHandler())
        manager.cancelRequest(id)
        manager.cancelRequest(id)  // idempotent
        held.resume()
        let calls = await recorder.waitForTerminal()
        #expect(calls.count == 1)
        #expect(calls.first?.isCancelled == true && calls.first?.error == .cancelled && calls.first?.requestID == id)
        try? await Task.sleep(for: .milliseconds(100))
        #expect(stills.previewCalls.load(ordering: .relaxed) == 0)
        #expect(stills.fullCalls.load(ordering: .relaxed) == 0)
        #expect(movies.metadataCalls.load(ordering: .relaxed) == 0)
        #expect(movies.posterCalls.load(ordering: .relaxed) == 0)
    }

    @Test("cancelled during the placeholder decode: one cancelled call, the decoder stops")
    func duringPlaceholder() async {
        let gate = Gate()
        let stills = FakeStillDecoder(previewGate: gate), movies = FakeMovieDecoder()
        let manager = LivePhotoManager(stillDecoder: stills, movieDecoder: movies)
        let recorder = CallRecorder()
        let id = manager.requestLivePhoto(
            resourceFileURLs: Self.paths, targetSize: Self.target, resultHandler: recorder.livePhotoHandler())
        await gate.waitForArrival()
        #expect(gate.arrivals == 1)
        manager.cancelRequest(id)
        let calls = await recorder.waitForTerminal()
        #expect(calls.count == 1)
        #expect(calls.first?.isCancelled == true)
        await eventually { stills.cancelledCalls.load(ordering: .relaxed) == 1 }
        #expect(stills.cancelledCalls.load(ordering: .relaxed) == 1)
        #expect(stills.fullCalls.load(ordering: .relaxed) == 0)
        #expect(movies.posterCalls.load(ordering: .relaxed) == 0)
    }

    @Test("cancelled during the frame decode: one cancelled call after the degraded one, the decoder stops")
    func duringFrameDecode() async {
        let gate = Gate()
        let stills = FakeStillDecoder(), movies = FakeMovieDecoder(posterGate: gate)
        let manager = LivePhotoManager(stillDecoder: stills, movieDecoder: movies)
        let recorder = CallRecorder()
        let id = manager.requestLivePhoto(
            resourceFileURLs: Self.paths, targetSize: Self.target, resultHandler: recorder.livePhotoHandler())
        await gate.waitForArrival()
        manager.cancelRequest(id)
        let calls = await recorder.waitForTerminal()
        #expect(calls.map(\.isDegraded) == [true, false])
        #expect(calls.last?.isCancelled == true)
        #expect(calls.filter(\.isTerminal).count == 1)
        await eventually { movies.cancelledCalls.load(ordering: .relaxed) == 1 }
        #expect(movies.cancelledCalls.load(ordering: .relaxed) == 1)
    }

    @Test("cancelling the consuming task cancels the request and stops the work")
    func asyncTaskCancellation() async {
        let gate = Gate()
        let stills = FakeStillDecoder(fullGate: gate), movies = FakeMovieDecoder()
        let manager = LivePhotoManager(stillDecoder: stills, movieDecoder: movies)
        let events = manager.livePhotoEvents(resourceFileURLs: Self.paths, targetSize: Self.target)
        let task = Task {
            var count = 0
            do { for try await _ in events { count += 1 } } catch { return (count, error as? LoaderError) }
            return (count, nil)
        }
        await gate.waitForArrival()
        task.cancel()
        _ = await task.value
        let deadline = ContinuousClock.now + .seconds(600)  // a guard against a hang, not a bound on speed
        while ContinuousClock.now < deadline, stills.cancelledCalls.load(ordering: .relaxed) == 0 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        #expect(stills.cancelledCalls.load(ordering: .relaxed) == 1)
        #expect(movies.posterCalls.load(ordering: .relaxed) == 0)
    }

    /// Loads a Live Photo through `movies` and iterates its frames in a task that returns how
    /// many frames it got and the error that ended it.
    static func iterateFrames(_ movies: FakeMovieDecoder) async throws -> Task<(Int, LoaderError?), Never> {
        let manager = LivePhotoManager(stillDecoder: FakeStillDecoder(), movieDecoder: movies)
        var livePhoto: LivePhoto?
        for try await event in manager.livePhotoEvents(
            resourceFileURLs: paths, targetSize: target, options: ImageRequestOptions(deliveryMode: .highQualityFormat))
        {
            if case let .final(value) = event { livePhoto = value }
        }
        let frames = try #require(livePhoto).frames
        return Task {
            var count = 0
            do throws(LoaderError) { for try await _ in frames { count += 1 } } catch { return (count, error as LoaderError?) }
            return (count, LoaderError?.none)
        }
    }

    @Test("cancelling frame iteration stops the frame decoder")
    func frameIterationStops() async throws {
        let movies = FakeMovieDecoder(frameCount: 2_000)
        let task = try await Self.iterateFrames(movies)
        while movies.framesDecoded.load(ordering: .relaxed) < 5 { try await Task.sleep(for: .milliseconds(2)) }
        task.cancel()
        let (count, error) = await task.value
        #expect(error == .cancelled)
        // The frame in flight at the cancel finishes (and is dropped); then the reader is closed.
        #expect(await eventually(timeout: 30) { movies.openReaders.load(ordering: .relaxed) == 0 })
        let decoded = movies.framesDecoded.load(ordering: .relaxed)
        #expect(decoded < 2_000)
        #expect(decoded == count || decoded == count + 1)
        try await Task.sleep(for: .milliseconds(50))
        #expect(movies.framesDecoded.load(ordering: .relaxed) == decoded)
    }

    @Test("a cancelled frame iteration ends at once; the frame in flight finishes, is dropped, and the reader closes")
    func frameIterationEndsWithoutWaiting() async throws {
        // The first frame waits at the gate whatever the flag says, like a frame inside libavcodec.
        let gate = Gate()
        let movies = FakeMovieDecoder(frameCount: 10, frameGate: gate)
        let task = try await Self.iterateFrames(movies)
        await gate.waitForArrival()
        #expect(gate.arrivals == 1)
        // Set once the iteration has ended (a flag used as a thread-safe boolean).
        let ended = CancellationFlag()
        Task {
            _ = await task.value
            ended.cancel()
        }
        task.cancel()
        // The iteration ends while the first frame is still in flight (the gate stays shut).
        #expect(await eventually(timeout: 60) { ended.isCancelled }, "the iteration waited for the frame in flight")
        #expect(movies.framesDecoded.load(ordering: .relaxed) == 0)
        #expect(movies.openReaders.load(ordering: .relaxed) == 1)
        gate.open()
        let (count, error) = await task.value
        #expect(error == .cancelled)
        #expect(count == 0)
        #expect(await eventually(timeout: 30) { movies.openReaders.load(ordering: .relaxed) == 0 })
        #expect(movies.framesDecoded.load(ordering: .relaxed) == 1)
        #expect(gate.arrivals == 1)  // no frame after the cancel
    }

    @Test("cancelling after the final call does nothing")
    func afterFinal() async {
        let manager = LivePhotoManager(stillDecoder: FakeStillDecoder(), movieDecoder: FakeMovieDecoder())
        let recorder = CallRecorder()
        let id = manager.requestLivePhoto(
            resourceFileURLs: Self.paths, targetSize: Self.target, resultHandler: recorder.livePhotoHandler())
        _ = await recorder.waitForTerminal()
        manager.cancelRequest(id)
        try? await Task.sleep(for: .milliseconds(50))
        #expect(recorder.all.count == 2)
        #expect(recorder.all.filter(\.isCancelled).isEmpty)
    }

    @Test("real decoders: cancelling from the progress handler mid-load gives one cancelled call")
    func realDecoderCancellation() async {
        let manager = LivePhotoManager()
        let recorder = CallRecorder()
        let cancelled = Atomic<Bool>(false)
        let box = Mutex<RequestID?>(nil)
        let options = ImageRequestOptions(
            deliveryMode: .highQualityFormat,
            progressHandler: { fraction in
                // After validation, while the HEIC grid is being decoded.
                guard fraction >= 0.3, let id = box.withLock({ $0 }), !cancelled.exchange(true, ordering: .relaxed) else {
                    return
                }
                manager.cancelRequest(id)
            })
        let id = manager.requestLivePhoto(
            resourceFileURLs: samplePaths(loadingSamplePairs[2]), targetSize: Self.target, options: options,
            resultHandler: recorder.livePhotoHandler())
        box.withLock { $0 = id }
        let calls = await recorder.waitForTerminal()
        // Either the cancel arrived first (the usual case) or the id was not yet known when
        // progress passed 0.3 and the request completed; both give exactly one terminal call.
        #expect(calls.filter(\.isTerminal).count == 1)
        if cancelled.load(ordering: .relaxed) {
            #expect(calls.map(\.isCancelled) == [true])
        }
    }
}
