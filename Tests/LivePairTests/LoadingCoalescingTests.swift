import LivePair
import LivePairMedia
import Synchronization
import Testing
import TestSupport

/// Identical concurrent requests share one decode; cancellation is per request.
@Suite("Loading: coalescing")
struct LoadingCoalescingTests {
    static let target = PixelSize(width: 64, height: 64)
    static let paths = samplePaths(loadingSamplePairs[0])

    @Test("N identical requests: one decode, N distinct ids, each gets degraded then final")
    func identicalRequestsShareOneDecode() async {
        let gate = Gate()
        let stills = FakeStillDecoder(fullGate: gate), movies = FakeMovieDecoder()
        let manager = LivePhotoManager(stillDecoder: stills, movieDecoder: movies)
        let recorders = (0..<5).map { _ in CallRecorder() }
        let ids = recorders.map { recorder in
            manager.requestLivePhoto(
                resourceFileURLs: Self.paths, targetSize: Self.target, resultHandler: recorder.livePhotoHandler())
        }
        await gate.waitForArrival()
        gate.open()
        for recorder in recorders {
            let calls = await recorder.waitForTerminal()
            #expect(calls.map(\.isDegraded) == [true, false])
        }
        #expect(Set(ids).count == 5)
        #expect(manager.startedTaskCount == 1)
        #expect(stills.previewCalls.load(ordering: .relaxed) == 1)
        #expect(stills.fullCalls.load(ordering: .relaxed) == 1)
        #expect(movies.posterCalls.load(ordering: .relaxed) == 1)
    }

    @Test("cancel N-1: they get cancelled calls, the last still completes, one decode")
    func cancelAllButOne() async {
        let gate = Gate()
        let stills = FakeStillDecoder(fullGate: gate), movies = FakeMovieDecoder()
        let manager = LivePhotoManager(stillDecoder: stills, movieDecoder: movies)
        let recorders = (0..<4).map { _ in CallRecorder() }
        let ids = recorders.map { recorder in
            manager.requestLivePhoto(
                resourceFileURLs: Self.paths, targetSize: Self.target,
                options: ImageRequestOptions(deliveryMode: .highQualityFormat), resultHandler: recorder.livePhotoHandler())
        }
        await gate.waitForArrival()
        for id in ids.dropLast() { manager.cancelRequest(id) }
        gate.open()
        for recorder in recorders.dropLast() {
            let calls = await recorder.waitForTerminal()
            #expect(calls.count == 1 && calls.first?.isCancelled == true)
        }
        let last = await recorders[3].waitForTerminal()
        #expect(last.count == 1 && last.first?.livePhoto != nil)
        #expect(stills.fullCalls.load(ordering: .relaxed) == 1)
        #expect(stills.cancelledCalls.load(ordering: .relaxed) == 0)
    }

    @Test("cancel all: the shared work stops")
    func cancelAll() async {
        let gate = Gate()
        let stills = FakeStillDecoder(fullGate: gate), movies = FakeMovieDecoder()
        let manager = LivePhotoManager(stillDecoder: stills, movieDecoder: movies)
        let recorders = (0..<3).map { _ in CallRecorder() }
        let ids = recorders.map { recorder in
            manager.requestLivePhoto(
                resourceFileURLs: Self.paths, targetSize: Self.target,
                options: ImageRequestOptions(deliveryMode: .highQualityFormat), resultHandler: recorder.livePhotoHandler())
        }
        await gate.waitForArrival()
        for id in ids { manager.cancelRequest(id) }
        for recorder in recorders { #expect(await recorder.waitForTerminal().map(\.isCancelled) == [true]) }
        await eventually { stills.cancelledCalls.load(ordering: .relaxed) == 1 }
        #expect(stills.cancelledCalls.load(ordering: .relaxed) == 1)
        #expect(movies.posterCalls.load(ordering: .relaxed) == 0)
    }

    @Test("different sizes or modes are different work")
    func differentRequestsDoNotCoalesce() async {
        let gate = Gate()
        let stills = FakeStillDecoder(fullGate: gate)
        let manager = LivePhotoManager(stillDecoder: stills, movieDecoder: FakeMovieDecoder())
        let recorders = (0..<3).map { _ in CallRecorder() }
        let options = ImageRequestOptions(deliveryMode: .highQualityFormat)
        manager.requestLivePhoto(
            resourceFileURLs: Self.paths, targetSize: Self.target, options: options,
            resultHandler: recorders[0].livePhotoHandler())
        manager.requestLivePhoto(
            resourceFileURLs: Self.paths, targetSize: PixelSize(width: 32, height: 32), options: options,
            resultHandler: recorders[1].livePhotoHandler())
        manager.requestLivePhoto(
            resourceFileURLs: Self.paths, targetSize: Self.target, contentMode: .aspectFill, options: options,
            resultHandler: recorders[2].livePhotoHandler())
        gate.open()
        for recorder in recorders { _ = await recorder.waitForTerminal() }
        #expect(manager.startedTaskCount == 3)
        #expect(stills.fullCalls.load(ordering: .relaxed) == 3)
    }

    @Test("image requests coalesce too")
    func imageRequestsCoalesce() async {
        let gate = Gate()
        let stills = FakeStillDecoder(fullGate: gate)
        let manager = ImageManager(stillDecoder: stills, movieDecoder: FakeMovieDecoder())
        let recorders = (0..<3).map { _ in CallRecorder() }
        let ids = recorders.map { recorder in
            manager.requestImage(
                for: .still(path: Self.paths[0]), targetSize: Self.target,
                options: ImageRequestOptions(deliveryMode: .highQualityFormat), resultHandler: recorder.imageHandler())
        }
        await gate.waitForArrival()
        manager.cancelRequest(ids[0])
        gate.open()
        #expect(await recorders[0].waitForTerminal().map(\.isCancelled) == [true])
        #expect(await recorders[1].waitForTerminal().map { $0.image != nil } == [true])
        #expect(await recorders[2].waitForTerminal().map { $0.image != nil } == [true])
        #expect(stills.fullCalls.load(ordering: .relaxed) == 1)
    }
}
