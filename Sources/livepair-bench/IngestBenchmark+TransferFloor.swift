import Foundation
import LivePairLibrary

/// `livepair-bench ingest --store s3://...`: the object store's own floor, measured in the same
/// run: every corpus file PUT with `curl --aws-sigv4` (`--parallel`, as many at once as the node
/// runs' jobs, unsigned payload: no hashing on either side), then GET back the same way, into a
/// prefix of its own, just before and just after the node runs. No node run can move the corpus's
/// bytes into the store faster than the PUTs.
extension IngestBenchmark {
    /// The seconds the PUTs and the GETs took.
    struct TransferFloor {
        var putSeconds: Double
        var getSeconds: Double
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
        let putStart = Date()
        try Self.curl(config: putConfig, root: root)
        let putSeconds = Date().timeIntervalSince(putStart)
        let getStart = Date()
        try Self.curl(config: getConfig, root: root)
        return TransferFloor(putSeconds: putSeconds, getSeconds: Date().timeIntervalSince(getStart))
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
        for run in runs where run.name == "PostgreSQL + S3" {
            print(String(format: "  PostgreSQL + S3, %d node%@: %.2fx the PUT floor", run.nodes, run.nodes == 1 ? "" : "s",
                run.seconds / floor.putSeconds))
        }
    }
}
