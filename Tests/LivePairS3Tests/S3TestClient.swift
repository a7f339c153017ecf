import LivePairS3
import Testing
import TestSupport

/// Clients and buckets on this process's SeaweedFS server.
enum S3TestClient {
    /// A client signed with the server's identity (or with `secret` instead of its secret key).
    static func make(
        secret: String? = nil, endpoint: String? = nil, retry: S3RetryPolicy = S3RetryPolicy(attempts: 2, initialDelayMilliseconds: 50)
    ) throws -> (client: S3Client, server: SeaweedFSTestServer) {
        let server = try SeaweedFSTestServer.shared()
        let credentials = S3Credentials(accessKeyID: server.accessKeyID, secretAccessKey: secret ?? server.secretAccessKey)
        let configuration = S3Configuration(
            endpoint: endpoint ?? server.endpoint, region: server.region, credentials: credentials, retry: retry)
        return (try S3Client(configuration: configuration), server)
    }

    /// A client and a new, empty bucket of its own.
    static func withBucket(_ label: String) throws -> (client: S3Client, bucket: String) {
        let (client, _) = try make()
        let bucket = SeaweedFSTestServer.uniqueBucketName(label)
        try client.createBucket(bucket)
        return (client, bucket)
    }

    /// The error `body` throws, which must be an `S3Error` (another error is recorded as an issue);
    /// nil when it throws none.
    static func error(_ body: () throws -> Void) -> S3Error? {
        do {
            try body()
            return nil
        } catch let error as S3Error {
            return error
        } catch {
            Issue.record("not an S3Error: \(error)")
            return nil
        }
    }
}
