import Foundation
import LivePair
import LivePairLibrary
@testable import LivePairServer
import Synchronization
import Testing
import TestSupport

/// Issue 19: the worker that makes the catalog's derivative jobs, in process, on SQLite and on
/// PostgreSQL: an imported Live Photo's three derivatives are made with their exact dimensions and
/// its jobs end `done`; a source that does not decode ends its jobs `failed` with the cause, and
/// they are not claimed again.
@Suite struct DerivativeJobWorkerTests {
    enum Catalog: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// A new library of `kind` (a fresh schema for PostgreSQL), its derivative cache and a worker on a two-thread pool.
    private static func setUp(_ kind: Catalog) throws -> (PhotoLibrary, DirectoryDerivativeCache, DerivativeJobWorker) {
        let directory = try TestScratch.folder("jobs")
        let library: PhotoLibrary
        switch kind {
        case .sqlite:
            library = try PhotoLibrary.open(at: directory + "/library")
        case .postgres:
            library = try PhotoLibrary.open(
                catalog: .postgres(connectionString: try PostgresTestServer.freshSchemaURL()), store: .directory(directory + "/resources"),
                create: true)
        }
        let cache = try DirectoryDerivativeCache(directory: directory + "/derivatives")
        let maker = DerivativeMaker(library: library, cache: cache, metrics: Metrics(), pool: MediaWorkPool(workers: 2, queueLimit: 4))
        let worker = DerivativeJobWorker(library: library, maker: maker, claim: DerivativeJobClaim(node: "test", maxAttempts: 2), leavingFree: 1)
        return (library, cache, worker)
    }

    private static func importTrain(into library: PhotoLibrary) throws -> Asset {
        let result = try library.performChangesAndWait { context in
            let request = context.creationRequestForAsset()
            request.addResource(with: .photo, path: SampleMedia.path("live/train.jpg"))
            request.addResource(with: .pairedVideo, path: SampleMedia.path("live/train.mov"))
        }
        let identifier = try #require(result.assets.first?.localIdentifier)
        return try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
    }

