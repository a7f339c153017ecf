import Foundation
import Testing
import TestSupport

/// `GET /v1/changes` as Server-Sent Events (`Accept: text/event-stream`) on a real server.
@Suite(.serialized) struct ServeEventStreamTests {
    /// A `ready` event first, then a `change` event when another client uploads a pair (only the
    /// owner's: bob's upload sends alice nothing); `Last-Event-ID` resumes after a reconnection
    /// with what was missed meanwhile.
    @Test func eventsArriveWhenAnotherClientUploads() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let events = try EventStreamClient(port: server.port, token: "alice-token")
        let ready = try #require(events.next(timeout: 600), "no ready event")
        #expect(events.head.hasPrefix("HTTP/1.1 200"))
        #expect(events.head.lowercased().contains("content-type: text/event-stream"))
        #expect(ready.name == "ready")
        #expect(ready.id == "0")

        _ = try ServeHTTPTests.uploadPair(ServeHTTPTests.pairs[0], token: "bob-token", client: client)
        let identifier = try ServeHTTPTests.uploadPair(ServeHTTPTests.pairs[4], token: "alice-token", client: client)
        let change = try #require(events.next(timeout: 600), "no change event after the upload")
        #expect(change.name == "change")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(change.data.utf8)) as? [String: Any])
        #expect(body["inserted"] as? [String] == [identifier])
        #expect(body["deleted"] as? [String] == [])
        let next = try #require(body["next"] as? Int)
        #expect(change.id == String(next))
        #expect(next == 1, "alice's position counts only her own commits (bob's came first)")

        // Reconnect after a deletion made while no stream was open: it is sent at once.
        #expect(try client.send("DELETE", "/v1/assets/\(identifier)", token: "alice-token").status == 204)
        let resumed = try EventStreamClient(port: server.port, token: "alice-token", headers: ["Last-Event-ID": String(next)])
        #expect(try #require(resumed.next(timeout: 600)).name == "ready")
        let missed = try #require(resumed.next(timeout: 600), "the deletion made meanwhile was not sent")
        let missedBody = try #require(try JSONSerialization.jsonObject(with: Data(missed.data.utf8)) as? [String: Any])
        #expect(missedBody["deleted"] as? [String] == [identifier])
        #expect(missedBody["since"] as? Int == next)

        // A bad Last-Event-ID is a 400, and SIGTERM ends open streams (the server exits 0).
        let bad = try RawConnection(port: server.port)
        bad.send("GET /v1/changes HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nAuthorization: Bearer alice-token\r\nLast-Event-ID: x\r\nConnection: close\r\n\r\n")
        #expect(bad.statusLine() == "HTTP/1.1 400 Bad Request")
        #expect(server.stop() == 0)
    }
}
