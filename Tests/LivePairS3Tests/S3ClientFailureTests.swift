import Foundation
import LivePairS3
import Testing
import TestSupport

/// Wrong secret, missing bucket, server down, bad configuration: typed errors naming the endpoint
/// and bucket, never the secret.
@Suite struct S3ClientFailureTests {
    @Test func aWrongSecretIsATyped403WithoutTheSecretInTheMessage() throws {
        let (good, _) = try S3TestClient.withBucket("secret")
        let bucket = SeaweedFSTestServer.uniqueBucketName("secret")
        try good.createBucket(bucket)
        let wrongSecret = "not-the-secret-\(UInt32.random(in: 0...UInt32.max))"
        let (client, server) = try S3TestClient.make(secret: wrongSecret)

        let error = try #require(S3TestClient.error { try client.put(bucket: bucket, key: "k", body: .bytes([1, 2, 3])) })
        #expect(error.kind == .accessDenied)
        #expect(error.status == 403)
        #expect(error.code == "SignatureDoesNotMatch")
        #expect(error.attempts == 1)
        let text = "\(error) \(String(reflecting: error)) \(client.configuration)"
        #expect(!text.contains(wrongSecret))
        #expect(!text.contains(server.secretAccessKey))
        #expect(error.description.contains(server.endpoint))
        #expect(error.description.contains("bucket '\(bucket)'"))
        #expect(S3TestClient.error { _ = try client.get(bucket: bucket, key: "k") }?.kind == .accessDenied)
        // Nothing was written.
        #expect(try good.list(bucket: bucket).isEmpty)
    }

    @Test func aMissingBucketIsNamed() throws {
        let (client, server) = try S3TestClient.make()
        let bucket = SeaweedFSTestServer.uniqueBucketName("missing")
        let put = S3TestClient.error { try client.put(bucket: bucket, key: "k", body: .bytes([1])) }
        #expect(put?.kind == .noSuchBucket)
        #expect(put?.status == 404)
        #expect(put?.description.contains("\(server.endpoint) bucket '\(bucket)' key 'k'") == true)
        #expect(S3TestClient.error { _ = try client.list(bucket: bucket) }?.kind == .noSuchBucket)
        #expect(S3TestClient.error { _ = try client.get(bucket: bucket, key: "k") }?.kind == .noSuchBucket)
    }

    @Test func aServerThatIsDownIsRetriedThenReportedUnreachable() throws {
        let port = try LoopbackPort.closed()
        let endpoint = "http://127.0.0.1:\(port)"
        let (client, _) = try S3TestClient.make(
            endpoint: endpoint, retry: S3RetryPolicy(attempts: 3, initialDelayMilliseconds: 100))
        let started = Date()
        let error = try #require(S3TestClient.error { _ = try client.get(bucket: "photos", key: "k") })
        let elapsed = Date().timeIntervalSince(started)
        #expect(error.kind == .unreachable)
        #expect(error.attempts == 3)
        #expect(error.status == 0)
        #expect(error.description.contains("S3 GET \(endpoint) bucket 'photos' key 'k'"))
        #expect(error.description.contains("after 3 attempts"))
        // Every attempt is counted; the retries apart, so that counts of what callers asked for
        // do not depend on a busy server's failures.
        #expect(client.requestCounts == S3RequestCounts(wholeGets: 3))
        #expect(client.firstAttemptCounts == S3RequestCounts(wholeGets: 1))
        // Waited 100 ms and 200 ms (plus up to half again) between the attempts: a lower bound,
        // which a busy machine can only exceed (no upper bound: load may delay any step).
        #expect(elapsed >= 0.3)
    }

    @Test func invalidBucketNamesAndEndpointsAreRefusedBeforeAnyRequest() throws {
        let (client, _) = try S3TestClient.make()
        for name in ["ab", "Upper", "-leading", "under_score", String(repeating: "a", count: 64)] {
            #expect(S3TestClient.error { try client.createBucket(name) }?.kind == .invalidRequest)
        }
        #expect(S3TestClient.error { try client.put(bucket: "photos", key: "", body: .bytes([])) }?.kind == .invalidRequest)
        let credentials = S3Credentials(accessKeyID: "id", secretAccessKey: "secret")
        for endpoint in ["127.0.0.1:9000", "ftp://host", "http://host/path"] {
            #expect(throws: S3Error.self) { try S3Client(configuration: S3Configuration(endpoint: endpoint, credentials: credentials)) }
        }
    }

    @Test func credentialsNeverShowTheirSecret() {
        let credentials = S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI")
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in ["\(credentials)", String(reflecting: credentials), dumped] {
            #expect(text.contains("AKIDEXAMPLE"))
            #expect(!text.contains("wJalrXUtnFEMI"))
        }
    }
}
