import Foundation

/// A PostgreSQL server of its own (not the process's shared `PostgresTestServer`), for a test that
/// restarts the server mid-run without disturbing the tests that run beside it. Started through
/// `scripts/postgres-test.sh` in a new temporary folder; stopped and removed by `stop()`, or by the
/// script's watchdog when the test process is killed.
public final class DedicatedPostgresServer: Sendable {
    /// The folder holding the cluster and the socket.
    public let directory: String
    /// The connection URI (database `livepair`), over the unix socket.
    public let url: String
    /// The TCP connection URI (`postgresql://postgres@ADDRESS:PORT/livepair`) when the server was
    /// started listening on an address.
    public let tcpURL: String?

    /// Starts a new server, on its unix socket and, with `listenAddress`, on TCP at that address
    /// (clients of its directly connected subnets trusted), inside the network namespace
    /// `namespace` when given (`ip netns exec`); throws the script's reason when it cannot.
    public init(listenAddress: String? = nil, namespace: String? = nil) throws {
        let template = strdup("/tmp/lp-pgd.XXXXXX")!
        defer { free(template) }
        guard let made = mkdtemp(template) else { throw PostgresTestServer.StartFailure(description: "mkdtemp failed") }
        directory = String(cString: made)
        let environment = PostgresTestServer.ownerEnvironment + (listenAddress.map { ["LIVEPAIR_PG_LISTEN=\($0)"] } ?? [])
        let start = ["/usr/bin/env"] + environment + [PostgresTestServer.script, "start", directory]
        let outcome =
            namespace.map { ChildProcess.runCapturingText(NetworkNamespaces.ip.path, ["netns", "exec", $0] + start) }
            ?? ChildProcess.runCapturingText(start[0], Array(start.dropFirst()))
        guard outcome.status == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            throw PostgresTestServer.StartFailure(description: "a dedicated PostgreSQL server did not start: \(outcome.error)")
        }
        url = outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
        if listenAddress != nil {
            let tcp = ChildProcess.runCapturingText(PostgresTestServer.script, ["tcp", directory])
            tcpURL = tcp.output.trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            tcpURL = nil
        }
        // The script starts servers with synchronous_commit off (fast, for tests): a commit then
        // returns before its WAL is written, and an immediate stop (`restart`) loses it, as a
        // production server never does. This server is restarted mid-run, so its commits must
        // survive: on for every session of the database (overrides the command line's default).
        let durable = ChildProcess.runCapturingText(
            "/usr/lib/postgresql/15/bin/psql", [url, "-Atqc", "ALTER DATABASE livepair SET synchronous_commit = on"])
        guard durable.status == 0 else {
            stop()
            throw PostgresTestServer.StartFailure(description: "ALTER DATABASE failed: \(durable.error)")
        }
    }

    /// A connection URI whose current schema is a new, empty one (over TCP when `tcp`).
    public func freshSchemaURL(tcp: Bool = false) throws -> String {
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let created = ChildProcess.runCapturingText("/usr/lib/postgresql/15/bin/psql", [url, "-Atqc", "CREATE SCHEMA \(schema)"])
        guard created.status == 0 else {
            throw PostgresTestServer.StartFailure(description: "CREATE SCHEMA failed: \(created.error)")
        }
        guard tcp else { return url + "&options=-csearch_path%3D\(schema)" }
        guard let tcpURL else { throw PostgresTestServer.StartFailure(description: "the server was started without a TCP address") }
        return tcpURL + "?options=-csearch_path%3D\(schema)"
    }

    /// Stops the server at once (`-m immediate`, like a crash) and starts it again.
    public func restart() throws {
        let outcome = ChildProcess.runCapturingText(PostgresTestServer.script, ["restart", directory])
        guard outcome.status == 0 else { throw PostgresTestServer.StartFailure(description: "restart failed: \(outcome.error)") }
    }

    /// Stops the server and removes its folder.
    public func stop() {
        _ = ChildProcess.runCapturingText(PostgresTestServer.script, ["stop", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }
}
