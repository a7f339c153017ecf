import Foundation
import LivePairLibrary
import LivePairNodeClient
import LivePairPostgres

/// `livepair-bench ingest --nodes 1,2,4`: the corpus through `livepair import --files-from -
/// --json-lines` processes (nodes), fed the shuffled halves round-robin (so a pair's halves mostly
/// reach different nodes), 8 jobs shared between the nodes: the SQLite directory library through one
/// node, then PostgreSQL + a local store and PostgreSQL + S3 (with `--store s3://...`) with each
/// node count. Each run gets a new catalog schema and a new store (an S3 run a prefix of its own).
extension IngestBenchmark {
    /// One node run's figures.
    struct NodeRun {
        var name: String
        var nodes: Int
        var seconds: Double
        var livePhotos: Int
        var pending: Int
        var failures: Int
        var p50: Double
        var p99: Double
    }

    /// Total jobs across the nodes of a run.
    static let nodeJobs = 8

    func runNodes(files: [String], root: String) throws -> [NodeRun] {
        guard let catalog = options.catalog else { throw BenchmarkOptions.Invalid(description: "--nodes needs --catalog URL") }
        let livepair = ProcessTimer.executableDirectory + "/livepair"
        guard FileManager.default.isExecutableFile(atPath: livepair) else {
            throw ProcessTimer.SpawnFailure(description: "\(livepair) is not built (swift build -c release)")
        }
        var runs = [try nodeRun(files: files, root: root, livepair: livepair, name: "SQLite library", nodes: 1, catalog: nil, store: nil)]
        var stores: [(String, String)] = [("PostgreSQL + local store", "")]
        if let store = options.store { stores.append(("PostgreSQL + S3", store)) }
        for (name, store) in stores {
            for count in options.nodes {
                runs.append(try nodeRun(files: files, root: root, livepair: livepair, name: name, nodes: count, catalog: catalog, store: store))
            }
        }
        return runs
    }

    private func nodeRun(
        files: [String], root: String, livepair: String, name: String, nodes count: Int, catalog: String?, store: String?
    ) throws -> NodeRun {
        let tag = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        var libraryOptions: [String]
        var schema: (connection: PostgresConnection, name: String)?
        var catalogURL = "", storeURL = ""
        if let catalog, let store {
            let connection = try PostgresConnection(catalog)
            let schemaName = "livepair_nodes_\(tag)"
            try connection.execute("CREATE SCHEMA \(schemaName)")
            schema = (connection, schemaName)
            catalogURL = catalog + (catalog.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schemaName)"
            storeURL = store.isEmpty ? "\(root)/nodes-store-\(tag)" : (store.hasSuffix("/") ? store : store + "/") + "bench-\(tag)/"
            libraryOptions = ["--catalog", catalogURL, "--store", storeURL]
            let initialized = try ProcessTimer.run(livepair, ["library", "init"] + libraryOptions)
            guard initialized.status == 0 else {
                throw ProcessTimer.SpawnFailure(description: "livepair library init \(libraryOptions.joined(separator: " ")) failed")
            }
        } else {
            libraryOptions = ["--library", "\(root)/nodes-library-\(tag)"]
        }
        defer {
            if let schema { _ = try? schema.connection.execute("DROP SCHEMA \(schema.name) CASCADE") }
            try? FileManager.default.removeItem(atPath: "\(root)/nodes-store-\(tag)")
            try? FileManager.default.removeItem(atPath: "\(root)/nodes-library-\(tag)")
        }
        let jobs = max(1, Self.nodeJobs / count)
        let processes = try (0..<count).map { number in
            try IngestNodeProcess(
                name: "node \(number)", executable: URL(fileURLWithPath: livepair),
                arguments: ["import"] + libraryOptions + [
                    "--owner", "bench", "--files-from", "-", "--json-lines", "--jobs", "\(jobs)", "--scratch",
                    "\(root)/scratch-\(tag)-\(number)",
                ],
                environment: [:])
        }
        let start = Date()
        for (index, file) in files.enumerated() { processes[index % count].send(file, waitingBelow: 2 * jobs) }
        let statuses = processes.map { $0.finish() }
        let seconds = Date().timeIntervalSince(start)
        let outcomes = processes.flatMap { $0.snapshot.outcomes }
        let latencies = outcomes.compactMap(\.latency).sorted()
        let failures = outcomes.filter { $0.outcome == "error" || $0.outcome == "rejected" }.count
            + (files.count - outcomes.count) + statuses.filter { $0 != 0 }.count
        let library: PhotoLibrary
        if !catalogURL.isEmpty {
            library = try PhotoLibrary.open(
                catalog: .postgres(connectionString: catalogURL), store: try StoreLocation(storeURL), configuration: LibraryConfiguration(access: .readOnly),
                s3Endpoint: ProcessInfo.processInfo.environment["LIVEPAIR_S3_ENDPOINT"],
                s3CacheDirectory: "\(root)/scratch-\(tag)-check")
        } else {
            library = try PhotoLibrary.open(at: "\(root)/nodes-library-\(tag)", configuration: LibraryConfiguration(access: .readOnly))
        }
        return NodeRun(
            name: name, nodes: count, seconds: seconds,
            livePhotos: try library.fetchAssets(with: FetchOptions(predicate: .livePhotos)).count,
            pending: try Ingestor(library: library).pendingUploads().count,
            failures: failures,
            p50: ServeBenchmark.percentile(latencies, 0.5), p99: ServeBenchmark.percentile(latencies, 0.99))
    }

    /// Prints the node runs against the SQLite library's in-process copy-mode time (`sqliteSeconds`)
    /// and the disk's `cp -r` + `sync` (`copySeconds`); returns true when both targets are met.
    func printNodeRuns(_ runs: [NodeRun], pairs: Int, sqliteSeconds: Double, copySeconds: Double) -> Bool {
        print("node runs (livepair import --files-from - --json-lines processes, \(Self.nodeJobs) jobs shared; latency from a path's write to its outcome line):")
        var met = true
        for run in runs {
            let complete = run.livePhotos == pairs && run.pending == 0 && run.failures == 0
            var line = String(format: "  %@, %d node%@: %7.2f s  %6.1f pairs/s  p50 %6.1f ms  p99 %7.1f ms  %.2fx the SQLite library (in-process copy), %.2fx cp + sync  (%d Live Photos, %d pending, %d failed)",
                run.name, run.nodes, run.nodes == 1 ? "" : "s", run.seconds, Double(pairs) / run.seconds, run.p50 * 1000, run.p99 * 1000,
                run.seconds / sqliteSeconds, run.seconds / copySeconds, run.livePhotos, run.pending, run.failures)
            if run.name == "PostgreSQL + local store" {
                let ok = complete && run.seconds / sqliteSeconds <= Self.maximumPostgresRatio
                line += String(format: "; target <= %.1fx: %@", Self.maximumPostgresRatio, ok ? "met" : "NOT met")
                met = met && ok
            } else if run.name == "PostgreSQL + S3" && run.nodes == 4 {
                let ok = complete && run.seconds / sqliteSeconds <= Self.maximumS3Ratio
                line += String(format: "; target <= %.1fx: %@", Self.maximumS3Ratio, ok ? "met" : "NOT met")
                met = met && ok
            } else if !complete {
                line += "; INCOMPLETE import"
            }
            print(line)
        }
        return met
    }

    /// The target for PostgreSQL + S3 with four nodes (issue 12): at most this many times the
    /// SQLite library's copy-mode time.
    static let maximumS3Ratio = 2.0
}
