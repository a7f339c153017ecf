import Synchronization

/// Incremental pairing for a backend: add resources as they are identified, one at a time or in
/// batches, in any order and from any thread or task, and ask for the result whenever needed.
///
/// A final class guarded by a `Mutex` rather than an actor, so that it can be called without
/// `await` from synchronous code on any thread (worker threads, `concurrentPerform`) as well as from
/// async code; it is `Sendable`. `add` only stores the resource (constant time); `result()`
/// pairs a snapshot of everything added so far outside the lock, so adds never wait for file reads.
///
/// The result depends only on the set of resources added, never on the order or timing of the
/// adds (a half added before or after its partner, from two threads at once, pairs the same way).
/// Adding a path again replaces the resource stored for it. Content comparisons are remembered
/// between calls to `result()` (forgotten for a path when it is added again or removed), and the
/// last result is reused while nothing has changed. The rules are those of `Pairing`.
public final class PairingSession: Sendable {
    /// The options every result is computed with.
    public let options: PairingOptions

    private struct State {
        var resources: [String: AssetResource] = [:]
        var generation = 0
        var cached: (generation: Int, result: PairingResult)?
    }

    private let state = Mutex(State())
    private let memo = ComparisonMemo()
    private let engine: PairingEngine

    /// A session with no resources; `contents` opens files for the duplicate checks.
    public init(options: PairingOptions = PairingOptions(), contents: any ResourceContentSource = FileContentSource()) {
        self.options = options
        engine = PairingEngine(
            options: options, comparer: ContentComparer(contents: contents, chunkSize: options.comparisonChunkSize, memo: memo))
    }

    /// Adds one resource, replacing any resource added earlier with the same path.
    public func add(_ resource: AssetResource) {
        add(contentsOf: CollectionOfOne(resource))
    }

    /// Adds several resources at once.
    public func add<Resources: Sequence<AssetResource>>(contentsOf resources: Resources) {
        let added = Array(resources)  // iterate the caller's sequence outside the lock
        var replaced: [String] = []
        state.withLock { state in
            for resource in added {
                if let previous = state.resources.updateValue(resource, forKey: resource.path), previous != resource {
                    replaced.append(resource.path)
                }
            }
            state.generation += 1
        }
        for path in replaced { memo.forget(path: path) }
    }

    /// Removes the resource with `path` (a file deleted from the upload); returns whether it was there.
    @discardableResult
    public func remove(path: String) -> Bool {
        let removed = state.withLock { state in
            guard state.resources.removeValue(forKey: path) != nil else { return false }
            state.generation += 1
            return true
        }
        if removed { memo.forget(path: path) }
        return removed
    }

    /// How many distinct paths have been added.
    public var count: Int { state.withLock { $0.resources.count } }

    /// Pairs everything added so far. May be called at any time, from any thread.
    public func result() -> PairingResult {
        let (generation, snapshot, cached) = state.withLock { state -> (Int, [AssetResource]?, PairingResult?) in
            if let cached = state.cached, cached.generation == state.generation {
                return (state.generation, nil, cached.result)
            }
            return (state.generation, Array(state.resources.values), nil)
        }
        if let cached { return cached }
        let result = engine.run(snapshot ?? [])
        state.withLock { state in
            if state.generation == generation { state.cached = (generation, result) }
        }
        return result
    }
}
