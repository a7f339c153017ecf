import Foundation
import LivePairPostgres
import Testing
import TestSupport

/// The libpq bridge against the test process's real PostgreSQL 15 server.
@Suite struct PostgresConnectionTests {
    @Test func valuesRoundTripAsBoundParametersByType() throws {
        let connection = try PostgresConnection(try PostgresTestServer.url())
        let bytes: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF]
        let rows = try connection.execute(
            "SELECT $1::bigint, $2::float8, $3::text, $4::bytea, $5::boolean, $6::text, $7::bytea",
            [.integer(-9_007_199_254_740_993), .real(0.1), .text("it's \"quoted\"; DROP TABLE x; --"), .bytes(bytes), .bool(true),
             .null, .bytes([])])
        #expect(rows.columns.count == 7)
        #expect(
            rows.rows == [
                PostgresRow(values: [
                    .integer(-9_007_199_254_740_993), .real(0.1), .text("it's \"quoted\"; DROP TABLE x; --"), .bytes(bytes),
                    .bool(true), .null, .bytes([]),
                ])
            ])
    }

    @Test func failuresKeepTheirSQLState() throws {
        let connection = try PostgresConnection(try PostgresTestServer.url())
        let error = try #require(throws: PostgresError.self) { try connection.execute("SELECT * FROM no_such_table_here") }
        #expect(error.sqlState == "42P01")
        #expect(error.kind == .statement)
        #expect(!error.isRetryable)
        let division = try #require(throws: PostgresError.self) { try connection.execute("SELECT 1 / $1::int", [.integer(0)]) }
        #expect(division.sqlState == "22012")
        // The connection stays usable after a failed statement.
        #expect(try connection.execute("SELECT 2").scalar == .integer(2))
    }

    @Test func anUnreachableServerIsAConnectionFailure() throws {
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection("postgresql://postgres@/livepair?host=/nonexistent-socket-dir&connect_timeout=2")
        }
        #expect(error.kind == .connection)
        #expect(error.isRetryable)
        #expect(error.message.contains("/nonexistent-socket-dir"))
    }

    @Test func aDeadlockIsReportedWithItsSQLStateAndIsRetryable() throws {
        let url = try PostgresTestServer.freshSchemaURL()
        let first = try PostgresConnection(url)
        let second = try PostgresConnection(url)
        try first.execute("CREATE TABLE pair(id int PRIMARY KEY, value int)")
        try first.execute("INSERT INTO pair VALUES (1, 0), (2, 0)")
        try first.execute("BEGIN")
        try second.execute("BEGIN")
        try first.execute("UPDATE pair SET value = 1 WHERE id = 1")
        try second.execute("UPDATE pair SET value = 2 WHERE id = 2")
        // Each now waits for the other's row: the server aborts one of them with 40P01.
        let outcomes = [first, second].enumerated().map { index, connection in
            Thread.detachAndJoin { () -> PostgresError? in
                do {
                    try connection.execute("UPDATE pair SET value = 3 WHERE id = $1", [.integer(Int64(2 - index))])
                    return nil
                } catch let error as PostgresError { return error } catch { return nil }
            }
        }
        let failures = outcomes.map { $0.wait() }.compactMap { $0 }
        #expect(failures.count == 1)
        #expect(failures.first?.sqlState == PostgresError.deadlockDetected)
        #expect(failures.first?.isRetryable == true)
        _ = try? first.execute("ROLLBACK")
        _ = try? second.execute("ROLLBACK")
    }

    @Test func notificationsArriveOnTheListeningConnectionAfterCommit() throws {
        let url = try PostgresTestServer.url()
        let listener = try PostgresConnection(url)
        let sender = try PostgresConnection(url)
        try listener.execute("LISTEN livepair_test_channel")
        try sender.execute("BEGIN")
        try sender.execute("SELECT pg_notify('livepair_test_channel', $1)", [.text("7")])
        #expect(try listener.notifications(timeoutMilliseconds: 200).isEmpty)  // not before the commit
        try sender.execute("COMMIT")
        let received = try listener.notifications(timeoutMilliseconds: 5000)
        #expect(received.map(\.channel) == ["livepair_test_channel"])
        #expect(received.map(\.payload) == ["7"])
    }

    @Test func thePoolReplacesAConnectionTheServerEnded() throws {
        let url = try PostgresTestServer.url()
        let pool = try PostgresPool(url, maximumConnections: 2)
        let killer = try PostgresConnection(url)
        let pid = try pool.withConnection(connectionFailure: { $0 }) { (connection: PostgresConnection) throws(PostgresError) in
            try connection.execute("SELECT pg_backend_pid()").scalar
        }
        try killer.execute("SELECT pg_terminate_backend($1::int)", [pid ?? .null])
        let failure = try #require(throws: PostgresError.self) {
            try pool.withConnection(connectionFailure: { $0 }) { (connection: PostgresConnection) throws(PostgresError) in
                try connection.execute("SELECT 1")
            }
        }
        #expect(failure.isConnectionFailure)
        let value = try pool.withConnection(connectionFailure: { $0 }) { (connection: PostgresConnection) throws(PostgresError) in
            try connection.execute("SELECT 41 + 1").scalar
        }
        #expect(value == .integer(42))
    }
}

extension PostgresConnectionTests {
    @Test func aNulInTextIsRefusedNotTruncated() throws {
        let connection = try PostgresConnection(try PostgresTestServer.url())
        let error = try #require(throws: PostgresError.self) { try connection.execute("SELECT $1::text", [.text("a\u{0}b")]) }
        #expect(error.sqlState == "22021")
        #expect(error.message.contains("$1"))
        #expect(try connection.execute("SELECT $1::bytea", [.bytes([0x61, 0, 0x62])]).scalar == .bytes([0x61, 0, 0x62]))
    }
}
