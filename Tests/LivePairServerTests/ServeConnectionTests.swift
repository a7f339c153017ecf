import Foundation
import Testing
import TestSupport

/// Connections that never finish their headers (slowloris) against a real server: a new client
/// is still answered, the per-address cap holds, idle connections are cut after the header
/// timeout, and at the connection limit the longest-waiting go first, never a client that sends.
@Suite(.serialized) struct ServeConnectionTests {
    /// The start of a request whose headers never end: one more header line is sent now and then.
    static let unfinishedRequest = "GET /healthz HTTP/1.1\r\nHost: x\r\n"

    /// 2,000 slowloris connections spread 50 each over 127.0.1.1-40 (all kept) and 2,000 more
    /// from 127.0.0.1 (the server keeps 64, the per-address cap): `/healthz` from 127.0.0.2 still
    /// answers, each time. The header timeout is long here, so however slowly a loaded machine
    /// opens the 4,000 connections, none is cut before it is counted (the timeout has its own test).
    @Test func slowlorisConnectionsDoNotStarveANewClient() throws {
        try Self.allowOpenFiles(6000)
        let server = try ServeProcess(["--header-timeout", "3600"])
        let spread = try (1...40).flatMap { host in
            try (0..<50).map { _ in try Self.slowConnection(to: server, from: "127.0.1.\(host)") }
        }
        #expect(spread.filter { $0.read(timeout: 0.001) != nil }.count == 2000, "connections kept from 127.0.1.1-40")
        let fromOneAddress = try (0..<2000).map { _ in try Self.slowConnection(to: server, from: "127.0.0.1") }
        #expect(Self.healthz(server) == "HTTP/1.1 200 OK")
        let keptFromOneAddress = fromOneAddress.filter { $0.read(timeout: 0.001) != nil }.count
        #expect(keptFromOneAddress == 64, "connections kept from 127.0.0.1")
        for connection in spread + fromOneAddress { connection.send("X-Trickle: 1\r\n") }
        #expect(Self.healthz(server) == "HTTP/1.1 200 OK")
        #expect(spread.filter { $0.read(timeout: 0.001) != nil }.count == 2000, "trickling connections kept before the timeout")
        server.stop()
    }

    /// The header timeout counts from the connection's start, not from its last byte: 40 slow
    /// connections over four addresses that keep sending a header line are all cut once the
    /// (2 s) timeout has passed, and `/healthz` answers throughout.
    @Test func theHeaderTimeoutCutsConnectionsThatKeepTrickling() throws {
        let server = try ServeProcess(["--header-timeout", "2"])
        let slow = try (1...4).flatMap { host in
            try (0..<10).map { _ in try Self.slowConnection(to: server, from: "127.0.1.\(host)") }
        }
        #expect(Self.healthz(server) == "HTTP/1.1 200 OK")
        // Each round sends one more header line on every connection still open; the bound is a
        // liveness bound (the connections must end), far above the 2 s timeout.
        var open = slow
        for _ in 0..<300 where !open.isEmpty {
            for connection in open { connection.send("X-Trickle: 1\r\n") }
            usleep(200_000)
            open = open.filter { $0.read(timeout: 0) != nil }
        }
        #expect(open.isEmpty, "\(open.count) trickling connections still open long past the header timeout")
        #expect(Self.healthz(server) == "HTTP/1.1 200 OK")
        server.stop()
    }

    /// Under an open-file limit of 192 (a connection limit of 64, kept below 56), an upload
    /// being sent and 100 slow connections opened one after the other: the oldest slow ones are
    /// cut, the newest kept, the upload finishes and `/healthz` answers.
    @Test func atTheLimitTheLongestWaitingGoFirst() throws {
        let server = try ServeProcess(["--threads", "4", "--max-connections-per-ip", "1000", "--header-timeout", "60"], openFileLimit: 192)
        let listening = server.logLines().last { $0["message"] as? String == "listening" }
        #expect(listening?["connection_limit"] as? Int == 64)
        let still = try SampleMedia.bytes(ServeHTTPTests.pairs[2].still)
        let sender = try RawConnection(port: server.port)
        sender.send(
            "PUT /v1/uploads/sent HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer alice-token\r\nConnection: close\r\n"
                + "Content-Length: \(still.count)\r\n\r\n")
        sender.send(Array(still[0..<still.count / 2]))
        let deadline = Date().addingTimeInterval(600)  // a guard against a hang, not a bound on speed
        while server.spoolFiles().isEmpty && Date() < deadline { usleep(20_000) }
        var slow: [RawConnection] = []
        for _ in 0..<100 {
            slow.append(try Self.slowConnection(to: server, from: "127.0.0.1"))
            usleep(2_000)
        }
        #expect(Self.healthz(server) == "HTTP/1.1 200 OK")
        sender.send(Array(still[(still.count / 2)...]))
        #expect(sender.statusLine() == "HTTP/1.1 202 Accepted", "the upload being sent was kept")
        let open = slow.map { $0.read(timeout: 0.001) != nil }
        #expect(open.prefix(20).allSatisfy { !$0 }, "the oldest slow connections were cut")
        #expect(open.suffix(20).allSatisfy { $0 }, "the newest slow connections were kept")
        #expect(open.filter { $0 }.count <= 56)
        #expect(open.drop { !$0 }.allSatisfy { $0 }, "cut in the order they waited: \(open)")
        server.stop()
    }

    /// A connection from `source` that sent the start of a request and never finishes it.
    static func slowConnection(to server: ServeProcess, from source: String) throws -> RawConnection {
        let connection = try RawConnection(port: server.port, from: source)
        connection.send(unfinishedRequest)
        return connection
    }

    /// The status line of `GET /healthz` from 127.0.0.2.
    static func healthz(_ server: ServeProcess) -> String {
        guard let connection = try? RawConnection(port: server.port, from: "127.0.0.2") else { return "no connection" }
        connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return connection.statusLine()
    }

    /// Raises this process's soft open-file limit to at least `count` (within the hard limit).
    static func allowOpenFiles(_ count: UInt64) throws {
        var limit = rlimit()
        try #require(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        try #require(limit.rlim_max >= count, "the hard open-file limit \(limit.rlim_max) is below \(count)")
        if limit.rlim_cur < count {
            limit.rlim_cur = limit.rlim_max
            try #require(setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        }
    }
}
