import Foundation
import LivePairCLI
import LivePairFormats
import LivePairLibrary
import LivePairMedia
import LivePairServer
import Synchronization

extension LibraryCommand {
    /// `library derivatives [--missing]`: queues every asset's placeholder, grid still and motion
    /// movie in the catalog's job table (`--missing`: only the assets whose derivatives are not all
    /// there), then claims and makes the library's queued jobs on a media pool of one thread per
    /// core, into the derivative cache `livepair serve` reads (running `serve` nodes share the
    /// work), with a progress line on standard error every tenth of the assets. Prints how many
    /// assets were made and failed.
    static func derivatives(
        _ library: PhotoLibrary, sharedStore: Bool, missingOnly: Bool, json: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let places: ServePlaces
        do throws(HTTPError) {
            places = sharedStore ? try ServePlaces(sharedStore: library) : try ServePlaces(library: library)
        } catch {
            throw LibraryError.io(path: library.directory, reason: error.message)
        }
        LargeBufferAllocation.mapSeparately()
        let pool = MediaWorkPool()
        let derivatives = LibraryDerivatives(library: library, cache: places.derivatives, pool: pool)
        let assets = try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true))
        let total = assets.count
        let all = try (0..<total).map { index throws(LibraryError) in try assets.object(at: index) }
        var queued: [String: Int] = [:]
        for asset in all {
            let resources = (try? library.assetResources(for: asset)) ?? []
            guard !(missingOnly && derivatives.isComplete(asset, resources: resources)) else { continue }
            queued[asset.localIdentifier] = DerivativeJobKind.kinds(of: asset).count
        }
        try library.enqueueDerivativeJobs(forAssets: all.map(\.localIdentifier).filter { queued[$0] != nil })
        let step = max(1, total / 10)
        let progress = Mutex((remaining: queued, done: total - queued.count, made: 0, failed: 0, failedAssets: Set<String>(), next: 0))
        let claim = DerivativeJobClaim(node: DerivativeJobClaim.thisProcess)
        derivatives.drainJobs(claim: claim) { job, outcome in
            let line: String? = progress.withLock { state in
                guard let left = state.remaining[job.assetIdentifier] else { return nil }
                switch outcome {
                case .done: break
                case .failed: state.failedAssets.insert(job.assetIdentifier)
                case .retry:
                    guard job.attempts >= claim.maxAttempts else { return nil }  // queued again
                    state.failedAssets.insert(job.assetIdentifier)
                }
                state.remaining[job.assetIdentifier] = left - 1
                guard left == 1 else { return nil }
                state.done += 1
                if state.failedAssets.contains(job.assetIdentifier) { state.failed += 1 } else { state.made += 1 }
                guard state.done == total || state.done >= state.next else { return nil }
                state.next = state.done + step
                return "derivatives: \(state.done)/\(total) assets"
            }
            if let line { streams.printError(line) }
        }
        let (_, done, made, failed, _, _) = progress.withLock { $0 }
        if total == 0 || done < total { streams.printError("derivatives: \(done)/\(total) assets") }
        if json {
            streams.print(
                JSONElement.object([
                    ("assets", .integer(Int64(total))), ("made", .integer(Int64(made))), ("failed", .integer(Int64(failed))),
                ]).rendered())
        } else {
            streams.print("\(made) of \(total) assets' derivatives made, \(failed) failed")
        }
        return failed == 0 ? .success : .failure
    }
}
