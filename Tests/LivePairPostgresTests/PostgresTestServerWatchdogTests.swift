import Foundation
import Testing
import TestSupport

/// `scripts/postgres-test.sh start` with `LIVEPAIR_PG_OWNER_PID`: a test process killed before it
/// could stop its server leaves no server and no folder behind.
@Suite struct PostgresTestServerWatchdogTests {
    @Test("a server whose owner is killed is stopped and its folder removed")
    func killedOwnerLeavesNothing() throws {
        let template = strdup("/tmp/lp-pgw.XXXXXX")!
        defer { free(template) }
        let directory = String(cString: try #require(mkdtemp(template)))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The owner: a shell that starts the server, queries it, then dies by SIGKILL (no atexit).
        let owner = """
            url=$(LIVEPAIR_PG_OWNER_PID=$$ "$0" start "$1") || exit 3
            /usr/lib/postgresql/15/bin/psql "$url" -Atqc 'SELECT 40 + 2'
            kill -KILL $$
            """
        let killed = try ChildProcess.run("/bin/sh", ["-c", owner, PostgresTestServer.script, directory])
        #expect(killed.outputText.trimmingCharacters(in: .whitespacesAndNewlines) == "42", "the server answered its owner: \(killed.outputText) \(killed.errorText)")
        #expect(killed.status == 128 + SIGKILL)
        #expect(Self.serverProcesses(of: directory) == 1, "one server ran for the folder")

        // The watchdog looks once a second; two minutes only bound a hang.
        let deadline = Date().addingTimeInterval(120)
        while FileManager.default.fileExists(atPath: directory) || Self.serverProcesses(of: directory) > 0, Date() < deadline {
            usleep(100_000)
        }
        #expect(!FileManager.default.fileExists(atPath: directory), "the folder is removed")
        #expect(Self.serverProcesses(of: directory) == 0, "no server runs for the folder")
    }

    /// How many `postgres -D DIRECTORY/data` server processes run (the postmaster; its workers
    /// show their titles instead of the command line).
    private static func serverProcesses(of directory: String) -> Int {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.filter { name in
            guard name.allSatisfy(\.isNumber),
                let line = FileManager.default.contents(atPath: "/proc/\(name)/cmdline")
            else { return false }
            let arguments = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.first?.hasSuffix("/postgres") == true && arguments.contains(directory + "/data")
        }.count
    }
}
