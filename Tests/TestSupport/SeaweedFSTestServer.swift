import Foundation
import Synchronization

/// The SeaweedFS S3 server of this test process: started on first use with
/// `scripts/seaweedfs-test.sh start` (free ports, its own session, data in a temporary folder) and
/// stopped when the process exits (an `atexit` handler runs `stop`; a watchdog started by the
/// script ends it too if the process dies without exiting). One server serves every test of the
/// process; tests keep apart by using their own buckets (`uniqueBucketName`).
///
/// A test that needs the server calls `SeaweedFSTestServer.shared()`, which throws the reason
/// (the script's own words, such as "run scripts/setup.sh") when the server cannot start: the
/// test fails with it, it never skips.
public struct SeaweedFSTestServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let endpoint: String
    /// The access key id of the server's one identity.
    public let accessKeyID: String
    /// That identity's secret key.
    public let secretAccessKey: String
    /// The signing region.
    public let region: String
    /// The access key id of a second identity that may read and list but not write.
    public let readerAccessKeyID: String
    /// That read-only identity's secret key.
    public let readerSecretAccessKey: String
    /// The folder holding the server's data, configuration and log (`weed.log`).
    public let directory: String

    /// The running server, started on first use; throws `StartFailure` when it cannot start.
    public static func shared() throws -> SeaweedFSTestServer { try started.get() }

    /// Why the server could not start.
    public struct StartFailure: Error, CustomStringConvertible {
        /// The reason, with the script's output.
        public let description: String
    }

    /// A bucket name no other test of this run uses: `lp-<label>-<process id>-<counter>`.
    public static func uniqueBucketName(_ label: String) -> String {
        let number = bucketCounter.withLock { counter in
            counter += 1
            return counter
        }
        return "lp-\(label.lowercased())-\(getpid())-\(number)"
    }

    private static let bucketCounter = Mutex(0)
    private static let runningDirectory = Mutex<String?>(nil)
    private static let started: Result<SeaweedFSTestServer, StartFailure> = start()

    /// `scripts/seaweedfs-test.sh` at the package root.
    private static let script: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("scripts/seaweedfs-test.sh")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: "scripts/seaweedfs-test.sh")
    }()

    /// A server of its own (not the shared one) listening on `address` (an address of this
    /// machine, such as the bridge of `scripts/netns-test.sh`); the caller stops it with `stop()`
    /// (a watchdog ends it too if this process dies first).
    public static func startDedicated(listeningOn address: String) throws -> SeaweedFSTestServer {
        try start(ip: address, shared: false).get()
    }

    /// Ends a server made by `startDedicated` and removes its folder.
    public func stop() {
        _ = Self.runScript(["stop", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func start(ip: String = "127.0.0.1", shared: Bool = true) -> Result<SeaweedFSTestServer, StartFailure> {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("livepair-seaweedfs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        let startRun = runScript(
            ["start", directory], extraEnvironment: ["SEAWEEDFS_OWNER_PID": "\(getpid())", "SEAWEEDFS_IP": ip])
        guard startRun.status == 0 else {
            return .failure(StartFailure(description: "SeaweedFS did not start (exit \(startRun.status)): \(startRun.output)"))
        }
        if shared {
            runningDirectory.withLock { $0 = directory }
            atexit {
                if let directory = SeaweedFSTestServer.runningDirectory.withLock({ $0 }) {
                    _ = SeaweedFSTestServer.runScript(["stop", directory])
                    try? FileManager.default.removeItem(atPath: directory)
                }
            }
        }
        let envRun = runScript(["env", directory])
        var values: [String: String] = [:]
        for line in envRun.output.split(separator: "\n") where line.hasPrefix("export ") {
            let assignment = line.dropFirst("export ".count)
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            values[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        guard let endpoint = values["LIVEPAIR_S3_ENDPOINT"], let accessKey = values["AWS_ACCESS_KEY_ID"],
            let secret = values["AWS_SECRET_ACCESS_KEY"], let region = values["AWS_REGION"],
            let readerKey = values["LIVEPAIR_TEST_S3_READER_KEY"], let readerSecret = values["LIVEPAIR_TEST_S3_READER_SECRET"]
        else {
            return .failure(StartFailure(description: "seaweedfs-test.sh env printed no settings: \(envRun.output)"))
        }
        return .success(
            SeaweedFSTestServer(
                endpoint: endpoint, accessKeyID: accessKey, secretAccessKey: secret, region: region,
                readerAccessKeyID: readerKey, readerSecretAccessKey: readerSecret, directory: directory))
    }

    /// Runs the script to its end (`ChildProcess`: the servers it starts inherit no pipe) with
    /// `extraEnvironment` added, and returns its status and its standard output and error together.
    private static func runScript(_ arguments: [String], extraEnvironment: [String: String] = [:]) -> (status: Int32, output: String) {
        do throws(ChildProcess.SpawnFailure) {
            let result = try ChildProcess.run(
                "/bin/bash", [script.path] + arguments, environment: extraEnvironment, standardError: .mergedIntoOutput)
            return (result.status, result.outputText)
        } catch {
            return (-1, "cannot run \(script.path): \(error.reason)")
        }
    }
}
