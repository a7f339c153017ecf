import Foundation
import LivePairMedia
import LivePairS3
import Testing
import TestSupport

/// What an operator sees of a failing store: an error log line with the cause and the request's
/// `X-Request-Id`, and `/readyz` naming the failing part while `/healthz` stays alive.
@Suite(.serialized) struct ServeOperatorTests {
    @Test func aStoppedObjectStoreIsLoggedWithItsCause() throws {
        let seaweed = try SeaweedFSTestServer.startDedicated(listeningOn: "127.0.0.1")
        defer { seaweed.stop() }
        let bucket = "lp-outage-\(getpid())"
        try S3Client(
            configuration: S3Configuration(
                endpoint: seaweed.endpoint, region: seaweed.region,
                credentials: S3Credentials(accessKeyID: seaweed.accessKeyID, secretAccessKey: seaweed.secretAccessKey))
        ).createBucket(bucket)
        let keys: [String: String] = [
            "AWS_ACCESS_KEY_ID": seaweed.accessKeyID, "AWS_SECRET_ACCESS_KEY": seaweed.secretAccessKey, "AWS_REGION": seaweed.region,
            "LIVEPAIR_S3_CACHE": FileManager.default.temporaryDirectory.appendingPathComponent("serve-outage-\(UUID().uuidString)").path,
        ]
        defer { try? FileManager.default.removeItem(atPath: keys["LIVEPAIR_S3_CACHE"]!) }
        let arguments = [
            "--catalog", try PostgresTestServer.freshSchemaURL(), "--store", "s3://\(bucket)/media/", "--s3-endpoint", seaweed.endpoint,
        ]
        let created = try LivePairBinary.run(["library", "init"] + arguments, environment: keys)
        #expect(created.status == 0, "\(created.error)")
        let server = try ServeProcess(libraryArguments: arguments, environment: keys)
        let client = HTTPClient(base: server.base)
        let ready = try client.send("GET", "/readyz")
        #expect(ready.status == 200)
        #expect(String(decoding: ready.body, as: UTF8.self) == "{\"status\":\"ready\"}\n")
        #expect(ready.header("X-Request-Id")?.count == 32)
        let proposed = try client.send("GET", "/healthz", headers: ["X-Request-Id": "proxy-1234"])
        #expect(proposed.header("X-Request-Id") == "proxy-1234")
        #expect(server.logLine { $0["route"] as? String == "/healthz" && $0["request_id"] as? String == "proxy-1234" } != nil)

        seaweed.stop()
        let pair = ServeHTTPTests.pairs[3]
        let failed = try client.upload(SampleMedia.path(pair.still), id: "still", token: "alice-token")
        #expect(failed.status == 500)
        #expect(try (failed.json()["error"] as? [String: Any])?["message"] as? String == "the upload could not be stored")
        let requestID = try #require(failed.header("X-Request-Id"))
        let line = try #require(server.logLine { $0["level"] as? String == "error" })
        #expect(server.logLines().filter { $0["level"] as? String == "error" }.count == 1)
        #expect(line["message"] as? String == "request failed")
        #expect(line["request_id"] as? String == requestID)
        #expect(line["status"] as? Int == 500)
        #expect(line["route"] as? String == "/v1/uploads/{uploadID}")
        #expect(line["s3_endpoint"] as? String == seaweed.endpoint)
        #expect(line["s3_bucket"] as? String == bucket)
        #expect(line["s3_operation"] as? String == "PUT")
        #expect(line["s3_status"] as? Int == 0, "no answer: the server is down")
        #expect((line["error"] as? String)?.contains("no answer from the server") == true, "\(line)")
        #expect(!server.logText.contains(seaweed.secretAccessKey))

        // Liveness stays; readiness names the store (and logs why).
        #expect(try client.send("GET", "/healthz").status == 200)
        let unready = try client.send("GET", "/readyz")
        #expect(unready.status == 503)
        #expect(String(decoding: unready.body, as: UTF8.self) == "{\"status\":\"unavailable\",\"failing\":[\"store\"]}\n")
        let readyLine = try #require(server.logLine { $0["route"] as? String == "/readyz" && $0["level"] as? String == "error" })
        #expect(readyLine["s3_operation"] as? String == "LIST")
        #expect(readyLine["request_id"] as? String == unready.header("X-Request-Id"))
        #expect(server.stop() == 0)
    }

