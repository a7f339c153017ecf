import Foundation
import LivePairCLI
import LivePairLibrary
import LivePairMedia
import LivePairServer
import Synchronization

extension LibraryCommand {
    /// `library derivatives [--missing]`: makes every asset's placeholder, grid still and motion
    /// movie into the derivative cache `livepair serve` reads, on a media pool of one thread per
    /// core, with a progress line on standard error every tenth of the assets; `--missing` skips
    /// the assets whose derivatives are all there. Prints how many assets were made and failed.
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
        let progress = Mutex((done: 0, made: 0, failed: 0, next: 0))
        let step = max(1, total / 10)
        let all = try (0..<total).map { index throws(LibraryError) in try assets.object(at: index) }
        DispatchQueue.concurrentPerform(iterations: pool.workers) { worker in
            for asset in stride(from: worker, to: total, by: pool.workers).map({ all[$0] }) {
                let resources = (try? library.assetResources(for: asset)) ?? []
                var made = false, failed = false
                if !(missingOnly && derivatives.isComplete(asset, resources: resources)) {
                    failed = !derivatives.make(asset, resources: resources).isEmpty
                    made = !failed
                }
                let line: String? = progress.withLock { state in
                    state.done += 1
                    if made { state.made += 1 }
                    if failed { state.failed += 1 }
                    guard state.done == total || state.done >= state.next else { return nil }
                    state.next = state.done + step
                    return "derivatives: \(state.done)/\(total) assets"
                }
                if let line { streams.printError(line) }
            }
        }
        let (_, made, failed, _) = progress.withLock { $0 }
        if json {
            streams.print(
                JSONValue.object([
                    ("assets", .integer(Int64(total))), ("made", .integer(Int64(made))), ("failed", .integer(Int64(failed))),
                ]).rendered())
        } else {
            streams.print("\(made) of \(total) assets' derivatives made, \(failed) failed")
        }
        return failed == 0 ? .success : .failure
    }
}
