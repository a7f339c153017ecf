import Foundation
import LivePairS3
import TestSupport

/// The S3 store of one multi-node run: a new bucket on this test process's SeaweedFS server, the
/// environment the node processes get (endpoint and keys), and the count of resource objects.
struct MultiNodeBucket {
    /// The key prefix of the store in the bucket.
    static let prefix = "nodes/"
    let bucket: String
    let endpoint: String
    let environment: [String: String]
    private let client: S3Client

    /// A new bucket on `server` (the test process's shared server when nil).
    init(on server: SeaweedFSTestServer? = nil) throws {
        let server = try server ?? SeaweedFSTestServer.shared()
        client = try S3Client(
            configuration: S3Configuration(
                endpoint: server.endpoint, region: server.region,
                credentials: S3Credentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey),
                retry: S3RetryPolicy(attempts: 4, initialDelayMilliseconds: 100)))
        bucket = SeaweedFSTestServer.uniqueBucketName("nodes")
        try client.createBucket(bucket)
        endpoint = server.endpoint
        environment = [
            "LIVEPAIR_S3_ENDPOINT": server.endpoint, "AWS_ACCESS_KEY_ID": server.accessKeyID,
            "AWS_SECRET_ACCESS_KEY": server.secretAccessKey, "AWS_REGION": server.region,
        ]
        // The read-back opens the library in this process, which takes the keys from its
        // environment: the same keys every test of this process uses for this server.
        for (name, value) in environment where name.hasPrefix("AWS_") { setenv(name, value, 0) }
    }

    /// `s3://BUCKET/nodes/`.
    var storeURL: String { "s3://\(bucket)/\(Self.prefix)" }

    /// Deletes the bucket with its objects (SeaweedFS frees their volumes at once).
    func drop() { try? client.deleteBucket(bucket) }

    /// The resource objects in the store: keys `nodes/XX/<64 hex digits>` (the library's marker
    /// and anything else left out).
    func resourceObjectCount() throws -> Int {
        let hex = Set("0123456789abcdef")
        return try client.list(bucket: bucket, prefix: Self.prefix).filter { object in
            let name = object.key.split(separator: "/").last.map(String.init) ?? ""
            return name.count == 64 && name.allSatisfy(hex.contains)
        }.count
    }
}
