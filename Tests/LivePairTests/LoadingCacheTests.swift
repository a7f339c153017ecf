import LivePair
import LivePairMedia
import Synchronization
import Testing
import TestSupport

/// The byte-bounded LRU cache and `CachingImageManager`.
@Suite("Loading: caching")
struct LoadingCacheTests {
    @Test("the cache evicts the least recently used entries to stay within its byte limit")
    func lruEviction() {
        let cache = MemoryCache<String, Int>(costLimit: 100)
        cache.insert(1, for: "a", cost: 40)
        cache.insert(2, for: "b", cost: 40)
        #expect(cache.value(for: "a") == 1)  // a is now the most recent
        cache.insert(3, for: "c", cost: 40)  // evicts b
        #expect(cache.value(for: "b") == nil)
        #expect(cache.keysByRecency == ["a", "c"])
        #expect(cache.totalCost == 80)
        cache.insert(4, for: "d", cost: 200)  // larger than the limit: not stored
        #expect(cache.value(for: "d") == nil && cache.count == 2)
        cache.insert(5, for: "a", cost: 10)  // replacing updates the cost
        #expect(cache.totalCost == 50 && cache.value(for: "a") == 5)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
    }

    @Test("startCaching prepares images; later requests are served from memory with one call")
    func prefetchThenServe() async throws {
        let stills = FakeStillDecoder()
        let manager = CachingImageManager(costLimit: 1 << 20, stillDecoder: stills, movieDecoder: FakeMovieDecoder())
        let sources = (0..<3).map { ImageSource.still(path: "/fake/\($0).jpg") }
        let target = PixelSize(width: 40, height: 40)
        manager.startCaching(for: sources, targetSize: target)
        let deadline = ContinuousClock.now + .seconds(600)  // a guard against a hang, not a bound on speed
        while ContinuousClock.now < deadline, manager.cachedImageCount < 3 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(manager.cachedImageCount == 3)
        #expect(manager.cachedBytes >= 3 * 40 * 30 * 4 && manager.cachedBytes <= 3 * (40 * 30 * 4 + 256))
        let fullCalls = stills.fullCalls.load(ordering: .relaxed)
        let recorder = CallRecorder()
        manager.requestImage(for: sources[0], targetSize: target, resultHandler: recorder.imageHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.count == 1 && calls.first?.isDegraded == false)
        #expect(stills.fullCalls.load(ordering: .relaxed) == fullCalls)
        manager.stopCaching(for: [sources[0]], targetSize: target)
        #expect(!manager.isCached(sources[0], targetSize: target))
        #expect(manager.isCached(sources[1], targetSize: target))
        manager.stopCachingImagesForAllAssets()
        #expect(manager.cachedImageCount == 0)
    }

    @Test("degraded results are never cached; the byte limit holds")
    func degradedNotCached() async throws {
        let gate = Gate()
        let stills = FakeStillDecoder(fullGate: gate)
        let manager = CachingImageManager(costLimit: 2 * (40 * 30 * 4 + 128), stillDecoder: stills, movieDecoder: FakeMovieDecoder())
        let target = PixelSize(width: 40, height: 40)
        let recorder = CallRecorder()
        let id = manager.requestImage(for: .still(path: "/fake/x.jpg"), targetSize: target, resultHandler: recorder.imageHandler())
        await recorder.waitForCalls(1)
        #expect(recorder.all.first?.isDegraded == true)
        #expect(manager.cachedImageCount == 0)
        manager.cancelRequest(id)
        _ = await recorder.waitForTerminal()
        #expect(manager.cachedImageCount == 0)
        gate.open()
        for index in 0..<4 {
            let each = CallRecorder()
            manager.requestImage(
                for: .still(path: "/fake/\(index).jpg"), targetSize: target,
                options: ImageRequestOptions(deliveryMode: .highQualityFormat), resultHandler: each.imageHandler())
            _ = await each.waitForTerminal()
        }
        #expect(manager.cachedImageCount == 2)
        #expect(manager.cachedBytes <= manager.costLimit)
    }
}
