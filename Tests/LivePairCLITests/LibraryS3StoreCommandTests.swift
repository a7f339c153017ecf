import Foundation
import LivePairS3
import TestSupport
import Testing

@Suite("library commands with --store s3://BUCKET/PREFIX on SeaweedFS and a PostgreSQL catalog")
struct LibraryS3StoreCommandTests {
    static let trainIdentifier = "E905E6C6-C747-4805-942F-9904A0281F02"

    @Test("init writes the store's marker object; import, list, show and export go through S3")
    func importListExport() throws {
        let s3 = try S3CommandStore("cli")
        let catalog = try PostgresTestServer.freshSchemaURL()
        let options = ["--catalog", catalog, "--store", s3.url("photos")]

        let created = try LivePairBinary.run(["library", "init", "--json"] + options, environment: s3.environment)
        #expect(created.status == 0, "\(created.error)")
        let identity = try #require(try LivePairBinary.json(created.output)["identity"] as? String)
        #expect(try s3.keys() == ["photos/.library"])
        let marker = try s3.client.get(bucket: s3.bucket, key: "photos/.library")
        #expect(String(decoding: marker, as: UTF8.self) == identity + "\n")

        let still = SampleMedia.path("live/train.jpg"), movie = SampleMedia.path("live/train.mov")
        let imported = try LivePairBinary.run(
            ["import", "--owner", "alice", "--json", still, movie] + options, environment: s3.environment)
        #expect(imported.status == 0, "\(imported.error)")
        let summary = try #require(try LivePairBinary.json(imported.output)["summary"] as? [String: Any])
        #expect(summary["imported"] as? Int == 2)

        // The two resources are objects named by their SHA-256, beside the marker.
        let digests = try [still, movie].map { path in try SHA256Hex.of(file: path) }
        let expected = (["photos/.library"] + digests.map { "photos/\($0.prefix(2))/\($0)" }).sorted()
        #expect(try s3.keys() == expected)

        // --s3-endpoint on the command line instead of LIVEPAIR_S3_ENDPOINT.
        var environment = s3.environment
        environment["LIVEPAIR_S3_ENDPOINT"] = ""
        let list = try LivePairBinary.run(
            ["library", "list", "--json", "--s3-endpoint", s3.server.endpoint] + options, environment: environment)
        #expect(list.status == 0, "\(list.error)")
        let listed = try LivePairBinary.json(list.output)
        let assets = try #require(listed["assets"] as? [[String: Any]])
        #expect(assets.count == 1)
        #expect(assets.first?["contentIdentifier"] as? String == Self.trainIdentifier)
        #expect(listed["library"] as? String == "s3://\(s3.bucket)/photos/")
        let identifier = try #require(assets.first?["localIdentifier"] as? String)

        let output = FileManager.default.temporaryDirectory.appendingPathComponent("s3-export-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let exported = try LivePairBinary.run(
            ["library", "export", identifier, "--output", output, "--json"] + options, environment: s3.environment)
        #expect(exported.status == 0, "\(exported.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == ["train.jpg", "train.mov"])
        #expect(FileManager.default.contentsEqual(atPath: output + "/train.jpg", andPath: still))
        #expect(FileManager.default.contentsEqual(atPath: output + "/train.mov", andPath: movie))

        let deleted = try LivePairBinary.run(["library", "delete", identifier, "--json"] + options, environment: s3.environment)
        #expect(deleted.status == 0, "\(deleted.error)")
        #expect(try s3.keys() == ["photos/.library"])
    }

    @Test("a catalog and an S3 store of different libraries are refused (exit 1), and init onto a marked store creates nothing")
    func identityMismatch() throws {
        let s3 = try S3CommandStore("cli-identity")
        let first = try PostgresTestServer.freshSchemaURL(), second = try PostgresTestServer.freshSchemaURL()
        let firstInit = try LivePairBinary.run(
            ["library", "init", "--json", "--catalog", first, "--store", s3.url("a")], environment: s3.environment)
        #expect(firstInit.status == 0, "\(firstInit.error)")
        let secondInit = try LivePairBinary.run(
            ["library", "init", "--json", "--catalog", second, "--store", s3.url("b")], environment: s3.environment)
        #expect(secondInit.status == 0, "\(secondInit.error)")
        let firstIdentity = try #require(try LivePairBinary.json(firstInit.output)["identity"] as? String)
        let secondIdentity = try #require(try LivePairBinary.json(secondInit.output)["identity"] as? String)

        // The second catalog with the first library's store.
        let crossed = try LivePairBinary.run(
            ["import", "--owner", "alice", SampleMedia.path("live/train.jpg"), "--catalog", second, "--store", s3.url("a")],
            environment: s3.environment)
        #expect(crossed.status == 1)
        #expect(crossed.error.contains("its catalog (library \(secondIdentity)) and its resource store (library \(firstIdentity))"), "\(crossed.error)")
        #expect(crossed.error.contains(s3.server.endpoint), "\(crossed.error)")
        #expect(try s3.keys() == ["a/.library", "b/.library"], "the refused import stored nothing")

        // init of a new catalog onto the first library's store: refused before any table is made.
        let third = try PostgresTestServer.freshSchemaURL()
        let thirdInit = try LivePairBinary.run(
            ["library", "init", "--catalog", third, "--store", s3.url("a")], environment: s3.environment)
        #expect(thirdInit.status == 1)
        #expect(thirdInit.error.contains("belong to different libraries"), "\(thirdInit.error)")
        let thirdList = try LivePairBinary.run(
            ["library", "list", "--catalog", third, "--store", s3.url("c")], environment: s3.environment)
        #expect(thirdList.status == 1)
        #expect(thirdList.error.contains("has no LivePair catalog"), "\(thirdList.error)")

        // An existing catalog with a prefix that holds no marker: the store is missing.
        let unmarked = try LivePairBinary.run(
            ["library", "list", "--catalog", first, "--store", s3.url("typo")], environment: s3.environment)
        #expect(unmarked.status == 1)
        #expect(unmarked.error.contains("its resource store is missing"), "\(unmarked.error)")
        #expect(try s3.keys() == ["a/.library", "b/.library"])
    }

    @Test("an s3:// store without an endpoint, --s3-endpoint with a directory, and a bad bucket name are usage errors (64)")
    func usageErrors() throws {
        let catalog = "postgresql://u@/d"
        let noEndpoint = try LivePairBinary.run(
            ["library", "list", "--catalog", catalog, "--store", "s3://photos/x"], environment: ["LIVEPAIR_S3_ENDPOINT": ""])
        #expect(noEndpoint.status == 64)
        #expect(noEndpoint.error.contains("--s3-endpoint"), "\(noEndpoint.error)")
        let directory = try LivePairBinary.run(
            ["library", "list", "--catalog", catalog, "--store", "/tmp/store", "--s3-endpoint", "http://127.0.0.1:1"])
        #expect(directory.status == 64)
        #expect(directory.error.contains("only for an s3:// store"), "\(directory.error)")
        let badBucket = try LivePairBinary.run(
            ["import", "--catalog", catalog, "--store", "s3://No_Such/x", "--s3-endpoint", "http://127.0.0.1:1", "/tmp"])
        #expect(badBucket.status == 64)
        #expect(badBucket.error.contains("is not a bucket name"), "\(badBucket.error)")
        let badEndpoint = try LivePairBinary.run(
            ["library", "list", "--catalog", catalog, "--store", "s3://photos/x", "--s3-endpoint", "127.0.0.1:9000"])
        #expect(badEndpoint.status == 64)
        #expect(badEndpoint.error.contains("http:// or https://"), "\(badEndpoint.error)")
    }
}
