import Foundation
@testable import LivePairLibrary
import LivePairS3
import TestSupport

/// S3 resource stores on this test process's SeaweedFS server, each in a bucket of its own.
enum S3StoreTestSupport {
    /// A store in a new bucket, caching fetched copies in a new temporary folder.
    static func makeStore(_ label: String, prefix: String = "resources/") throws -> S3ResourceStore {
        let client = try makeClient()
        let bucket = SeaweedFSTestServer.uniqueBucketName(label)
        try client.createBucket(bucket)
        return try S3ResourceStore(client: client, bucket: bucket, prefix: prefix, cacheDirectory: try makeTemporaryDirectory("s3-cache"))
    }

    /// A client of the test server, retrying as a deployment would (the server answers 500 for a
    /// moment while it grows a bucket's volumes).
    static func makeClient() throws -> S3Client {
        let server = try SeaweedFSTestServer.shared()
        return try S3Client(
            configuration: S3Configuration(
                endpoint: server.endpoint, region: server.region,
                credentials: S3Credentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey),
                retry: S3RetryPolicy(attempts: 4, initialDelayMilliseconds: 100)))
    }

    /// True when the library tests run with their resources on S3 (`LIVEPAIR_TEST_STORE=s3`).
    static let librariesUseS3 = ProcessInfo.processInfo.environment["LIVEPAIR_TEST_STORE"] == "s3"
}

extension S3StoreTestSupport {
    /// The S3 store of the library at `path`: a prefix of its own (`<uuid>/resources/`) in the one
    /// bucket all libraries of this test process share (as a deployment's libraries would; a bucket
    /// per library made the server grow volumes per bucket until the disk had none left). The bucket
    /// and prefix are named in the file `<path>.s3-store` (beside the directory, which must hold only
    /// the library) so that reopening the library finds the same store.
    static func store(forLibraryAt path: String) throws -> S3ResourceStore {
        let marker = path + ".s3-store"
        if let text = try? String(contentsOfFile: marker, encoding: .utf8) {
            let lines = text.split(separator: "\n").map(String.init)
            return try S3ResourceStore(client: try makeClient(), bucket: lines[0], prefix: lines[1], cacheDirectory: path + ".s3-cache")
        }
        let bucket = try sharedLibraryBucket.get()
        let prefix = UUID().uuidString.lowercased() + "/resources/"
        try (bucket + "\n" + prefix + "\n").write(toFile: marker, atomically: true, encoding: .utf8)
        return try S3ResourceStore(client: try makeClient(), bucket: bucket, prefix: prefix, cacheDirectory: path + ".s3-cache")
    }

    /// The bucket every library store of this process uses, made on first use.
    private static let sharedLibraryBucket: Result<String, any Error> = Result {
        let bucket = SeaweedFSTestServer.uniqueBucketName("libraries")
        try makeClient().createBucket(bucket)
        return bucket
    }
}
