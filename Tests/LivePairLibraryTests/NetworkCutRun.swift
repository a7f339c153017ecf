import Foundation
import LivePairLibrary
import LivePairNodeClient
import Testing
import TestSupport

/// One multi-node run with each node in a network namespace of its own (`NetworkNamespaces`): a
/// dedicated PostgreSQL server and a dedicated SeaweedFS server listening on the bridge's address,
/// four `livepair import --files-from -` nodes started with `ip netns exec`, fed as in
/// `MultiNodeRun`. Mid-run one node gets two uploads and is cut off at once (its bridge port down);
/// the others go on with the rest. The run waits for the cut node to answer its in-flight uploads
/// (they must fail), brings its link back, sends it its failed uploads again, retries anything else
/// that failed on the live nodes, and reads the catalog and the bucket back.
struct NetworkCutRun {
    /// What happened and what the library holds afterwards.
    struct Result {
        var library = MultiNodeRun.Result()
        /// The cut node's uploads without an outcome when it was cut.
        var inFlightAtCut: [String] = []
        /// The cut node's first outcome for each of them.
        var cutOutcomes: [IngestNodeProcess.Outcome] = []
        /// The longest time from sending one of them (just before the cut) to its answer (nil:
        /// not all answered).
        var secondsToFail: Double?
        /// The outcomes of the failed uploads sent again to the cut node once its link was back.
        var retriedOnCutNode: [IngestNodeProcess.Outcome] = []
        /// Errors of the nodes that were not cut.
        var otherNodesErrors: [String] = []
    }

    static let nodeCount = 4
    /// The node that is cut off.
    static let victim = 2
    /// libpq settings added to the nodes' catalog URL: a cut connection is given up within seconds.
    static let catalogTimeouts = "&connect_timeout=2&keepalives_idle=1&keepalives_interval=1&keepalives_count=2&tcp_user_timeout=3000"
    /// The S3 timeouts and the catalog's retry window of the nodes (seconds).
    static let nodeEnvironment = [
        "LIVEPAIR_S3_CONNECT_TIMEOUT": "1", "LIVEPAIR_S3_STALL_TIMEOUT": "3", "LIVEPAIR_CATALOG_RETRY_SECONDS": "5",
    ]

    let corpus: MultiNodeCorpus
    /// The pair whose still (and the next pair's movie) go to the victim just before the cut.
    let cutAtPair: Int

    func execute() throws -> Result {
        let namespaces = try NetworkNamespaces(nodes: Self.nodeCount)
        defer { namespaces.delete() }
        let server = try DedicatedPostgresServer(listenAddress: namespaces.serverAddress)
        defer { server.stop() }
        let seaweed = try SeaweedFSTestServer.startDedicated(listeningOn: namespaces.serverAddress)
        defer { seaweed.stop() }
        let catalog = try server.freshSchemaURL(tcp: true)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-netcut-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let s3 = try MultiNodeBucket(on: seaweed)
        let initialized = try LivePairBinary.run(
            ["library", "init", "--catalog", catalog, "--store", s3.storeURL], environment: s3.environment)
        try #require(initialized.status == 0, "library init: \(initialized.error)")
        let binary = try #require(LivePairBinary.url, "the livepair executable is not built")
        let environment = s3.environment.merging(Self.nodeEnvironment) { $1 }
        let nodes = try (0..<Self.nodeCount).map { number in
            try IngestNodeProcess(
                name: "node \(number)", executable: NetworkNamespaces.ip,
                arguments: namespaces.arguments(
                    runningInNode: number,
                    [
                        binary.path, "import", "--catalog", catalog + Self.catalogTimeouts, "--store", s3.storeURL,
                        "--files-from", "-", "--json-lines", "--jobs", "2", "--scratch", "\(work)/scratch-\(number)",
                    ]),
                environment: environment)
        }
        defer { for node in nodes where node.isRunning { node.kill() } }
        var result = Result()
        try feed(nodes, namespaces: namespaces, into: &result)
        let victim = nodes[Self.victim]
        victim.waitForOutcomes(timeout: 90)
        let inFlight = Set(result.inFlightAtCut)
        var seen: Set<String> = []
        for outcome in victim.snapshot.outcomes where inFlight.contains(outcome.path) && seen.insert(outcome.path).inserted {
            result.cutOutcomes.append(outcome)
        }
        let latencies = result.cutOutcomes.compactMap(\.latency)
        if !latencies.isEmpty && latencies.count == inFlight.count { result.secondsToFail = latencies.max() }
        try namespaces.restore(Self.victim)
        let failed = result.cutOutcomes.filter { $0.outcome == "error" }.map(\.path)
        let answeredBefore = victim.snapshot.outcomes.count
        for path in failed { victim.send(path, waitingBelow: MultiNodeRun.maximumOutstanding) }
        victim.waitForOutcomes(timeout: 90)
        result.retriedOnCutNode = Array(victim.snapshot.outcomes.dropFirst(answeredBefore))
        MultiNodeRun.retryUnanswered(nodes, into: &result.library)
        for node in nodes where node.isRunning { result.library.exitStatuses.append(node.finish()) }
        for (number, node) in nodes.enumerated() {
            for outcome in node.snapshot.outcomes {
                if outcome.outcome == "accepted" { result.library.accepted += 1 }
                if number != Self.victim && (outcome.outcome == "error" || outcome.outcome == "unreadable") {
                    result.otherNodesErrors.append("\(node.name): \(outcome.path): \(outcome.error ?? "")")
                }
            }
        }
        try MultiNodeRun.readBack(catalog: catalog, bucket: s3, scratch: work + "/scratch-check", into: &result.library)
        return result
    }

    /// Sends every pair's halves to two different live nodes (as `MultiNodeRun` does); at
    /// `cutAtPair` sends the victim two uploads and cuts it off at once.
    private func feed(_ nodes: [IngestNodeProcess], namespaces: NetworkNamespaces, into result: inout Result) throws {
        var live = Array(0..<nodes.count)
        var index = 0
        while index < corpus.pairs.count {
            let pair = corpus.pairs[index]
            if index == cutAtPair, index + 1 < corpus.pairs.count {
                let next = corpus.pairs[index + 1]
                let victim = nodes[Self.victim]
                victim.waitForOutcomes(timeout: 60)
                victim.send(pair.still)
                nodes[(Self.victim + 1) % nodes.count].send(pair.movie)
                victim.send(next.movie)
                nodes[(Self.victim + 2) % nodes.count].send(next.still)
                try namespaces.cut(Self.victim)
                let (sent, outcomes) = victim.snapshot
                let answered = Set(outcomes.map(\.path))
                result.inFlightAtCut = sent.filter { !answered.contains($0) }
                live.removeAll { $0 == Self.victim }
                index += 2
                continue
            }
            let first = index % live.count
            let step = 1 + (index / live.count) % (live.count - 1)
            let a = live[first], b = live[(first + step) % live.count]
            nodes[a].send(pair.still, waitingBelow: MultiNodeRun.maximumOutstanding)
            nodes[b].send(pair.movie, waitingBelow: MultiNodeRun.maximumOutstanding)
            let third = live[(first + 2 * step) % live.count]
            let other = third == a ? b : third
            if index % 10 == 3 { nodes[other].send(pair.still) }
            if let copy = corpus.duplicates[index] { nodes[other].send(copy) }
            index += 1
        }
    }
}