    /// The test PostgreSQL server runs with `fsync=off` and `synchronous_commit=off`: `library init`,
    /// `import` and `serve` warn, `import --require-durable` and `serve --require-durable` refuse; a connection that turns
    /// `synchronous_commit` back on is warned about `fsync` alone.
    @Test func aCatalogThatCanLoseCommitsIsWarnedAbout() throws {
        let catalog = try PostgresTestServer.freshSchemaURL()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let library = ["--catalog", catalog, "--store", store]
        let warning = "Warning: the PostgreSQL catalog has synchronous_commit=off and fsync=off: a commit is acknowledged before it is on disk"
        let created = try LivePairBinary.run(["library", "init"] + library)
        #expect(created.status == 0)
        #expect(created.error.hasPrefix(warning), "\(created.error)")
        let imported = try LivePairBinary.run(["import", SampleMedia.path("live/train.jpg")] + library)
        #expect(imported.status == 0)
        #expect(imported.error.hasPrefix(warning), "\(imported.error)")
        let importRefused = try LivePairBinary.run(["import", SampleMedia.path("live/train.mov"), "--require-durable", "--json"] + library)
        #expect(importRefused.status == 1)
        #expect(importRefused.output == "")
        #expect(importRefused.error == "Error: the PostgreSQL catalog has synchronous_commit=off and fsync=off: acknowledged uploads can be lost in a crash; --require-durable refuses it (set them on, or leave out --require-durable).\n")
        let tokens = store + "-tokens"
        try "t local\n".write(toFile: tokens, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: tokens) }
        let refused = try LivePairBinary.run(["serve", "--tokens", tokens, "--listen", "127.0.0.1:0", "--require-durable"] + library)
        #expect(refused.status == 1)
        #expect(refused.error == "Error: the PostgreSQL catalog has synchronous_commit=off and fsync=off: acknowledged uploads can be lost in a crash; --require-durable refuses it (set them on, or leave out --require-durable).\n")

        let server = try ServeProcess(libraryArguments: library)
        #expect(server.logText.contains(warning))
        let line = try #require(server.logLines().first { $0["message"] as? String == "catalog not durable" })
        #expect(line["level"] as? String == "warning")
        #expect(line["settings"] as? String == "synchronous_commit=off,fsync=off")
        #expect(server.stop() == 0)

        let synchronous = catalog + "%20-csynchronous_commit%3Don"
        let partly = try LivePairBinary.run(["import", SampleMedia.path("live/train.mov"), "--catalog", synchronous, "--store", store])
        #expect(partly.status == 0)
        #expect(partly.error.hasPrefix("Warning: the PostgreSQL catalog has fsync=off: "), "\(partly.error)")
    }
}

extension ServeOperatorTests {
    /// A PNG named `.jpg` is a photo whose derivatives are decoded by content (FFmpeg), not refused.
    @Test func aStillWhoseNameLiesIsDecodedByContent() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let png = try StillImageReader.decode(path: SampleMedia.path("plain/pixel_8.jpg")).scaled(toWidth: 320, height: 240).pngData()
        let path = server.directory + "/mislabeled.jpg"
        try Data(png).write(to: URL(fileURLWithPath: path))
        let uploaded = try client.upload(path, id: "png", token: "alice-token")
        #expect(uploaded.status == 201)
        let asset = try #require(try uploaded.json()["asset"] as? [String: Any])
        let identifier = try #require(asset["id"] as? String)
        #expect((asset["resources"] as? [[String: Any]])?.first?["uniformTypeIdentifier"] as? String == "public.png")
        // size=64 snaps up to 256 (docs/http.md, "Media work is bounded").
        for (query, width, height) in [("still.jpg?size=64", 256, 192), ("placeholder.jpg", 320, 240), ("still.jpg", 320, 240)] {
            let response = try client.send("GET", "/v1/assets/\(identifier)/\(query)", token: "alice-token")
            #expect(response.status == 200, "\(query)")
            #expect(response.header("Content-Type") == "image/jpeg")
            let file = server.directory + "/derivative.jpg"
            try response.body.write(to: URL(fileURLWithPath: file))
            let decoded = try StillImageReader.decode(path: file)
            #expect(decoded.width == width && decoded.height == height, "\(query): \(decoded.width)x\(decoded.height)")
        }
        #expect(server.stop() == 0)
    }
}
