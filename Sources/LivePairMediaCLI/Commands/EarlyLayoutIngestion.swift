import Dispatch
import Foundation
import LivePair
import LivePairFormats
import LivePairLibrary
import Synchronization

/// The ingestion of a Takeout's assets while its parts are still streaming: each entry read goes
/// to `TakeoutEarlyAssets`, and each asset it completes (a Live Photo paired by identifier, a
/// motion photo) is ingested at once by one of `jobs` workers, so that reading (inflating,
/// hashing, spooling) and ingesting (identifying, storing, cataloguing) overlap instead of
/// following each other. `LayoutImport.run` then takes these results for the plan's files and
/// ingests only the rest.
final class EarlyLayoutIngestion: Sendable {
    private struct State {
        var waiting: [TakeoutAsset] = []
        var entries: [String: ExportEntry] = [:]
        var results: [String: (IngestOutcome?, String?)] = [:]
        var closed = false
        var submitted = 0
    }

    private let importer: LayoutImport
    /// One ingestor of each kind for all the workers, so that their uploads arriving together are
    /// decided together (group commit: one flush, one transaction), as a plain import's are; an
    /// ingestor per worker made every file a group of its own.
    private let copying: Ingestor
    private let moving: Ingestor
    private let assets = TakeoutEarlyAssets()
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let workers = DispatchGroup()

    /// Starts `importer.jobs` workers, each a thread of its own (not Dispatch's pool, which the
    /// reading threads of `ExportReader` use).
    init(_ importer: LayoutImport) {
        self.importer = importer
        copying = importer.ingestor(moving: false)
        moving = importer.ingestor(moving: true)
        for _ in 0..<max(1, importer.jobs) {
            workers.enter()
            Thread { [self] in
                work()
                workers.leave()
            }.start()
        }
    }

    /// Takes one entry as it was read (any thread).
    func add(_ entry: ExportEntry) {
        guard case .identified = entry.content else {
            if case .json = entry.content { queue(assets.add(entry)) }
            return
        }
        state.withLock { $0.entries[entry.path] = entry }
        queue(assets.add(entry))
    }

    /// Waits for every asset given to be ingested; the results by tree path, and how many assets
    /// were ingested early.
    func finish() -> (results: [String: (IngestOutcome?, String?)], assets: Int) {
        state.withLock { $0.closed = true }
        for _ in 0..<max(1, importer.jobs) { available.signal() }
        workers.wait()
        return state.withLock { ($0.results, $0.submitted) }
    }

    private func queue(_ completed: [TakeoutAsset]) {
        guard !completed.isEmpty else { return }
        state.withLock {
            $0.waiting += completed
            $0.submitted += completed.count
        }
        for _ in completed { available.signal() }
    }

    private func work() {
        while true {
            available.wait()
            let next = state.withLock { state -> (TakeoutAsset, [String: ExportEntry])? in
                guard !state.waiting.isEmpty else { return nil }
                let asset = state.waiting.removeFirst()
                let paths = [asset.photo, asset.video].compactMap { $0 }
                return (asset, Dictionary(uniqueKeysWithValues: paths.compactMap { path in state.entries[path].map { (path, $0) } }))
            }
            guard let (asset, entries) = next else {
                if state.withLock({ $0.closed && $0.waiting.isEmpty }) { return }
                continue
            }
            let (results, _) = importer.ingest(asset, index: -1, entries: entries, known: [:], copying: copying, moving: moving)
            state.withLock { $0.results.merge(results, uniquingKeysWith: { first, _ in first }) }
        }
    }
}
