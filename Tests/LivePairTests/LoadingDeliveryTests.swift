import LivePair
import LivePairMedia
import Synchronization
import Testing
import TestSupport

/// Order and count of handler calls on every real pair, per delivery mode.
@Suite("Loading: delivery order on real pairs")
struct LoadingDeliveryTests {
    static let target = PixelSize(width: 96, height: 96)

    @Test("opportunistic: one degraded placeholder, then one final", arguments: loadingSamplePairs.map(\.photo))
    func opportunistic(photo: String) async throws {
        let pair = try #require(loadingSamplePairs.first { $0.photo == photo })
        let recorder = CallRecorder()
        let id = LivePhotoManager.default.requestLivePhoto(
            resourceFileURLs: samplePaths(pair), targetSize: Self.target, contentMode: .aspectFit,
            resultHandler: recorder.livePhotoHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.count == 2, "\(calls.map { $0.error.map(String.init(describing:)) ?? "ok" })")
        guard calls.count == 2 else { return }
        #expect(calls[0].isDegraded && calls[0].image != nil)
        #expect(!calls[1].isDegraded && calls[1].error == nil && !calls[1].isCancelled)
        #expect(calls.allSatisfy { $0.requestID == id })
        let placeholder = try #require(calls[0].image)
        #expect(max(placeholder.width, placeholder.height) == 96)
        let livePhoto = try #require(calls[1].livePhoto)
        #expect(max(livePhoto.still.width, livePhoto.still.height) == 96)
        // Both upright with the same shape.
        #expect((placeholder.width > placeholder.height) == (livePhoto.still.width > livePhoto.still.height))
        #expect(max(livePhoto.poster.image.width, livePhoto.poster.image.height) == 96)
        #expect(livePhoto.movie.stillImageTime != nil)
        #expect(livePhoto.movie.hasAudio)
        #expect(livePhoto.contentIdentifier != nil)
        #expect(livePhoto.posterFrameIndex >= 0 && livePhoto.posterFrameIndex < livePhoto.movie.frameTimes.count)
    }

    @Test("high quality only: exactly one final call", arguments: loadingSamplePairs.map(\.photo))
    func highQuality(photo: String) async throws {
        let pair = try #require(loadingSamplePairs.first { $0.photo == photo })
        let recorder = CallRecorder()
        LivePhotoManager.default.requestLivePhoto(
            resourceFileURLs: samplePaths(pair), targetSize: Self.target, contentMode: .aspectFill,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat), resultHandler: recorder.livePhotoHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.count == 1)
        #expect(calls.first.map { !$0.isDegraded && $0.livePhoto != nil } == true)
        if let still = calls.first?.livePhoto?.still { #expect(min(still.width, still.height) == 96) }
    }

    @Test("fast only: exactly one final call with the cheap still", arguments: loadingSamplePairs.map(\.photo))
    func fastOnly(photo: String) async throws {
        let pair = try #require(loadingSamplePairs.first { $0.photo == photo })
        let recorder = CallRecorder()
        LivePhotoManager.default.requestLivePhoto(
            resourceFileURLs: samplePaths(pair), targetSize: Self.target,
            options: ImageRequestOptions(deliveryMode: .fastFormat), resultHandler: recorder.livePhotoHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.count == 1)
        #expect(calls.first.map { !$0.isDegraded && $0.livePhoto != nil } == true)
    }

    @Test("synchronous: one final call before the request returns", arguments: loadingSamplePairs.map(\.photo))
    func synchronous(photo: String) async throws {
        let pair = try #require(loadingSamplePairs.first { $0.photo == photo })
        let recorder = CallRecorder()
        let id = LivePhotoManager.default.requestLivePhoto(
            resourceFileURLs: samplePaths(pair), targetSize: Self.target,
            options: ImageRequestOptions(deliveryMode: .fastFormat, isSynchronous: true),
            resultHandler: recorder.livePhotoHandler())
        let immediately = recorder.all
        #expect(immediately.count == 1)
        #expect(immediately.first?.requestID == id)
        #expect(immediately.first?.livePhoto != nil)
        #expect(immediately.first?.isDegraded == false)
    }

    @Test("a caller-given placeholder is the degraded result")
    func callerPlaceholder() async throws {
        let pair = loadingSamplePairs[0]
        let recorder = CallRecorder()
        let placeholder = solidImage(width: 8, height: 6, value: 77)
        let stills = FakeStillDecoder()
        let manager = LivePhotoManager(stillDecoder: stills, movieDecoder: FakeMovieDecoder())
        manager.requestLivePhoto(
            resourceFileURLs: samplePaths(pair), placeholder: placeholder, targetSize: Self.target,
            resultHandler: recorder.livePhotoHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.count == 2)
        #expect(calls.first?.isDegraded == true && calls.first?.image == placeholder)
        #expect(stills.previewCalls.load(ordering: .relaxed) == 0)
    }

    @Test("async sequence: degraded then final, then the sequence ends")
    func asyncSequence() async throws {
        let manager = LivePhotoManager(stillDecoder: FakeStillDecoder(), movieDecoder: FakeMovieDecoder())
        var kinds: [Bool] = []
        for try await event in manager.livePhotoEvents(
            resourceFileURLs: samplePaths(loadingSamplePairs[2]), targetSize: Self.target)
        {
            kinds.append(event.isDegraded)
        }
        #expect(kinds == [true, false])
    }
}
