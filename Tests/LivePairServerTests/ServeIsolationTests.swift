import Foundation
import Testing
import TestSupport

extension ServeHTTPTests {
    /// Uploads a pair for `token` and returns the asset's identifier.
    static func uploadPair(_ pair: (still: String, movie: String, contentIdentifier: String), token: String, client: HTTPClient)
        throws -> String
    {
        #expect(try client.upload(SampleMedia.path(pair.still), id: "still-\(pair.contentIdentifier)", token: token).status == 202)
        let linked = try client.upload(SampleMedia.path(pair.movie), id: "movie-\(pair.contentIdentifier)", token: token)
        #expect(linked.status == 201)
        return try #require((try linked.json()["asset"] as? [String: Any])?["id"] as? String)
    }

    /// Another owner's asset answers 404 on every endpoint (existence is not revealed); no token
    /// or a wrong one answers 401; lists, pending and changes show only the owner's.
    @Test func ownerIsolationOnEveryEndpoint() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let identifier = try Self.uploadPair(Self.pairs[4], token: "alice-token", client: client)
        #expect(try client.upload(SampleMedia.path(Self.pairs[0].still), id: "a-pending", token: "alice-token").status == 202)
        let paths = [
            "/v1/assets/\(identifier)", "/v1/assets/\(identifier)/resources/photo",
            "/v1/assets/\(identifier)/resources/pairedVideo", "/v1/assets/\(identifier)/placeholder.jpg",
            "/v1/assets/\(identifier)/still.jpg?size=64", "/v1/assets/\(identifier)/motion.mp4?size=64",
        ]
        for path in paths {
            #expect(try client.send("GET", path, token: "bob-token").status == 404, "\(path) for another owner")
            #expect(try client.send("GET", path).status == 401, "\(path) without a token")
            #expect(try client.send("GET", path, token: "wrong-token").status == 401, "\(path) with a wrong token")
        }
        #expect(try client.send("DELETE", "/v1/assets/\(identifier)", token: "bob-token").status == 404)
        #expect(try client.send("DELETE", "/v1/assets/\(identifier)").status == 401)
        for path in ["/v1/assets", "/v1/pending", "/v1/changes?since=0&timeout=0"] {
            #expect(try client.send("GET", path).status == 401, "\(path)")
        }
        #expect(try client.upload(SampleMedia.path(Self.pairs[0].movie), id: "x", token: "wrong-token").status == 401)
        #expect(try client.send("GET", "/v1/assets", token: "bob-token").json()["total"] as? Int == 0)
        #expect((try client.send("GET", "/v1/pending", token: "bob-token").json()["pending"] as? [Any])?.isEmpty == true)
        let bobChanges = try client.send("GET", "/v1/changes?since=0&timeout=0", token: "bob-token").json()
        #expect((bobChanges["inserted"] as? [String])?.isEmpty == true)
        // Bob's movie with Alice's pending identifier waits as Bob's own half, never joins Alice's.
        #expect(try client.upload(SampleMedia.path(Self.pairs[0].movie), id: "b-movie", token: "bob-token").status == 202)
        #expect(try client.send("GET", "/v1/assets", token: "alice-token").json()["total"] as? Int == 1)
        let aliceChanges = try client.send("GET", "/v1/changes?since=0&timeout=0", token: "alice-token").json()
        #expect(aliceChanges["inserted"] as? [String] == [identifier])
        #expect(try client.send("GET", "/v1/assets/\(identifier)/resources/photo", token: "alice-token").status == 200)
        let beforeDelete = try #require(aliceChanges["next"] as? Int)
        #expect(try client.send("DELETE", "/v1/assets/\(identifier)", token: "alice-token").status == 204)
        #expect(try client.send("GET", "/v1/assets/\(identifier)", token: "alice-token").status == 404)
        let deleted = try client.send("GET", "/v1/changes?since=\(beforeDelete)&timeout=0", token: "alice-token").json()
        #expect(deleted["deleted"] as? [String] == [identifier])
        let notBobs = try client.send("GET", "/v1/changes?since=\(beforeDelete)&timeout=0", token: "bob-token").json()
        #expect((notBobs["deleted"] as? [String])?.isEmpty == true)
        server.stop()
    }

    /// A 401 decided from the headers waits until the body is read and dropped: a client that
    /// sends its whole upload before reading the answer never meets a closed connection (EPIPE).
    @Test func earlyAnswersLetTheClientFinishSendingItsBody() throws {
        let server = try ServeProcess()
        let body = try SampleMedia.bytes(Self.pairs[0].movie)
        let connection = try RawConnection(port: server.port)
        #expect(connection.send(
            "PUT /v1/uploads/early HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong-token\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"))
        usleep(300_000)  // the answer is decided by now; the body follows
        #expect(connection.send(body), "the server closed the connection before the body was sent")
        #expect(connection.statusLine() == "HTTP/1.1 401 Unauthorized")
        #expect(server.stop() == 0)
    }

    /// Originals and derivatives: content types, ETag and If-None-Match (304), Range (206 and
    /// 416), the derivative made once and then read from the cache; a long poll wakes up on a change.
    @Test func filesRangesAndCaching() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let start = try client.send("GET", "/v1/changes", token: "alice-token").json()
        let since = try #require(start["next"] as? Int)
        let waiter = ResponseBox()
        let waiting = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            waiter.response = try? client.send("GET", "/v1/changes?since=\(since)&timeout=20", token: "alice-token")
            waiting.signal()
        }
        let identifier = try Self.uploadPair(Self.pairs[3], token: "alice-token", client: client)
        #expect(waiting.wait(timeout: .now() + 25) == .success)
        #expect(try waiter.response?.json()["inserted"] as? [String] == [identifier])

        let photo = try client.send("GET", "/v1/assets/\(identifier)/resources/photo", token: "alice-token")
        #expect(photo.status == 200)
        #expect(photo.body.count == 1_812_022)
        #expect(photo.header("Content-Type") == "image/heic")
        #expect(photo.header("ETag") == "\"\(SampleMedia.entry(Self.pairs[3].still)?.sha256 ?? "")\"")
        let partial = try client.send(
            "GET", "/v1/assets/\(identifier)/resources/pairedVideo", token: "alice-token", headers: ["Range": "bytes=4-11"])
        #expect(partial.status == 206)
        #expect(String(decoding: partial.body, as: UTF8.self) == "ftypqt  ")
        #expect(partial.header("Content-Range") == "bytes 4-11/3404730")
        let outside = try client.send(
            "GET", "/v1/assets/\(identifier)/resources/pairedVideo", token: "alice-token", headers: ["Range": "bytes=3404730-"])
        #expect(outside.status == 416)
        #expect(outside.header("Content-Range") == "bytes */3404730")

        let still = try client.send("GET", "/v1/assets/\(identifier)/still.jpg?size=256", token: "alice-token")
        #expect(still.status == 200)
        #expect(still.header("Content-Type") == "image/jpeg")
        #expect(Array(still.body.prefix(3)) == [0xFF, 0xD8, 0xFF])
        // The Display P3 HEIC's profile goes with its JPEG derivative.
        let stillFile = server.directory + "/still-256.jpg"
        try still.body.write(to: URL(fileURLWithPath: stillFile))
        #expect(try ReferenceTool.run("exiftool", ["-s3", "-ProfileDescription", stillFile]) == "Display P3\n")
        #expect(still.header("Cache-Control")?.contains("immutable") == true)
        let etag = try #require(still.header("ETag"))
        let notModified = try client.send(
            "GET", "/v1/assets/\(identifier)/still.jpg?size=256", token: "alice-token", headers: ["If-None-Match": etag])
        #expect(notModified.status == 304)
        let cached = try client.send("GET", "/v1/assets/\(identifier)/still.jpg?size=256", token: "alice-token")
        #expect(cached.body == still.body)
        let motion = try client.send("GET", "/v1/assets/\(identifier)/motion.mp4?size=128", token: "alice-token")
        #expect(motion.status == 200)
        #expect(motion.header("Content-Type") == "video/mp4")
        #expect(String(decoding: motion.body[4..<8], as: UTF8.self) == "ftyp")
        let placeholder = try client.send("GET", "/v1/assets/\(identifier)/placeholder.jpg", token: "alice-token")
        #expect(placeholder.status == 200)
        let concurrent = StatusCollector()
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            concurrent.add((try? client.send("GET", "/v1/assets/\(identifier)/still.jpg?size=400", token: "alice-token").status) ?? -1)
        }
        #expect(concurrent.counts() == [200: 6])
        #expect(try client.send("GET", "/v1/assets/\(identifier)/still.jpg?size=9", token: "alice-token").status == 400)
        let metrics = String(decoding: try client.send("GET", "/metrics").body, as: UTF8.self)
        #expect(
            metrics.contains("livepair_derivatives_made_total 4"),
            "two stills, the motion and the placeholder made once each (six concurrent requests, one decode)")
        #expect(try client.send("GET", "/v1/assets/NOPE", token: "alice-token").status == 404)
        #expect(try client.send("GET", "/v1/nothing-here").status == 404)
        #expect(try client.send("POST", "/v1/assets").status == 405)
        let openAPI = try client.send("GET", "/v1/openapi.json").json()
        #expect(openAPI["openapi"] as? String == "3.1.0")
        #expect(try client.send("GET", "/healthz").status == 200)
        server.stop()
    }
}

/// A response handed from another thread.
final class ResponseBox: @unchecked Sendable {
    // @unchecked: written before the semaphore is signalled, read after the wait.
    var response: ClientResponse?
}
