import Foundation
import LivePairS3
import TestSupport
import Testing

/// The faults of a multi-node library through the executable: each a clear error naming what
/// failed (the catalog, or the endpoint and bucket), exit 1, and nothing half-written: no catalog
/// created by a failed `init`, no asset or pending row without its objects, no object left behind.
@Suite("library commands when the catalog or the S3 store fails: clear errors, exit 1, nothing half-written")
struct LibraryS3FaultCommandTests {
    static let still = SampleMedia.path("live/train.jpg")
    static let movie = SampleMedia.path("live/train.mov")

    /// `livepair library list --json` on the catalog and store: exit status, count, pending, error.
    static func listed(
        _ catalog: String, _ store: String, _ s3: S3CommandStore
    ) throws -> (status: Int32, count: Int?, pending: Int?, error: String) {
        let run = try LivePairBinary.run(["library", "list", "--json", "--catalog", catalog, "--store", store], environment: s3.environment)
        guard run.status == 0 else { return (run.status, nil, nil, run.error) }
        let json = try LivePairBinary.json(run.output)
        return (run.status, json["count"] as? Int, json["pending"] as? Int, run.error)
    }

    /// Creates a library on `catalog` with its store under `prefix`.
    static func initialized(_ catalog: String, _ s3: S3CommandStore, prefix: String = "lib") throws {
        let created = try LivePairBinary.run(
            ["library", "init", "--catalog", catalog, "--store", s3.url(prefix)], environment: s3.environment)
        try #require(created.status == 0, "\(created.error)")
    }

    @Test("an unreachable catalog: init and import exit 1 naming the catalog's server; nothing reaches the bucket")
    func catalogUnreachable() throws {
        let s3 = try S3CommandStore("fault-catalog")
        let port = try LoopbackPort.closed()
        let catalog = "postgresql://postgres@127.0.0.1:\(port)/livepair?connect_timeout=5"
        let options = ["--catalog", catalog, "--store", s3.url("lib")]
        for arguments in [["library", "init"], ["import", "--owner", "alice", Self.still, Self.movie]] {
            let run = try LivePairBinary.run(arguments + options, environment: s3.environment)
            #expect(run.status == 1, "\(arguments): \(run.error)")
            #expect(run.error.contains("catalog: PostgreSQL connection error"), "\(run.error)")
            #expect(run.error.contains("port \(port) failed: Connection refused"), "\(run.error)")
        }
        #expect(try s3.keys().isEmpty, "no marker and no resource was written")
    }

    @Test("S3 down (nothing listening): init creates no catalog, import stores nothing; both exit 1 naming endpoint and bucket")
    func storeDown() throws {
        let s3 = try S3CommandStore("fault-down")
        let port = try LoopbackPort.closed()
        var down = s3.environment
        down["LIVEPAIR_S3_ENDPOINT"] = "http://127.0.0.1:\(port)"
        let expected = "S3 GET http://127.0.0.1:\(port) bucket '\(s3.bucket)' key 'lib/.library': no answer from the server"

        let fresh = try PostgresTestServer.freshSchemaURL()
        let failedInit = try LivePairBinary.run(["library", "init", "--catalog", fresh, "--store", s3.url("lib")], environment: down)
        #expect(failedInit.status == 1)
        #expect(failedInit.error.contains(expected), "\(failedInit.error)")
        let afterInit = try Self.listed(fresh, s3.url("lib"), s3)
        #expect(afterInit.status == 1)
        #expect(afterInit.error.contains("has no LivePair catalog"), "the failed init created no catalog: \(afterInit.error)")

        try Self.initialized(fresh, s3)
        let failedImport = try LivePairBinary.run(
            ["import", "--owner", "alice", Self.still, Self.movie, "--catalog", fresh, "--store", s3.url("lib")], environment: down)
        #expect(failedImport.status == 1)
        #expect(failedImport.error.contains(expected), "\(failedImport.error)")
        let afterImport = try Self.listed(fresh, s3.url("lib"), s3)
        #expect(afterImport.count == 0 && afterImport.pending == 0, "\(afterImport)")
        #expect(try s3.keys() == ["lib/.library"])
    }

