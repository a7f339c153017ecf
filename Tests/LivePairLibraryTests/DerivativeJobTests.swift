import Foundation
@testable import LivePairLibrary
import LivePairPostgres
import Synchronization
import TestSupport
import Testing

/// Issue 19, "derivatives made before they are asked for": the job table in the catalog, queued
/// in the transaction that accepts an asset, claimed by workers with leases, and removed with its
/// asset. Every test runs on SQLite and on PostgreSQL.
@Suite struct DerivativeJobTests {
    private static let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    private static func kinds(_ jobs: [DerivativeJob]) -> [String] { jobs.map { "\($0.kind.rawValue):\($0.state.rawValue)" } }

    /// A batch that fails at its commit leaves no job; the same batch committed queues the Live
    /// Photo's three jobs and the plain photo's two, all `queued` with no attempt yet.
    @Test(arguments: CatalogKind.underTest) func aBatchQueuesItsJobsInItsOwnTransaction(_ kind: CatalogKind) throws {
        let armed = FaultSwitch()
        let library = try makeLibrary(
            kind, faultInjector: { reached in if armed.isOn, reached == .commitCatalogTransaction { throw InjectedFault() } })
        armed.isOn = true
        #expect(throws: LibraryError.self) { try importPair(SamplePairs.train, into: library) }
        armed.isOn = false
        #expect(try library.derivativeJobCounts() == [.queued: 0, .running: 0, .done: 0, .failed: 0])

        let live = try importPair(SamplePairs.train, into: library).localIdentifier
        let photo = try #require(
            try library.performChangesAndWait { context in
                context.creationRequestForAsset().addResource(with: .photo, path: SampleMedia.path("plain/pixel_8.jpg"))
            }.assets.first?.localIdentifier)
        #expect(Self.kinds(try library.derivativeJobs(ofAsset: live)) == ["placeholder:queued", "still:queued", "motion:queued"])
        #expect(Self.kinds(try library.derivativeJobs(ofAsset: photo)) == ["placeholder:queued", "still:queued"])
        #expect(try library.derivativeJobs(ofAsset: live).allSatisfy { $0.attempts == 0 && $0.node == nil && $0.cause == nil })
        #expect(try library.derivativeJobCounts() == [.queued: 5, .running: 0, .done: 0, .failed: 0])
    }

    /// Uploads through the ingestor: a motion photo queues its three jobs as it is accepted, and a
    /// still whose movie arrives later has the pair's three jobs once they are linked.
    @Test(arguments: CatalogKind.underTest) func uploadsQueueTheirJobs(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("jobs", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        let motion = try #require(
            try ingestor.ingest(fileAt: SampleMedia.path("motion/PXL_20200710_061629144.MP.jpg"), owner: "a").localIdentifier)
        #expect(Self.kinds(try library.derivativeJobs(ofAsset: motion)) == ["placeholder:queued", "still:queued", "motion:queued"])
        let (still, movie) = ingestSamplePairs[1]
        _ = try ingestor.ingest(fileAt: SampleMedia.path(still), owner: "a")
        let linked = try #require(try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "a").localIdentifier)
        #expect(Self.kinds(try library.derivativeJobs(ofAsset: linked)) == ["placeholder:queued", "still:queued", "motion:queued"])
        #expect(try library.derivativeJobCounts()[.queued] == 6)
    }

    /// Claims go oldest first, count an attempt and name the node; `done`, `failed` (with its
    /// cause, never claimed again) and `retry` (queued again while attempts are left, then failed).
    @Test(arguments: CatalogKind.underTest) func claimsAndOutcomes(_ kind: CatalogKind) throws {
        let library = try makeLibrary(kind)
        let asset = try importPair(SamplePairs.train, into: library).localIdentifier
        let claim = DerivativeJobClaim(node: "node-a", leaseSeconds: 600, maxAttempts: 2)
        let placeholder = try #require(try library.claimDerivativeJob(claim, now: Self.start))
        #expect(placeholder.kind == .placeholder && placeholder.state == .running && placeholder.attempts == 1)
        #expect(placeholder.node == "node-a" && placeholder.claimedAt == Self.start.timeIntervalSinceReferenceDate)
        var stranger = placeholder
        stranger.node = "node-b"
        #expect(try library.finishDerivativeJob(stranger, outcome: .done, maxAttempts: 2) == false, "only the claim's node finishes it")
        #expect(try library.finishDerivativeJob(placeholder, outcome: .done, maxAttempts: 2))
        #expect(try library.finishDerivativeJob(placeholder, outcome: .done, maxAttempts: 2) == false, "finished once")

        let still = try #require(try library.claimDerivativeJob(claim, now: Self.start))
        #expect(still.kind == .still)
        #expect(try library.finishDerivativeJob(still, outcome: .failed(cause: "the image cannot be decoded: corrupt"), maxAttempts: 2))

        let motion = try #require(try library.claimDerivativeJob(claim, now: Self.start))
        #expect(motion.kind == .motion && motion.attempts == 1)
        #expect(try library.finishDerivativeJob(motion, outcome: .retry(cause: "store unreachable"), maxAttempts: 2))
        let again = try #require(try library.claimDerivativeJob(claim, now: Self.start))
        #expect(again.id == motion.id && again.attempts == 2 && again.cause == "store unreachable")
        #expect(try library.finishDerivativeJob(again, outcome: .retry(cause: "store unreachable twice"), maxAttempts: 2))
        #expect(try library.claimDerivativeJob(claim, now: Self.start) == nil, "a failed job is never claimed again")

        let jobs = try library.derivativeJobs(ofAsset: asset)
        #expect(Self.kinds(jobs) == ["placeholder:done", "still:failed", "motion:failed"])
        #expect(jobs.map(\.cause) == [nil, "the image cannot be decoded: corrupt", "store unreachable twice"])
        #expect(jobs.map(\.attempts) == [1, 1, 2])
        #expect(try library.derivativeJobCounts() == [.queued: 0, .running: 0, .done: 1, .failed: 2])
    }

    /// A running job whose node stopped (its lease expired) is claimed again by another node, whose
    /// finish then counts and the first node's does not; after `maxAttempts` expired leases it fails
    /// with that cause instead of being taken forever.
    @Test(arguments: CatalogKind.underTest) func anExpiredLeaseIsTakenAgain(_ kind: CatalogKind) throws {
        let library = try makeLibrary(kind)
        let asset = try importPair(SamplePairs.train, into: library).localIdentifier
        let killed = DerivativeJobClaim(node: "killed", leaseSeconds: 60, maxAttempts: 2)
        let survivor = DerivativeJobClaim(node: "survivor", leaseSeconds: 60, maxAttempts: 2)
        let lost = try #require(try library.claimDerivativeJob(killed, now: Self.start))
        let next = try #require(try library.claimDerivativeJob(survivor, now: Self.start.addingTimeInterval(59)))
        #expect(next.id != lost.id, "a job within its lease is not taken")
        #expect(try library.finishDerivativeJob(next, outcome: .done, maxAttempts: 2))
        let retaken = try #require(try library.claimDerivativeJob(survivor, now: Self.start.addingTimeInterval(61)))
        #expect(retaken.id == lost.id && retaken.attempts == 2 && retaken.node == "survivor")
        #expect(try library.finishDerivativeJob(lost, outcome: .done, maxAttempts: 2) == false, "the killed node's claim is over")

        // Expired again after its second attempt: failed, and the next job (motion) is claimed instead.
        let third = try #require(try library.claimDerivativeJob(survivor, now: Self.start.addingTimeInterval(200)))
        #expect(third.kind == .motion)
        let jobs = try library.derivativeJobs(ofAsset: asset)
        #expect(Self.kinds(jobs) == ["placeholder:failed", "still:done", "motion:running"])
        #expect(jobs[0].cause == DerivativeJobSQL.expiredCausePrefix + "2 times")
    }

    /// Deleting an asset removes its jobs (a worker holding one finds it gone); queuing an asset's
    /// jobs again replaces them, so an old claim cannot mark the new job done.
    @Test(arguments: CatalogKind.underTest) func deletingAnAssetRemovesItsJobs(_ kind: CatalogKind) throws {
        let library = try makeLibrary(kind)
        let kept = try importPair(SamplePairs.train, into: library).localIdentifier
        let deleted = try importPair(SamplePairs.iPhone15Second, into: library).localIdentifier
        let claim = DerivativeJobClaim(node: "n")
        let held = try #require(try library.claimDerivativeJob(claim, now: Self.start))
        #expect(try library.enqueueDerivativeJobs(forAssets: [kept, "NOPE"]) == 1)
        #expect(try library.finishDerivativeJob(held, outcome: .done, maxAttempts: 3) == false)
        #expect(Self.kinds(try library.derivativeJobs(ofAsset: kept)) == ["placeholder:queued", "still:queued", "motion:queued"])

        let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [deleted]).firstObject)
        try library.performChangesAndWait { context in context.deleteAssets(withLocalIdentifiers: [asset.localIdentifier]) }
        #expect(try library.derivativeJobs(ofAsset: deleted).isEmpty)
        #expect(try library.derivativeJobCounts() == [.queued: 3, .running: 0, .done: 0, .failed: 0])
    }

    /// PostgreSQL: a job another transaction holds (`FOR UPDATE`, as a node in the middle of its
    /// claim) is skipped, not waited for; and four claimers on two library instances take each job
    /// exactly once.
    @Test func claimersOnPostgresSkipLockedJobsAndNeverShareOne() throws {
        let library = try makeLibrary(.postgres)
        for pair in SamplePairs.all { try importPair(pair, into: library) }
        guard case let .postgres(url) = library.catalogLocation else { throw InjectedFault() }
        let holder = try PostgresConnection(url)
        try holder.execute("BEGIN")
        guard case let .integer(heldID) = try holder.execute("SELECT id FROM derivative_jobs ORDER BY id LIMIT 1 FOR UPDATE").scalar else {
            throw InjectedFault()
        }
        let claim = DerivativeJobClaim(node: "other")
        let skipping = try #require(try library.claimDerivativeJob(claim, now: Self.start))
        #expect(skipping.id == heldID + 1, "the held job is skipped")
        try holder.execute("ROLLBACK")

        let second = try makeLibrary(.postgres, sharing: library)
        let claimed = Mutex<[Int64]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let instance = worker % 2 == 0 ? library : second
            while let job = try? instance.claimDerivativeJob(DerivativeJobClaim(node: "w\(worker)"), now: Self.start) {
                claimed.withLock { $0.append(job.id) }
                _ = try? instance.finishDerivativeJob(job, outcome: .done, maxAttempts: 3)
            }
        }
        let ids = claimed.withLock { $0 }
        #expect(ids.count == 11 && Set(ids).count == 11, "each of the other 11 jobs claimed once: \(ids.sorted())")
        #expect(try library.derivativeJobCounts() == [.queued: 0, .running: 1, .done: 11, .failed: 0])
    }
}
