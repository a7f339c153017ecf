import Foundation
import LivePairS3
import TestSupport
import Testing

/// An S3 store for the CLI tests: a fresh bucket on the test SeaweedFS server, and the environment
/// the `livepair` executable reads its endpoint and keys from.
struct S3CommandStore {
    let server: SeaweedFSTestServer
    let client: S3Client
    let bucket: String
    /// `AWS_*`, `LIVEPAIR_S3_ENDPOINT` and a cache folder of its own.
    let environment: [String: String]

    init(_ label: String) throws {
        server = try SeaweedFSTestServer.shared()
        client = try S3Client(
            configuration: S3Configuration(
                endpoint: server.endpoint, region: server.region,
                credentials: S3Credentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey)))
        bucket = SeaweedFSTestServer.uniqueBucketName(label)
        try client.createBucket(bucket)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("s3-cache-\(UUID().uuidString)").path
        environment = [
            "AWS_ACCESS_KEY_ID": server.accessKeyID, "AWS_SECRET_ACCESS_KEY": server.secretAccessKey,
            "AWS_REGION": server.region, "LIVEPAIR_S3_ENDPOINT": server.endpoint, "LIVEPAIR_S3_CACHE": cache,
        ]
    }

    /// `s3://BUCKET/PREFIX`.
    func url(_ prefix: String) -> String { "s3://\(bucket)/\(prefix)" }

    /// Every object key under `prefix`, sorted.
    func keys(_ prefix: String = "") throws -> [String] {
        try client.list(bucket: bucket, prefix: prefix).map(\.key).sorted()
    }
}

/// The SHA-256 of a file, in lowercase hex, by `sha256sum` (another implementation than the store's).
enum SHA256Hex {
    static func of(file path: String) throws -> String {
        let text = try ChildProcess.run("/usr/bin/sha256sum", [path]).outputText
        return try #require(text.split(separator: " ").first.map(String.init))
    }
}
