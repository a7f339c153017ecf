import Foundation
import LivePairS3
import Testing
import TestSupport

/// Two `livepair serve` processes on one PostgreSQL catalog and one S3 store (SeaweedFS), each
/// with its own local cache: originals read with ranged GETs, derivatives shared through the bucket.
@Suite(.serialized) struct ServeObjectStoreTests {
    @Test func twoNodesOnPostgresAndS3() throws {
        let server = try SeaweedFSTestServer.shared()
        let (client, bucket) = try SeaweedFSTestServer.clientWithNewBucket("serve")
        let keys: [String: String] = [
            "AWS_ACCESS_KEY_ID": server.accessKeyID, "AWS_SECRET_ACCESS_KEY": server.secretAccessKey, "AWS_REGION": server.region,
        ]
        let caches = (1...2).map { FileManager.default.temporaryDirectory.appendingPathComponent("serve-s3-\($0)-\(UUID().uuidString)").path }
        defer { for cache in caches { try? FileManager.default.removeItem(atPath: cache) } }
        let arguments = [
            "--catalog", try PostgresTestServer.freshSchemaURL(), "--store", "s3://\(bucket)/media/", "--s3-endpoint", server.endpoint,
        ]
        let created = try LivePairBinary.run(["library", "init"] + arguments, environment: keys.merging(["LIVEPAIR_S3_CACHE": caches[0]]) { $1 })
        #expect(created.status == 0, "\(created.error)")
        let first = try ServeProcess(libraryArguments: arguments, environment: keys.merging(["LIVEPAIR_S3_CACHE": caches[0]]) { $1 })
        let second = try ServeProcess(libraryArguments: arguments, environment: keys.merging(["LIVEPAIR_S3_CACHE": caches[1]]) { $1 })
        let one = HTTPClient(base: first.base), two = HTTPClient(base: second.base)
        let pair = ServeHTTPTests.pairs[3]  // IMG_4580: HEIC still, QuickTime movie

        #expect(try one.upload(SampleMedia.path(pair.still), id: "still", token: "alice-token").status == 202)
        let linked = try two.upload(SampleMedia.path(pair.movie), id: "movie", token: "alice-token")
        #expect(linked.status == 201)
        let identifier = try #require((try linked.json()["asset"] as? [String: Any])?["id"] as? String)
        let movieDigest = try #require(SampleMedia.entry(pair.movie)?.sha256)
        #expect(try client.list(bucket: bucket, prefix: "media/").map(\.key).contains("media/\(movieDigest.prefix(2))/\(movieDigest)"))

        // A range of the movie on node 1: a ranged GET, no local copy of the whole object.
        let partial = try one.send(
            "GET", "/v1/assets/\(identifier)/resources/pairedVideo", token: "alice-token", headers: ["Range": "bytes=4-11"])
        #expect(partial.status == 206)
        #expect(String(decoding: partial.body, as: UTF8.self) == "ftypqt  ")
        #expect(partial.header("Content-Range") == "bytes 4-11/3404730")
        #expect(!FileManager.default.fileExists(atPath: caches[0] + "/" + movieDigest), "the whole movie was downloaded for a range")
        let outside = try one.send(
            "GET", "/v1/assets/\(identifier)/resources/pairedVideo", token: "alice-token", headers: ["Range": "bytes=3404730-"])
        #expect(outside.status == 416)
        let whole = try two.send("GET", "/v1/assets/\(identifier)/resources/pairedVideo", token: "alice-token")
        #expect(whole.status == 200)
        #expect(whole.body == FileManager.default.contents(atPath: SampleMedia.path(pair.movie)))

        // A still made by node 1 is stored in the bucket and read from there by node 2.
        let still = try one.send("GET", "/v1/assets/\(identifier)/still.jpg?size=96", token: "alice-token")
        #expect(still.status == 200)
        let derivativeKeys = try client.list(bucket: bucket, prefix: "media.derivatives/").map(\.key)
        #expect(derivativeKeys.count == 1 && derivativeKeys.first?.hasSuffix("-still-256.jpg") == true, "\(derivativeKeys)")
        let again = try two.send("GET", "/v1/assets/\(identifier)/still.jpg?size=96", token: "alice-token")
        #expect(again.status == 200)
        #expect(again.body == still.body)
        let metricsTwo = String(decoding: try two.send("GET", "/metrics").body, as: UTF8.self)
        #expect(metricsTwo.contains("livepair_derivatives_made_total 0\n"), "node 2 made the still again")
        #expect(first.stop() == 0)
        #expect(second.stop() == 0)
    }
}
