import LivePair
import LivePairMedia
import Synchronization
import Testing
import TestSupport

/// Invalid and corrupt input ends with one error call, never a crash.
@Suite("Loading: invalid and corrupt input")
struct LoadingErrorTests {
    static let target = PixelSize(width: 64, height: 64)

    @Test("identifiers differ: .invalidPair carrying identifier-mismatch, before any decode")
    func identifierMismatch() async {
        let stills = FakeStillDecoder(), movies = FakeMovieDecoder()
        let manager = LivePhotoManager(stillDecoder: stills, movieDecoder: movies)
        let recorder = CallRecorder()
        manager.requestLivePhoto(
            resourceFileURLs: [SampleMedia.path("live/train.jpg"), SampleMedia.path("live/IMG_3582.mov")],
            targetSize: Self.target, resultHandler: recorder.livePhotoHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.count == 1)
        guard case let .invalidPair(findings)? = calls.first?.error else {
            Issue.record("expected invalidPair, got \(String(describing: calls.first?.error))")
            return
        }
        #expect(findings.contains { $0.code == .identifierMismatch })
        #expect(findings.allSatisfy { $0.severity == .error })
        #expect(stills.previewCalls.load(ordering: .relaxed) + stills.fullCalls.load(ordering: .relaxed) == 0)
    }

    @Test("the async form throws the same error")
    func identifierMismatchAsync() async {
        let manager = LivePhotoManager(stillDecoder: FakeStillDecoder(), movieDecoder: FakeMovieDecoder())
        do {
            for try await _ in manager.livePhotoEvents(
                resourceFileURLs: [SampleMedia.path("live/train.jpg"), SampleMedia.path("live/IMG_3582.mov")],
                targetSize: Self.target)
            {}
            Issue.record("expected an error")
        } catch let error as LoaderError {
            #expect(error.code == "invalid-pair")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("corrupt or missing files end with one error call", arguments: [
        ["broken/badimage.jpeg", "live/train.mov"],
        ["broken/IllegalArgumentException.HeifReader.processBoxes.heif", "live/train.mov"],
        ["live/train.jpg", "live/does-not-exist.mov"],
        ["live/train.jpg", "live/train.jpg"],
    ])
    func corrupt(files: [String]) async {
        let recorder = CallRecorder()
        LivePhotoManager.default.requestLivePhoto(
            resourceFileURLs: files.map(SampleMedia.path), targetSize: Self.target,
            resultHandler: recorder.livePhotoHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.filter(\.isTerminal).count == 1)
        #expect(calls.last?.error != nil)
        #expect(calls.last?.livePhoto == nil)
    }

    @Test("a corrupt still in an image request ends with an error")
    func corruptImage() async {
        let recorder = CallRecorder()
        ImageManager.default.requestImage(
            for: .still(path: SampleMedia.path("broken/badimage.jpeg")), targetSize: Self.target,
            resultHandler: recorder.imageHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.filter(\.isTerminal).count == 1)
        #expect(calls.last?.error != nil && calls.last?.image == nil)
    }

    @Test("truncated movie data gives an error from the frame reader, not a crash")
    func truncatedMovie() throws {
        let bytes = try SampleMedia.bytes("live/train.mov")
        let workspace = try SampleVariants.Workspace()
        let path = try workspace.write(Array(bytes.prefix(bytes.count / 3)), as: "truncated.mov")
        let decoder = MediaMovieDecoder()
        do {
            let movie = try decoder.readMetadata(path: path, cancellation: CancellationFlag())
            let reader = try decoder.makeFrameReader(
                path: path, movie: movie, size: PixelSize(width: 32, height: 24), cancellation: CancellationFlag())
            while try reader.nextFrame() != nil {}
        } catch {
            #expect(error != .cancelled)
        }
    }
}
