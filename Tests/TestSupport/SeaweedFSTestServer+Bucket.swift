import LivePairS3

extension SeaweedFSTestServer {
    /// A client of this test process's SeaweedFS server (with its administrator keys) and a new
    /// bucket on it, named from `label`.
    public static func clientWithNewBucket(_ label: String) throws -> (client: S3Client, bucket: String) {
        let server = try shared()
        let client = try S3Client(
            configuration: S3Configuration(
                endpoint: server.endpoint, region: server.region,
                credentials: S3Credentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey)))
        let bucket = uniqueBucketName(label)
        try client.createBucket(bucket)
        return (client, bucket)
    }
}
