import Foundation
import LivePairLibrary
import LivePairNodeClient
import Testing
import TestSupport

/// One multi-node run: a dedicated PostgreSQL server (so restarting it disturbs no other test), a
/// new catalog (`livepair library init`) and a new bucket on the test SeaweedFS server, four node
/// processes (each with its own scratch folder), the corpus fed to them,
/// the faults of the scenario, the unanswered or failed uploads sent again to live nodes, then the
/// catalog and the store read back.
struct MultiNodeRun {
    enum Scenario {
        /// Nothing fails.
        case plain
        /// Nodes 1 and 3 are killed (SIGKILL) at pairs drawn from `seed`.
        case killTwoNodes(seed: UInt64)
        /// The server is stopped at once and started again halfway.
        case restartServer
    }

    /// What happened and what the library holds afterwards.
    struct Result {
        var accepted = 0
        var errors: [String] = []
        var exitStatuses: [Int32] = []
        var killedAtPair: [Int] = []
        var retried = 0
        var restarted = false
        var unanswered: [String] = []
        var livePhotos = 0
        var assets = 0
        var pending = 0
        var summary: [String: Set<String>] = [:]
        var storedObjects = 0
    }

    static let nodeCount = 4
    /// Uploads a node may have in hand before the feeder waits (keeps the halves of a pair close
    /// in time, and the kill points meaningful).
    static let maximumOutstanding = 3

    let corpus: MultiNodeCorpus
    let scenario: Scenario
    /// The first `pairs` pairs of the corpus are fed.
    let pairs: ArraySlice<LivePhotoCopies.Pair>

    init(corpus: MultiNodeCorpus, scenario: Scenario, pairs: Int) {
        self.corpus = corpus
        self.scenario = scenario
        self.pairs = corpus.pairs.prefix(pairs)
    }

    func execute() throws -> Result {
        let server = try DedicatedPostgresServer()
        defer { server.stop() }
        let catalog = try server.freshSchemaURL()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-nodes-run-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let s3 = try MultiNodeBucket()
        defer { s3.drop() }
        let store = s3.storeURL
        let initialized = try LivePairBinary.run(["library", "init", "--catalog", catalog, "--store", store], environment: s3.environment)
        try #require(initialized.status == 0, "library init: \(initialized.error)")
        let binary = try #require(LivePairBinary.url, "the livepair executable is not built")
        let nodes = try (0..<Self.nodeCount).map { number in
            try IngestNodeProcess(
                name: "node \(number)", executable: binary,
                arguments: [
                    "import", "--catalog", catalog, "--store", store, "--files-from", "-", "--json-lines", "--jobs", "2",
                    "--scratch", "\(work)/scratch-\(number)",
                ],
                environment: s3.environment)
        }
        var result = Result()
        try feed(nodes, server: server, into: &result)
        Self.retryUnanswered(nodes, into: &result)
        for node in nodes where node.isRunning { result.exitStatuses.append(node.finish()) }
        for node in nodes {
            for outcome in node.snapshot.outcomes {
                if outcome.outcome == "accepted" { result.accepted += 1 }
                if outcome.outcome == "error" || outcome.outcome == "unreadable" {
                    result.errors.append("\(node.name): \(outcome.path): \(outcome.error ?? "")")
                }
            }
        }
        try Self.readBack(catalog: catalog, bucket: s3, scratch: work + "/scratch-check", into: &result)
        return result
    }

    /// Sends every pair's halves to two different live nodes at about the same moment, every 10th
    /// still once more to a third node (a client's retry), each duplicate copy to yet another node;
    /// kills or restarts as the scenario says.
    private func feed(_ nodes: [IngestNodeProcess], server: DedicatedPostgresServer, into result: inout Result) throws {
        var generator = SplitMix64(seed: 0xFEED)
        var killPoints: [Int: Int] = [:]  // pair index -> node to kill
        if case let .killTwoNodes(seed) = scenario {
            generator = SplitMix64(seed: seed)
            // One kill in each of the middle fifths of the run.
            let fifth = UInt64(max(pairs.count / 5, 1))
            killPoints[Int(fifth + generator.below(fifth))] = 1
            killPoints[Int(3 * fifth + generator.below(fifth))] = 3
        }
        var live = Array(0..<nodes.count)
        for (index, pair) in pairs.enumerated() {
            if let victim = killPoints[index] {
                nodes[victim].kill()
                live.removeAll { $0 == victim }
                result.killedAtPair.append(index)
            }
            if case .restartServer = scenario, index == pairs.count / 2 {
                try server.restart()
                result.restarted = true
            }
            let first = index % live.count
            let step = 1 + (index / live.count) % (live.count - 1)
            let a = live[first], b = live[(first + step) % live.count]
            nodes[a].send(pair.still, waitingBelow: Self.maximumOutstanding)
            nodes[b].send(pair.movie, waitingBelow: Self.maximumOutstanding)
            let other = live[(first + 2 * step) % live.count] == a ? b : live[(first + 2 * step) % live.count]
            if index % 10 == 3 { nodes[other].send(pair.still) }
            if let copy = corpus.duplicates[index] { nodes[other].send(copy) }
        }
    }

    /// Waits for the live nodes, then sends every upload that has no outcome (it was on a killed
    /// node) or failed (the server was away) to a live node, until all are answered (5 rounds).
    static func retryUnanswered(_ nodes: [IngestNodeProcess], into result: inout Result) {
        for _ in 0..<5 {
            let live = nodes.filter(\.isRunning)
            for node in live { node.waitForOutcomes(timeout: 120) }
            var sent: Set<String> = []
            var answered: Set<String> = []
            for node in nodes {
                let (paths, outcomes) = node.snapshot
                sent.formUnion(paths)
                for outcome in outcomes where outcome.outcome != "error" { answered.insert(outcome.path) }
            }
            let unanswered = sent.subtracting(answered).sorted()
            result.unanswered = unanswered
            guard !unanswered.isEmpty, !live.isEmpty else { return }
            for (index, path) in unanswered.enumerated() {
                live[index % live.count].send(path, waitingBelow: Self.maximumOutstanding)
            }
            result.retried += unanswered.count
        }
    }

    /// Opens the library read-only (no clean-up runs) and counts what it and the bucket hold.
    static func readBack(catalog: String, bucket: MultiNodeBucket, scratch: String, into result: inout Result) throws {
        let library = try PhotoLibrary.open(
            catalog: .postgres(connectionString: catalog), store: .s3(bucket: bucket.bucket, prefix: MultiNodeBucket.prefix),
            configuration: LibraryConfiguration(access: .readOnly), s3Endpoint: bucket.endpoint, s3CacheDirectory: scratch)
        let assets = try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true))
        result.assets = assets.count
        result.livePhotos = try library.fetchAssets(with: FetchOptions(predicate: .livePhotos, includeHiddenAssets: true)).count
        result.pending = try Ingestor(library: library).pendingUploads().count
        for asset in assets {
            let digests = try LibraryAssetResource.assetResources(for: asset, in: library).map(\.digest.hex)
            result.summary[asset.contentIdentifier ?? asset.localIdentifier, default: []].formUnion(digests)
        }
        result.storedObjects = try bucket.resourceObjectCount()
    }
}
