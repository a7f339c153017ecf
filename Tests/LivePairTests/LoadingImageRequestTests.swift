import LivePair
import LivePairMedia
import Synchronization
import Testing
import TestSupport

/// `ImageManager.requestImage`: delivery modes, geometry, sentinel, synchronous, progress.
@Suite("Loading: image requests")
struct LoadingImageRequestTests {
    static let target = PixelSize(width: 80, height: 80)

    @Test("opportunistic: the degraded and final images agree (both upright)", arguments: loadingSamplePairs.map(\.photo))
    func degradedMatchesFinal(photo: String) async throws {
        let recorder = CallRecorder()
        ImageManager.default.requestImage(
            for: .still(path: SampleMedia.path(photo)), targetSize: Self.target, contentMode: .aspectFit,
            options: ImageRequestOptions(resizeMode: .exact), resultHandler: recorder.imageHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.map(\.isDegraded) == [true, false])
        let degraded = try #require(calls.first?.image), final = try #require(calls.last?.image)
        #expect(degraded.width == final.width && degraded.height == final.height)
        let difference = try #require(degraded.meanAbsoluteDifference(to: final))
        #expect(difference < 12, "degraded vs final differ by \(difference)")
    }

    @Test("fast and high-quality modes call once; a movie frame can be requested")
    func singleCallModes() async throws {
        for mode in [DeliveryMode.fastFormat, .highQualityFormat] {
            let recorder = CallRecorder()
            ImageManager.default.requestImage(
                for: .still(path: SampleMedia.path("live/train.jpg")), targetSize: Self.target,
                options: ImageRequestOptions(deliveryMode: mode), resultHandler: recorder.imageHandler())
            let calls = await recorder.waitForTerminal()
            #expect(calls.count == 1 && calls.first?.isDegraded == false && calls.first?.image != nil)
        }
        let recorder = CallRecorder()
        ImageManager.default.requestImage(
            for: ImageSource(fileURL: "file://" + SampleMedia.path("live/IMG_3582.mov")), targetSize: Self.target,
            resultHandler: recorder.imageHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.count == 1)
        let frame = try #require(calls.first?.image)
        #expect(frame.height == 80 && frame.width == 60)  // 1920x1440 turned upright, fitted
    }

    @Test("content modes and resize modes size the result")
    func geometry() async throws {
        let stills = FakeStillDecoder(size: PixelSize(width: 400, height: 300))
        let manager = ImageManager(stillDecoder: stills, movieDecoder: FakeMovieDecoder())
        func size(_ mode: ContentMode, _ resize: ResizeMode, _ target: PixelSize, crop: NormalizedRect? = nil) -> (Int, Int) {
            let result = Mutex((0, 0))
            manager.requestImage(
                for: .still(path: "/fake.jpg"), targetSize: target, contentMode: mode,
                options: ImageRequestOptions(
                    deliveryMode: .highQualityFormat, resizeMode: resize, normalizedCropRect: crop, isSynchronous: true)
            ) { image, _ in
                if let image { result.withLock { $0 = (image.width, image.height) } }
            }
            return result.withLock { $0 }
        }
        let square = PixelSize(width: 100, height: 100)
        #expect(size(.aspectFit, .fast, square) == (100, 75))
        #expect(size(.aspectFill, .fast, square) == (133, 100))
        #expect(size(.aspectFill, .exact, square) == (100, 100))
        #expect(size(.aspectFit, .none, square) == (400, 300))
        #expect(size(.aspectFit, .exact, .maximum) == (400, 300))
        #expect(size(.aspectFit, .exact, ImageManagerMaximumSize) == (400, 300))
        #expect(size(.aspectFit, .exact, PixelSize(width: 1000, height: 1000)) == (400, 300))  // never enlarged
        #expect(size(.aspectFit, .exact, .maximum, crop: NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 0.5)) == (200, 150))
        #expect(size(.aspectFit, .exact, square, crop: NormalizedRect(x: 0, y: 0, width: 0.5, height: 1)) == (67, 100))
    }

    @Test("synchronous: exactly one final call before returning, progress reported")
    func synchronousWithProgress() throws {
        let progress = Mutex<[Double]>([])
        let recorder = CallRecorder()
        let options = ImageRequestOptions(
            isSynchronous: true, progressHandler: { value in progress.withLock { $0.append(value) } })
        ImageManager.default.requestImage(
            for: .still(path: SampleMedia.path("live/train.jpg")), targetSize: Self.target, options: options,
            resultHandler: recorder.imageHandler())
        let calls = recorder.all
        #expect(calls.count == 1 && calls.first?.isDegraded == false && calls.first?.image != nil)
        let values = progress.withLock { $0 }
        #expect(values.first == 0 && values.last == 1 && values == values.sorted())
    }

    @Test("asynchronous progress ends at 1 and precedes the final call")
    func asynchronousProgress() async {
        let progress = Mutex<[Double]>([])
        let recorder = CallRecorder()
        ImageManager.default.requestImage(
            for: .still(path: SampleMedia.path("live/train.jpg")), targetSize: Self.target,
            options: ImageRequestOptions(progressHandler: { value in progress.withLock { $0.append(value) } }),
            resultHandler: recorder.imageHandler())
        _ = await recorder.waitForTerminal()
        #expect(progress.withLock { $0.last } == 1)
    }
}
