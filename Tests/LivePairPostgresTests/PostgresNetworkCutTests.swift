import Foundation
import LivePairPostgres
import Testing
import TestSupport

/// A statement in flight when the network between client and server is cut (the server in a
/// network namespace of its own, its bridge port set down: packets vanish, nothing is refused).
/// With the keepalive and `tcp_user_timeout` defaults a connection opens with, the statement fails
/// with a connection error within seconds; a connection whose URL turns them off (the URL wins over
/// the defaults) still waits for its lost answer long after.
/// Needs root and `ip netns`; fails with the reason without them.
@Suite struct PostgresNetworkCutTests {
    /// Short versions of `PostgresNetworkTimeouts.connectionDefaults`, so the test takes seconds.
    static let shortDefaults: [(keyword: String, value: String)] = [
        ("keepalives", "1"), ("keepalives_idle", "1"), ("keepalives_interval", "1"), ("keepalives_count", "2"),
        ("tcp_user_timeout", "2000"), ("connect_timeout", "2"),
    ]

    @Test func aCutConnectionFailsWithTheTimeoutsAndWaitsWithoutThem() throws {
        // What the catalog's connections open with (the same keywords, longer values).
        let productDefaults = Dictionary(uniqueKeysWithValues: PostgresNetworkTimeouts.connectionDefaults.map { ($0.keyword, $0.value) })
        #expect(productDefaults["keepalives"] == "1" && productDefaults["tcp_user_timeout"] == "30000")
        #expect(productDefaults["keepalives_idle"] == "10")
        let connectTimeoutFromEnvironment = ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] != nil
        #expect(productDefaults["connect_timeout"] == (connectTimeoutFromEnvironment ? nil : "10"))
        let namespaces = try NetworkNamespaces(nodes: 1)
        defer { namespaces.delete() }
        let server = try DedicatedPostgresServer(listenAddress: namespaces.addresses[0], namespace: namespaces.names[0])
        defer { server.stop() }
        let url = try #require(server.tcpURL)
        let guarded = try PostgresConnection(url, defaults: Self.shortDefaults)
        let unguarded = try PostgresConnection(url + "?keepalives=0&tcp_user_timeout=0", defaults: Self.shortDefaults)
        #expect(try guarded.execute("SELECT 1").scalar == .integer(1))
        let unguardedProcess = try #require(try unguarded.execute("SELECT pg_backend_pid()").scalar)
        // The server is also reachable on its unix socket, which the cut does not touch: the test
        // watches and steers the two statements from there.
        let observer = try PostgresConnection(server.url)
        let failing = Thread.detachAndJoin { () -> PostgresError? in
            do throws(PostgresError) {
                try guarded.execute("SELECT pg_sleep(30)")
                return nil
            } catch {
                return error
            }
        }
        let waiting = Thread.detachAndJoin { () -> PostgresError? in
            do throws(PostgresError) {
                try unguarded.execute("SELECT pg_sleep(60)")
                return nil
            } catch {
                return error
            }
        }
        // Both statements run on the server before the link is cut, however late their threads ran.
        try Self.waitUntil(observer, counts: 2, "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(%' AND state = 'active'")
        try namespaces.cut(0)
        // The unguarded statement ends on the server after the cut: its answer is lost in the cut.
        #expect(try observer.execute("SELECT pg_cancel_backend($1::int)", [unguardedProcess]).scalar == .bool(true))
        try Self.waitUntil(observer, counts: 1, "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(%' AND state = 'active'")
        let failed = try #require(failing.wait(seconds: 25), "the statement on the guarded connection did not fail within 25 s")
        // The guarded statement fails while the link is still cut (the unguarded one is still
        // waiting below): its keepalives and TCP timeout ended it, not the link coming back.
        let error = try #require(failed, "the guarded statement cannot succeed across the cut")
        #expect(error.kind == .connection && error.isRetryable, "\(error)")
        #expect(!guarded.isOpen, "the pool drops a connection that failed so")
        #expect(waiting.wait(seconds: 1) == nil, "without the timeouts the statement still waits for its lost answer")
        // Its lost answer would come with a later retransmission once the link is back; stopping
        // the server ends the connection at once (the test does not wait for the retransmission).
        try namespaces.restore(0)
        server.stop()
        #expect(waiting.wait(seconds: 20) != nil, "the unguarded statement ended once the link was back and the server stopped")
    }

    /// Polls `query` (a count) on `connection` until it reads `counts`; fails after 30 s.
    static func waitUntil(_ connection: PostgresConnection, counts: Int64, _ query: String) throws {
        for _ in 0..<300 {
            if try connection.execute(query).scalar == .integer(counts) { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("\(query) did not reach \(counts) within 30 s")
        throw CancellationError()
    }
}
