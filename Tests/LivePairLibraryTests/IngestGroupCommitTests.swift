import Foundation
import LivePair
@testable import LivePairLibrary
import TestSupport
import Testing

/// Group commit: several uploads decided in one flush and one transaction.
@Suite struct IngestGroupCommitTests {
    /// Every half of four pairs (and a retried still, and both halves of one pair next to each
    /// other) in one group: conflicting members go to the following groups; the library equals
    /// the one of uploads made one at a time.
    @Test(arguments: CatalogKind.underTest) func oneGroupGivesTheSameLibraryAsOneAtATime(_ kind: CatalogKind) throws {
        let files = ingestSamplePairs.map(\.still) + [ingestSamplePairs[0].still] + ingestSamplePairs.map(\.movie)
            + ["motion/PXL_20200710_061629144.MP.jpg", "plain/IMG_0102.HEIC"]
        let oneByOne = try IngestFixture("group-reference", kind)
        defer { oneByOne.remove() }
        let reference = try oneByOne.open()
        for file in files { _ = try Ingestor(library: reference).ingest(fileAt: SampleMedia.path(file), owner: "o", originalFilename: file) }

        let fixture = try IngestFixture("group", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let results = Ingestor(library: library).ingestTogether(files.map { (SampleMedia.path($0), "o", $0) })
        let kinds = try results.map { try $0.get().kind }
        #expect(kinds.filter { $0 == "accepted" }.count == 6)  // four pairs, the motion photo, the plain photo
        #expect(kinds.filter { $0 == "pending" }.count == 5)  // four first halves, and the retried still
        #expect(try IngestInvariants.check(library) == IngestInvariants.check(reference))
    }

    /// An upload that fails in a group does not fail the others: the group is decided again one
    /// upload at a time, and only the failing one gets its error.
    @Test(arguments: CatalogKind.underTest) func oneFailingUploadDoesNotFailTheGroup(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("group-failure", kind)
        defer { fixture.remove() }
        let library = try fixture.open(faultInjector: { point in
            if point == .custom("ingest-link-asset") { throw IngestInjectedFault() }
        })
        let pair = ingestSamplePairs[1]
        let files = [pair.still, "plain/IMG_0102.HEIC", pair.movie]
        let results = Ingestor(library: library).ingestTogether(files.map { (SampleMedia.path($0), "o", $0) })
        #expect((try? results[0].get().kind) == "pending")
        #expect((try? results[2].get().kind) == "accepted")
        guard case .failure(.faultInjected) = results[1] else {
            Issue.record("the plain photo must fail with the injected fault, got \(results[1])")
            return
        }
        let snapshot = try IngestInvariants.check(try fixture.open())
        #expect(snapshot.assets.count == 1 && snapshot.pending.isEmpty)
    }

    /// Many callers at once share commits and every pair links (the concurrency of a backend).
    @Test(arguments: CatalogKind.underTest) func concurrentCallersShareCommits(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("group-concurrent", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library, options: IngestOptions(maximumGroupSize: 3))
        let files = ingestSamplePairs.flatMap { [$0.movie, $0.still] }
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            _ = try? ingestor.ingest(fileAt: SampleMedia.path(files[index]), owner: "o", originalFilename: files[index])
        }
        let snapshot = try IngestInvariants.check(library)
        #expect(snapshot.assets.count == ingestSamplePairs.count && snapshot.pending.isEmpty)
    }
}
