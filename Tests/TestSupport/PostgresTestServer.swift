import Foundation

/// The throwaway PostgreSQL 15 server of this test process: started on first use through
/// `scripts/postgres-test.sh start` (unix socket in a temporary folder, fsync off), stopped and
/// removed at exit, or by the script's watchdog when this process is killed. A test that needs it
/// and cannot have it fails with the script's reason.
public enum PostgresTestServer {
    /// Why the server could not start.
    public struct StartFailure: Error, CustomStringConvertible {
        /// The script's explanation.
        public let description: String
    }

    /// The folder holding the cluster and the socket (short, for the socket path limit).
    private static let directory: String = {
        let template = strdup("/tmp/lp-pg.XXXXXX")!
        defer { free(template) }
        guard let made = mkdtemp(template) else { return "/tmp/lp-pg.\(getpid())" }
        return String(cString: made)
    }()

    /// The script, found from this file's place in the package.
    public static let script: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("scripts/postgres-test.sh")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        }
        return "scripts/postgres-test.sh"
    }()

    private static let started: Result<String, StartFailure> = {
        let outcome = ChildProcess.runCapturingText("/usr/bin/env", ownerEnvironment + [script, "start", directory])
        atexit { PostgresTestServer.stopAtExit() }
        guard outcome.status == 0 else {
            return .failure(
                StartFailure(description: "the PostgreSQL test server did not start (\(script) start): \(outcome.error)"))
        }
        return .success(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }()

    /// The server's connection URI (database `livepair`), starting the server on first use.
    public static func url() throws -> String { try started.get() }

    /// A connection URI whose current schema is a new, empty one: each test gets its own catalog
    /// in the shared server.
    public static func freshSchemaURL() throws -> String {
        let base = try url()
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let created = ChildProcess.runCapturingText("/usr/lib/postgresql/15/bin/psql", [base, "-Atqc", "CREATE SCHEMA \(schema)"])
        guard created.status == 0 else { throw StartFailure(description: "CREATE SCHEMA failed: \(created.error)") }
        return base + "&options=-csearch_path%3D\(schema)"
    }

    /// Restarts the server (an immediate stop, then a start): clients must reconnect.
    public static func restart() throws {
        _ = try url()
        let outcome = runScript(["restart", directory])
        guard outcome.status == 0 else { throw StartFailure(description: "restart failed: \(outcome.error)") }
    }

    /// The variable (for `/usr/bin/env`) that makes the script watch this process: a server whose
    /// test process was killed is stopped and its folder removed.
    static var ownerEnvironment: [String] { ["LIVEPAIR_PG_OWNER_PID=\(getpid())"] }

    private static func stopAtExit() {
        _ = runScript(["stop", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs the script to its end (`ChildProcess`: the server `pg_ctl` starts inherits no pipe).
    private static func runScript(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        ChildProcess.runCapturingText(script, arguments)
    }
}
