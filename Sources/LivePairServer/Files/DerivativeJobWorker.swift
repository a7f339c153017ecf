import Foundation
import LivePair
import LivePairLibrary
import LivePairLogging

/// Makes the derivatives queued in the library's job table (each accepted asset's placeholder,
/// grid still and motion movie): claimer threads take one job at a time from the catalog (with
/// a lease, so a killed node's job is taken again; on PostgreSQL every node shares the queue) and
/// make it as background work on the bounded `MediaWorkPool`, keeping `leavingFree` media threads
/// for requests. A job that cannot be made (the source does not decode) ends `failed` with its
/// cause; a store or catalog failure is tried again, `claim.maxAttempts` times in all.
final class DerivativeJobWorker: Sendable {
    private let library: PhotoLibrary
    private let maker: DerivativeMaker
    /// The node, lease and attempts of this worker's claims.
    let claim: DerivativeJobClaim
    private let leavingFree: Int
    /// Seconds an idle claimer waits before asking the catalog again (an upload to this node wakes
    /// it at once; another node's, at the next look).
    private let idleSeconds: Double
    private let logger: Logger?
    private let condition = NSCondition()
    // Guarded by `condition`.
    nonisolated(unsafe) private var wakeUps = 0
    nonisolated(unsafe) private var stopped = false

    init(
        library: PhotoLibrary, maker: DerivativeMaker, claim: DerivativeJobClaim, leavingFree: Int, idleSeconds: Double = 1,
        logger: Logger? = nil
    ) {
        self.library = library
        self.maker = maker
        self.claim = claim
        self.leavingFree = leavingFree
        self.idleSeconds = idleSeconds
        self.logger = logger
    }

    /// Starts `claimers` threads that claim and make jobs until `stop()`.
    func start(claimers: Int) {
        for index in 0..<claimers {
            let thread = Thread { [self] in claimLoop() }
            thread.name = "livepair.jobs.\(index)"
            thread.start()
        }
    }

    /// New jobs were queued here: idle claimers look at once.
    func wake() {
        condition.lock()
        wakeUps &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Claimers stop after the job they are making.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func claimLoop() {
        while true {
            condition.lock()
            let seen = wakeUps
            let done = stopped
            condition.unlock()
            if done { return }
            if runOne() != nil { continue }
            condition.lock()
            if !stopped && wakeUps == seen { _ = condition.wait(until: Date().addingTimeInterval(idleSeconds)) }
            condition.unlock()
        }
    }

    /// Claims `workers` jobs at a time until none is left to claim, calling `finished` with each.
    /// The claimers are threads of their own, not Dispatch's: they block while a job waits for the
    /// pool, and the loader's motion writer needs Dispatch's threads meanwhile.
    func drain(workers: Int, finished: @escaping @Sendable (DerivativeJob, DerivativeJobOutcome) -> Void) {
        let group = DispatchGroup()
        for index in 0..<max(1, workers) {
            group.enter()
            let thread = Thread { [self] in
                while let (job, outcome) = runOne() { finished(job, outcome) }
                group.leave()
            }
            thread.name = "livepair.jobs.drain.\(index)"
            thread.start()
        }
        group.wait()
    }

    /// Claims one job, makes it and records the outcome; nil when no job was claimable (or the
    /// catalog could not be asked: the next look tries again).
    @discardableResult
    func runOne() -> (job: DerivativeJob, outcome: DerivativeJobOutcome)? {
        let job: DerivativeJob
        do throws(LibraryError) {
            guard let claimed = try library.claimDerivativeJob(claim) else { return nil }
            job = claimed
        } catch {
            logger?.warning("derivative jobs cannot be claimed", metadata: ["error": .string(error.description)])
            return nil
        }
        // The lease is renewed while the job is made (a third of it at a time), so a slow job on a
        // live node is not taken by another; a renewal that fails is tried again at the next turn.
        let renewal = LeaseRenewal(every: claim.leaseSeconds / 3) { [library, logger] in
            do throws(LibraryError) {
                return try library.renewDerivativeJobLease(job)
            } catch {
                logger?.warning("a derivative job's lease cannot be renewed", metadata: ["error": .string(error.description)])
                return true
            }
        }
        let outcome = make(job)
        renewal.stop()
        do throws(LibraryError) {
            try library.finishDerivativeJob(job, outcome: outcome, maxAttempts: claim.maxAttempts)
        } catch {
            logger?.warning("a derivative job's outcome cannot be recorded", metadata: ["error": .string(error.description)])
        }
        if case let .failed(cause) = outcome {
            logger?.warning(
                "derivative job failed",
                metadata: ["asset": .string(job.assetIdentifier), "kind": .string(job.kind.rawValue), "cause": .string(cause)])
        }
        return (job, outcome)
    }

    /// Makes the derivative of `job` (nothing when it is cached already).
    private func make(_ job: DerivativeJob) -> DerivativeJobOutcome {
        let asset: Asset?
        let resources: [LibraryAssetResource]
        do throws(LibraryError) {
            asset = try library.fetchAssets(withLocalIdentifiers: [job.assetIdentifier]).firstObject
            // The version the gallery shows: an edited asset's render (docs/editing.md).
            resources = try asset.map { (asset: Asset) throws(LibraryError) in
                try library.assetResources(for: asset).shown(as: .current)
            } ?? []
        } catch {
            return .retry(cause: error.description)
        }
        guard let asset else { return .failed(cause: "the asset was deleted") }
        let derivative = LibraryDerivatives.derivative(job.kind, of: asset, resources: resources, maker: maker)
        guard let error = maker.makeInBackground(derivative, asset: asset, resources: resources, leavingFree: leavingFree) else {
            return .done
        }
        let cause = ([error.message] + (error.cause["error"].map { [$0] } ?? [])).joined(separator: ": ")
        return error.status >= 500 ? .retry(cause: cause) : .failed(cause: cause)
    }
}
