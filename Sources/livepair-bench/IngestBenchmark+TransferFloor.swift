import Foundation
import LivePairLibrary

/// `livepair-bench ingest --store s3://...`: the object store's own floor, measured in the same
/// run: every corpus file PUT with `curl --aws-sigv4` (`--parallel`, as many at once as the node
/// runs' jobs, unsigned payload: no hashing on either side), then GET back the same way, into a
/// prefix of its own, just before and just after the node runs. No node run can move the corpus's
/// bytes into the store faster than the PUTs.
extension IngestBenchmark {
    /// The seconds the PUTs and the GETs took, and the CPU time the PUTs cost.
    struct TransferFloor {
        var putSeconds: Double
        var getSeconds: Double
        /// CPU-seconds the whole machine was busy during the PUTs (the server, curl, anything else).
        var putMachineCPU: Double
        /// CPU-seconds the PUTs' curl process used.
        var putCurlCPU: Double
        /// CPU-seconds the object store's process group used during the PUTs, when the benchmark
        /// was told it (`SEAWEEDFS_PGID`, exported by `scripts/seaweedfs-test.sh env`).
        var putStoreCPU: Double?
        /// CPU-seconds the machine had during the PUTs (cores times wall time).
        var putAvailableCPU: Double
        /// What the object store used: its process group's CPU time when known, else the
        /// machine's busy time without curl's (the store and anything else running).
        var putServerCPU: Double { putStoreCPU ?? max(0, putMachineCPU - putCurlCPU) }
    }

    /// PUTs then GETs every file of `files` to the store of `--store` (nil without an S3 store).
    func measureTransferFloor(files: [String], root: String) throws -> TransferFloor? {
        guard let text = options.store, case let .s3(bucket, prefix) = try StoreLocation(text) else { return nil }
        let environment = ProcessInfo.processInfo.environment
        guard let endpoint = environment["LIVEPAIR_S3_ENDPOINT"], let key = environment["AWS_ACCESS_KEY_ID"],
            let secret = environment["AWS_SECRET_ACCESS_KEY"]
        else {
            throw BenchmarkOptions.Invalid(description: "--store s3:// needs LIVEPAIR_S3_ENDPOINT, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        let region = environment["AWS_REGION"] ?? "us-east-1"
        let base = "\(endpoint)/\(bucket)/\(prefix)floor-\(UUID().uuidString.lowercased().prefix(12))/"
        // The keys go in a file only this user reads, never on a command line.
        let common = [
            "aws-sigv4 = \"aws:amz:\(region):s3\"", "user = \"\(key):\(secret)\"", "fail",
            "parallel", "parallel-max = \(Self.nodeJobs)",
        ]
        var puts = common + ["header = \"x-amz-content-sha256: UNSIGNED-PAYLOAD\"", "header = \"Content-Type: application/octet-stream\""]
        var gets = common + ["header = \"x-amz-content-sha256: UNSIGNED-PAYLOAD\""]
        for (index, file) in files.enumerated() {
            puts += ["url = \"\(base)\(index)\"", "upload-file = \"\(file)\""]
            gets += ["url = \"\(base)\(index)\"", "output = \"/dev/null\""]
        }
        let putConfig = root + "/curl-put.conf", getConfig = root + "/curl-get.conf"
        for (path, lines) in [(putConfig, puts), (getConfig, gets)] {
            guard FileManager.default.createFile(
                atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8), attributes: [.posixPermissions: 0o600])
            else { throw BenchmarkOptions.Invalid(description: "cannot write \(path)") }
        }
        defer {
            try? FileManager.default.removeItem(atPath: putConfig)
            try? FileManager.default.removeItem(atPath: getConfig)
        }
        // The CPU readings (a scan of /proc for the store's process group) come before the clock starts.
        let storeGroup = environment["SEAWEEDFS_PGID"].flatMap { Int32($0) }
        let storeBefore = storeGroup.map { ProcessGroupCPUTime.seconds(group: $0) }
        let machineBefore = MachineCPUTime.now(), curlBefore = ProcessTimer.childrenCPUSeconds
        let putStart = Date()
        try Self.curl(config: putConfig, root: root)
        let putSeconds = Date().timeIntervalSince(putStart)
        let machine = MachineCPUTime.now().since(machineBefore), curlCPU = ProcessTimer.childrenCPUSeconds - curlBefore
        let storeCPU = storeGroup.map { ProcessGroupCPUTime.seconds(group: $0) - (storeBefore ?? 0) }
        let getStart = Date()
        try Self.curl(config: getConfig, root: root)
        return TransferFloor(
            putSeconds: putSeconds, getSeconds: Date().timeIntervalSince(getStart), putMachineCPU: machine.busy,
            putCurlCPU: curlCPU, putStoreCPU: storeCPU, putAvailableCPU: machine.total)
    }

    /// Runs `curl -K config`; its messages (curl 7.88 draws its parallel progress meter even with
    /// `--silent`) are shown only when it fails.
    private static func curl(config: String, root: String) throws {
        let messages = root + "/curl.err"
        defer { try? FileManager.default.removeItem(atPath: messages) }
        do {
            _ = try shell("curl -sS -K '\(config)' 2>'\(messages)'")
        } catch {
            let text = (try? String(contentsOfFile: messages, encoding: .utf8)) ?? ""
            throw BenchmarkOptions.Invalid(description: "\(error): \(text.split(separator: "\r").last ?? "")")
        }
    }

    /// Prints the floor beside the node runs on S3.
    func printTransferFloor(_ floor: TransferFloor, when: String, files: Int, bytes: UInt64, sqliteSeconds: Double, runs: [NodeRun]) {
        print(String(format: "S3 floor %@ the node runs (curl --aws-sigv4 --parallel, %d at once): PUT of the %d files %.2f s (%.0f MB/s, %.2fx the SQLite library's copy-mode time), GET back %.2f s",
            when, Self.nodeJobs, files, floor.putSeconds, Double(bytes) / 1e6 / floor.putSeconds, floor.putSeconds / sqliteSeconds,
            floor.getSeconds))
        // The bound the cores set: the store's CPU time for these bytes, spread over every core.
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        print(String(format: "  the PUTs kept the machine %.0f%% busy: %.2f of %.2f CPU-s (curl %.2f, %@ %.2f = %.1f ms per MB); on %.0f cores the store's CPU time alone needs at least %.2f s, %.2fx the SQLite library's copy-mode time",
            100 * floor.putMachineCPU / max(floor.putAvailableCPU, 0.001), floor.putMachineCPU, floor.putAvailableCPU, floor.putCurlCPU,
            floor.putStoreCPU == nil ? "the object store and the rest (no SEAWEEDFS_PGID)" : "the object store's process group",
            floor.putServerCPU, 1000 * floor.putServerCPU / (Double(bytes) / 1e6), cores, floor.putServerCPU / cores,
            floor.putServerCPU / cores / sqliteSeconds))
        for run in runs where run.name == "PostgreSQL + S3" {
            print(String(format: "  PostgreSQL + S3, %d node%@: %.2fx the PUT floor", run.nodes, run.nodes == 1 ? "" : "s",
                run.seconds / floor.putSeconds))
        }
    }
}
