import Foundation
import Testing
import TestSupport

/// What one owner can learn of another's activity: nothing through `GET /v1/changes`.
@Suite struct ServeOwnerPrivacyTests {
    /// `next` counts the owner's own committed batches: alice's uploads and deletions never move
    /// bob's, the positions survive a restart, and a position resumes exactly after what it saw.
    @Test func changePositionsIgnoreOtherOwnersCommits() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        func changes(_ token: String, since: Int? = nil) throws -> [String: Any] {
            try client.send("GET", "/v1/changes" + (since.map { "?since=\($0)&timeout=0" } ?? ""), token: token).json()
        }
        #expect(try changes("bob-token")["next"] as? Int == 0)
        let first = try ServeHTTPTests.uploadPair(ServeHTTPTests.pairs[4], token: "alice-token", client: client)
        let second = try ServeHTTPTests.uploadPair(ServeHTTPTests.pairs[3], token: "alice-token", client: client)
        #expect(try client.send("DELETE", "/v1/assets/\(first)", token: "alice-token").status == 204)

        // Bob sees the same position as before alice's three commits, with or without `since`.
        #expect(try changes("bob-token")["next"] as? Int == 0)
        let bobPoll = try changes("bob-token", since: 0)
        #expect(bobPoll["next"] as? Int == 0)
        #expect(bobPoll["inserted"] as? [String] == [])

        let alice = try changes("alice-token", since: 0)
        #expect(alice["next"] as? Int == 3)
        #expect(alice["inserted"] as? [String] == [second])
        #expect(alice["deleted"] as? [String] == [], "created and deleted after the position: never seen, not reported")
        let afterFirst = try changes("alice-token", since: 1)
        #expect(afterFirst["inserted"] as? [String] == [second])
        #expect(afterFirst["deleted"] as? [String] == [first])
        let afterSecond = try changes("alice-token", since: 2)
        #expect(afterSecond["inserted"] as? [String] == [])
        #expect(afterSecond["deleted"] as? [String] == [first])
        #expect(afterSecond["next"] as? Int == 3)

        // Bob's own upload is his first position; a restarted server reads the same positions.
        let bobs = try ServeHTTPTests.uploadPair(ServeHTTPTests.pairs[0], token: "bob-token", client: client)
        try server.killAndRestart()
        let restarted = HTTPClient(base: server.base)
        let bob = try restarted.send("GET", "/v1/changes?since=0&timeout=0", token: "bob-token").json()
        #expect(bob["next"] as? Int == 1)
        #expect(bob["inserted"] as? [String] == [bobs])
        #expect(try restarted.send("GET", "/v1/changes", token: "alice-token").json()["next"] as? Int == 3)
        #expect(server.stop() == 0)
    }

    /// With `--metrics-token`, `/metrics` answers only that token (an owner's is refused); the
    /// request log never holds it.
    @Test func metricsTokenGuardsTheMetrics() throws {
        let server = try ServeProcess(["--metrics-token", "metrics-secret"])
        let client = HTTPClient(base: server.base)
        #expect(try client.send("GET", "/metrics").status == 401)
        #expect(try client.send("GET", "/metrics", token: "alice-token").status == 401)
        #expect(try client.send("GET", "/metrics", token: "metrics-secre").status == 401)
        let metrics = try client.send("GET", "/metrics", token: "metrics-secret")
        #expect(metrics.status == 200)
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("livepair_http_requests_total{route=\"/metrics\",status=\"401\"} 3\n"))
        #expect(!server.logText.contains("metrics-secret"))
        #expect(server.stop() == 0)
    }
}
