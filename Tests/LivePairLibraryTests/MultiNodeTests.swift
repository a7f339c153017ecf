import Foundation
import LivePairLibrary
import Testing
import TestSupport

/// Four ingest nodes (`livepair import --files-from - --json-lines` processes) sharing one
/// PostgreSQL catalog and one S3 store (SeaweedFS), fed Live Photos whose two halves go to
/// different nodes at about the same moment, with retries and byte-identical duplicates; then the
/// same with two nodes killed (SIGKILL) at random points and their uploads retried on a live node,
/// and with the PostgreSQL server restarted mid-run. Each run must end with the catalog the corpus
/// says: exactly its Live Photos (content identifiers and resource digests), nothing pending, and
/// each resource stored once in the bucket. Every scenario feeds the whole corpus, 1,000 pairs, as
/// `scripts/multi-node.sh` does (about 4.6 GB of uploads per scenario; on two cores the SeaweedFS
/// server's CPU bounds a run's time). The three scenarios run at once, each with its own
/// PostgreSQL server and bucket (one after the other they were the longest part of the test run).
@Suite struct MultiNodeTests {
    /// What a run must end with: each content identifier with the digests of its two halves.
    typealias CatalogSummary = [String: Set<String>]

    /// The pairs of every scenario (the whole corpus).
    static let pairs = 1_000

    /// The corpus, written and hashed once per test process.
    static let corpus: Result<MultiNodeCorpus, any Error> = Result { try MultiNodeCorpus(pairs: pairs) }

    @Test func fourNodesLinkEveryPairOnce() throws {
        let corpus = try Self.corpus.get()
        let run = MultiNodeRun(corpus: corpus, scenario: .plain, pairs: corpus.pairs.count)
        let result = try run.execute()
        #expect(result.errors == [], "no upload may fail when nothing fails")
        #expect(result.accepted == corpus.pairs.count, "exactly one upload per pair makes its asset")
        #expect(result.exitStatuses == [0, 0, 0, 0])
        try Self.check(result, corpus: corpus, pairs: corpus.pairs.count)
    }

    @Test func twoNodesKilledUploadsRetriedElsewhere() throws {
        let corpus = try Self.corpus.get()
        let run = MultiNodeRun(corpus: corpus, scenario: .killTwoNodes(seed: 0x5EED), pairs: corpus.pairs.count)
        let result = try run.execute()
        #expect(result.killedAtPair.count == 2)
        #expect(result.retried > 0, "the killed nodes' unanswered uploads were sent again")
        try Self.check(result, corpus: corpus, pairs: corpus.pairs.count)
    }

    @Test func serverRestartedMidRunClientsReconnect() throws {
        let corpus = try Self.corpus.get()
        let run = MultiNodeRun(corpus: corpus, scenario: .restartServer, pairs: corpus.pairs.count)
        let result = try run.execute()
        #expect(result.restarted)
        #expect(result.errors == [], "the nodes reconnect and retry by themselves: no upload fails over a restart")
        try Self.check(result, corpus: corpus, pairs: corpus.pairs.count)
    }

    /// The final catalog and store of `result` against the first `pairs` pairs of the corpus.
    static func check(_ result: MultiNodeRun.Result, corpus: MultiNodeCorpus, pairs: Int) throws {
        let expected = corpus.expected(pairs: pairs)
        #expect(result.unanswered == [], "every upload has an outcome after the retries")
        #expect(result.livePhotos == pairs)
        #expect(result.assets == pairs, "nothing but the Live Photos (duplicates made no asset)")
        #expect(result.pending == 0)
        #expect(result.summary == expected, "content identifiers and resource digests as the corpus says")
        #expect(result.storedObjects == 2 * pairs, "each resource stored once")
    }
}