    /// Drains the worker's jobs on two threads, waited for without blocking a thread of Swift's
    /// concurrency pool (the motion writer runs there).
    private static func drain(_ worker: DerivativeJobWorker, finished: @escaping @Sendable (DerivativeJob, DerivativeJobOutcome) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                worker.drain(workers: 2, finished: finished)
                continuation.resume()
            }.start()
        }
    }

    /// The size of the image or movie at `path`, read from the file.
    private static func dimensions(_ path: String) -> String {
        let identity = ResourceIdentifier().identify(path: path)
        return "\(identity.width ?? 0)x\(identity.height ?? 0)"
    }

    @Test(arguments: Catalog.allCases) func theWorkerMakesEachJobAndMarksItDone(_ kind: Catalog) async throws {
        let (library, cache, worker) = try Self.setUp(kind)
        let asset = try Self.importTrain(into: library)
        let resources = try library.assetResources(for: asset)
        let finished = Finished()
        await Self.drain(worker) { job, outcome in finished.add(job.kind.rawValue + ":" + "\(outcome)") }
        #expect(finished.sorted == ["motion:done", "placeholder:done", "still:done"])
        #expect(try library.derivativeJobs(ofAsset: asset.localIdentifier).map { "\($0.kind.rawValue):\($0.state.rawValue):\($0.attempts)" }
            == ["placeholder:done:1", "still:done:1", "motion:done:1"])
        // The 4032x3024 still and its 1440x1080 movie: the grid still and the motion in the 1024 box,
        // the placeholder the still's 160x120 Exif thumbnail (the fast first image, within 320);
        // the files the routes' default sizes read.
        let maker = DerivativeMaker(library: library, cache: cache, metrics: Metrics(), pool: MediaWorkPool(workers: 1))
        let made = try DerivativeJobKind.kinds(of: asset).map { kind in
            try #require(
                maker.cachedFile(LibraryDerivatives.derivative(kind, of: asset, resources: resources, maker: maker), resources: resources))
        }
        #expect(made.map { String($0.key.split(separator: "-").dropFirst(2).joined(separator: "-")) }
            == ["placeholder.jpg", "still-1024.jpg", "motion-1024.mp4"])
        #expect(made.map { Self.dimensions($0.path) } == ["160x120", "1024x768", "1024x768"])
        #expect(worker.runOne() == nil, "nothing left to claim")
    }

    /// The cached derivative files (placeholder, still, motion) of `asset` shown with `resources`;
    /// nil for one not made.
    private static func cachedFiles(
        _ asset: Asset, resources: [LibraryAssetResource], library: PhotoLibrary, cache: DirectoryDerivativeCache
    ) -> [String?] {
        let maker = DerivativeMaker(library: library, cache: cache, metrics: Metrics(), pool: MediaWorkPool(workers: 1))
        return DerivativeJobKind.kinds(of: asset).map { kind in
            maker.cachedFile(LibraryDerivatives.derivative(kind, of: asset, resources: resources, maker: maker), resources: resources)?.path
        }
    }

    @Test(arguments: Catalog.allCases) func anEditedAssetsDerivativesAreTheRendersMadeAgainWhenEditedAndReverted(_ kind: Catalog) async throws {
        let (library, cache, worker) = try Self.setUp(kind)
        let asset = try Self.importTrain(into: library)
        await Self.drain(worker) { _, _ in }
        let originals = try library.assetResources(for: asset)
        let originalFiles = Self.cachedFiles(asset, resources: originals, library: library, cache: cache)
        #expect(originalFiles.allSatisfy { $0 != nil })

        // An edit applied (train trimmed to 0.2-1.0 s, key photo 0.5 s): its jobs are queued again.
        let rendered = try LivePhotoEditingContext(
            photo: SampleMedia.path("live/train.jpg"), video: SampleMedia.path("live/train.mov"),
            settings: LivePhotoEditSettings(photoTime: 0.5, trim: 0.2...1.0)
        ).render(outputDirectory: try TestScratch.folder("jobs-edit"))
        try library.performChangesAndWait { context in
            context.changeRequest(for: asset).contentEditingOutput = ContentEditingOutput(rendered)
        }
        #expect(try library.derivativeJobs(ofAsset: asset.localIdentifier).map(\.state) == [.queued, .queued, .queued])
        let current = try library.assetResources(for: asset).shown(as: .current)
        #expect(Self.cachedFiles(asset, resources: current, library: library, cache: cache).allSatisfy { $0 == nil })
        let made = Finished()
        await Self.drain(worker) { job, outcome in made.add(job.kind.rawValue + ":" + "\(outcome)") }
        #expect(made.sorted == ["motion:done", "placeholder:done", "still:done"])
        // The worker made the render's: other files than the original's, the motion 0.8 s long as the
        // render (the original's 1.233 s), each within about one AAC frame of sound (23 ms at 44.1 kHz) as the derivative writes it.
        let renderFiles = Self.cachedFiles(asset, resources: current, library: library, cache: cache)
        #expect(renderFiles.allSatisfy { $0 != nil } && Set(renderFiles).isDisjoint(with: Set(originalFiles)))
        let motion = try #require(renderFiles[2])
        let motionDuration = ResourceIdentifier().identify(path: motion).duration
        #expect(motionDuration.map { abs($0 - 0.8) < 0.03 } == true, "\(String(describing: motionDuration))")
        let originalMotion = try #require(originalFiles[2])
        let originalDuration = ResourceIdentifier().identify(path: originalMotion).duration
        #expect(originalDuration.map { abs($0 - 1.233) < 0.03 } == true, "\(String(describing: originalDuration))")
        // The render's still, not the original's frame: the derivative differs from the original's.
        let renderStill = try #require(renderFiles[1]), originalStill = try #require(originalFiles[1])
        #expect(FileManager.default.contents(atPath: renderStill) != FileManager.default.contents(atPath: originalStill))

        // Reverted: the jobs are queued again and end done, the original's files being what is shown.
        try library.performChangesAndWait { context in context.changeRequest(for: asset).revertAssetContentToOriginal() }
        #expect(try library.derivativeJobs(ofAsset: asset.localIdentifier).map(\.state) == [.queued, .queued, .queued])
        let again = Finished()
        await Self.drain(worker) { job, outcome in again.add(job.kind.rawValue + ":" + "\(outcome)") }
        #expect(again.sorted == ["motion:done", "placeholder:done", "still:done"])
        let shown = try library.assetResources(for: asset).shown(as: .current)
        #expect(shown == originals)
        #expect(Self.cachedFiles(asset, resources: shown, library: library, cache: cache) == originalFiles)
    }

    /// A job that takes longer than its lease on a live worker keeps its lease (renewed a third of
    /// it at a time): another node's claims take the asset's other jobs but never that one, which
    /// ends `done` after one attempt, made by its own worker.
    @Test(arguments: Catalog.allCases) func aSlowJobKeepsItsLease(_ kind: Catalog) throws {
        let (library, cache, _) = try Self.setUp(kind)
        let asset = try Self.importTrain(into: library)
        // One media thread, held busy: the claimed job waits for it past its 1.5 s lease.
        let pool = MediaWorkPool(workers: 1, queueLimit: 4)
        let maker = DerivativeMaker(library: library, cache: cache, metrics: Metrics(), pool: pool)
        let worker = DerivativeJobWorker(
            library: library, maker: maker, claim: DerivativeJobClaim(node: "slow", leaseSeconds: 1.5, maxAttempts: 2), leavingFree: 0)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        Thread { pool.runInBackground { holding.signal(); release.wait() } }.start()
        holding.wait()
        let ran = Mutex<(job: DerivativeJob, outcome: DerivativeJobOutcome)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            let result = worker.runOne()
            ran.withLock { $0 = result }
            finished.signal()
        }.start()
        // Until the worker has claimed its job (the first, the placeholder), then three leases' time.
        var claimed: DerivativeJob?
        while claimed == nil {
            Thread.sleep(forTimeInterval: 0.05)
            claimed = try library.derivativeJobs(ofAsset: asset.localIdentifier).first { $0.state == .running }
        }
        let first = try #require(claimed)
        Thread.sleep(forTimeInterval: 4.5)
        let other = DerivativeJobClaim(node: "other", leaseSeconds: 1.5, maxAttempts: 2)
        var taken: [DerivativeJobKind] = []
        while let job = try library.claimDerivativeJob(other) { taken.append(job.kind) }
        #expect(taken == [.still, .motion], "the other node took only the jobs nobody held")
        let held = try #require(try library.derivativeJobs(ofAsset: asset.localIdentifier).first { $0.id == first.id })
        #expect(held.state == .running && held.node == "slow" && held.attempts == 1)
        #expect((held.claimedAt ?? 0) > (first.claimedAt ?? 0) + 1.5, "the lease was renewed")
        release.signal()
        finished.wait()
        let result = try #require(ran.withLock { $0 })
        #expect(result.job.kind == .placeholder && result.outcome == .done)
        let ended = try #require(try library.derivativeJobs(ofAsset: asset.localIdentifier).first { $0.id == first.id })
        #expect(ended.state == .done && ended.attempts == 1)
    }

    @Test(arguments: Catalog.allCases) func aSourceThatDoesNotDecodeFailsWithItsCauseOnce(_ kind: Catalog) async throws {
        let (library, _, worker) = try Self.setUp(kind)
        let asset = try Self.importTrain(into: library)
        // The stored still's bytes replaced by zeros (a damaged disk): nothing can decode it.
        let photo = try #require(try library.assetResources(for: asset).first { $0.type == .photo })
        let path = try library.storedFile(for: photo)
        chmod(path, 0o644)
        try Data(count: 4096).write(to: URL(fileURLWithPath: path))
        let finished = Finished()
        await Self.drain(worker) { job, _ in finished.add(job.kind.rawValue) }
        let jobs = try library.derivativeJobs(ofAsset: asset.localIdentifier)
        #expect(jobs.map { "\($0.kind.rawValue):\($0.state.rawValue):\($0.attempts)" } == ["placeholder:failed:1", "still:failed:1", "motion:failed:1"])
        #expect(jobs[0].cause?.hasPrefix("the image cannot be decoded") == true, "\(jobs[0].cause ?? "no cause")")
        #expect(jobs[1].cause?.hasPrefix("the image cannot be decoded") == true, "\(jobs[1].cause ?? "no cause")")
        #expect(jobs[2].cause?.hasPrefix("the motion cannot be made") == true, "\(jobs[2].cause ?? "no cause")")
        #expect(finished.sorted == ["motion", "placeholder", "still"], "each claimed once")
        #expect(worker.runOne() == nil, "a failed job is not claimed again")
        #expect(try library.derivativeJobCounts() == [.queued: 0, .running: 0, .done: 0, .failed: 3])
    }
}

/// What the worker's threads report, gathered.
private final class Finished: @unchecked Sendable {
    // @unchecked: `items` is guarded by `lock`.
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var sorted: [String] { lock.withLock { items.sorted() } }
}