    @Test("a wrong secret (403): init creates no catalog, import stores nothing; the secret is never printed")
    func wrongSecret() throws {
        let s3 = try S3CommandStore("fault-secret")
        var wrong = s3.environment
        wrong["AWS_SECRET_ACCESS_KEY"] = "not-the-secret-Qx7"
        let catalog = try PostgresTestServer.freshSchemaURL()
        let options = ["--catalog", catalog, "--store", s3.url("lib")]

        let failedInit = try LivePairBinary.run(["library", "init"] + options, environment: wrong)
        #expect(failedInit.status == 1)
        #expect(try Self.listed(catalog, s3.url("lib"), s3).error.contains("has no LivePair catalog"))

        try Self.initialized(catalog, s3)
        let failedImport = try LivePairBinary.run(["import", "--owner", "alice", Self.still, Self.movie] + options, environment: wrong)
        #expect(failedImport.status == 1)
        for run in [failedInit, failedImport] {
            #expect(run.error.contains("S3 GET \(s3.server.endpoint) bucket '\(s3.bucket)'"), "\(run.error)")
            #expect(run.error.contains("access denied"), "\(run.error)")
            #expect(run.error.contains("HTTP 403 SignatureDoesNotMatch"), "\(run.error)")
            #expect(!run.error.contains("not-the-secret-Qx7") && !run.output.contains("not-the-secret-Qx7"))
            #expect(!run.error.contains(s3.server.secretAccessKey))
        }
        let after = try Self.listed(catalog, s3.url("lib"), s3)
        #expect(after.count == 0 && after.pending == 0, "\(after)")
        #expect(try s3.keys() == ["lib/.library"])
    }

    @Test("uploads refused mid-run (keys that may read but not write): each file fails, no row and no object is left")
    func uploadsRefused() throws {
        let s3 = try S3CommandStore("fault-readonly")
        let catalog = try PostgresTestServer.freshSchemaURL()
        try Self.initialized(catalog, s3)
        var reader = s3.environment
        reader["AWS_ACCESS_KEY_ID"] = s3.server.readerAccessKeyID
        reader["AWS_SECRET_ACCESS_KEY"] = s3.server.readerSecretAccessKey
        let run = try LivePairBinary.run(
            ["import", "--owner", "alice", "--json", Self.still, Self.movie, "--catalog", catalog, "--store", s3.url("lib")],
            environment: reader)
        #expect(run.status == 1, "\(run.error)")
        let report = try LivePairBinary.json(run.output)
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 2 && summary["imported"] as? Int == 0, "\(summary)")
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.count == 2)
        for file in files {
            #expect(file["outcome"] as? String == "error")
            let message = try #require(file["error"] as? String)
            #expect(message.contains("S3 PUT \(s3.server.endpoint) bucket '\(s3.bucket)'"), "\(message)")
            #expect(message.contains("HTTP 403 AccessDenied"), "\(message)")
        }
        let after = try Self.listed(catalog, s3.url("lib"), s3)
        #expect(after.count == 0 && after.pending == 0, "\(after)")
        #expect(try s3.keys() == ["lib/.library"])
    }

    @Test("a missing bucket: init exits 1 naming the bucket, creates no catalog and no bucket")
    func bucketMissing() throws {
        let s3 = try S3CommandStore("fault-bucket")
        let missing = SeaweedFSTestServer.uniqueBucketName("missing")
        let catalog = try PostgresTestServer.freshSchemaURL()
        let run = try LivePairBinary.run(
            ["library", "init", "--catalog", catalog, "--store", "s3://\(missing)/lib"], environment: s3.environment)
        #expect(run.status == 1)
        #expect(
            run.error.contains("S3 GET \(s3.server.endpoint) bucket '\(missing)' key 'lib/.library': the bucket does not exist"),
            "\(run.error)")
        #expect(try Self.listed(catalog, s3.url("lib"), s3).error.contains("has no LivePair catalog"))
        #expect(throws: S3Error.self) { try s3.client.list(bucket: missing) }
    }
}
