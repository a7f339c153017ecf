import Foundation
import LivePairCrypto
import LivePairS3
import Testing
import TestSupport

/// PUT, GET, HEAD, DELETE and write-once PUT against a real SeaweedFS server, with the bytes of
/// real sample files.
@Suite struct S3ClientObjectTests {
    static let movie = "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"

    @Test func aFileStreamedFromItsDescriptorComesBackByteForByte() throws {
        let (client, bucket) = try S3TestClient.withBucket("roundtrip")
        let path = SampleMedia.path(Self.movie)
        let expected = try SampleMedia.bytes(Self.movie)
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }

        let put = try client.put(
            bucket: bucket, key: "movies/clip.mov",
            body: .file(descriptor: descriptor, offset: 0, length: UInt64(expected.count)), contentType: "video/quicktime")
        #expect(put.etag?.isEmpty == false)

        #expect(try client.get(bucket: bucket, key: "movies/clip.mov") == expected)
        let info = try client.head(bucket: bucket, key: "movies/clip.mov")
        #expect(info.size == UInt64(expected.count))
        #expect(info.contentType == "video/quicktime")
        #expect(info.etag == put.etag)
        let now = Int64(Date().timeIntervalSince1970)
        #expect(abs((info.lastModified ?? 0) - now) < 120)

        try client.delete(bucket: bucket, key: "movies/clip.mov")
        #expect(S3TestClient.error { _ = try client.head(bucket: bucket, key: "movies/clip.mov") }?.kind == .noSuchKey)
        let missing = S3TestClient.error { _ = try client.get(bucket: bucket, key: "movies/clip.mov") }
        #expect(missing?.kind == .noSuchKey)
        #expect(missing?.status == 404)
        #expect(missing?.code == "NoSuchKey")
    }

    @Test func aPartOfAFileIsSentFromItsOffset() throws {
        let (client, bucket) = try S3TestClient.withBucket("filepart")
        let path = SampleMedia.path(Self.movie)
        let expected = try SampleMedia.bytes(Self.movie)
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try client.put(bucket: bucket, key: "part", body: .file(descriptor: descriptor, offset: 1_000, length: 70_000))
        #expect(try client.get(bucket: bucket, key: "part") == Array(expected[1_000..<71_000]))
    }

    @Test func aWriteOncePutOfAnExistingKeyFailsWith412AndLeavesTheObject() throws {
        let (client, bucket) = try S3TestClient.withBucket("writeonce")
        let first: [UInt8] = Array("first version".utf8)
        try client.put(bucket: bucket, key: "once", body: .bytes(first), writeOnce: true)

        let error = S3TestClient.error {
            try client.put(bucket: bucket, key: "once", body: .bytes(Array("second version".utf8)), writeOnce: true)
        }
        #expect(error?.kind == .preconditionFailed)
        #expect(error?.status == 412)
        #expect(error?.attempts == 1)
        #expect(try client.get(bucket: bucket, key: "once") == first)
    }

    @Test func aBodyThatDoesNotMatchItsDigestIsRefused() throws {
        let (client, bucket) = try S3TestClient.withBucket("baddigest")
        let error = S3TestClient.error {
            try client.put(bucket: bucket, key: "wrong", body: .bytes([1, 2, 3]), contentSHA256: SHA256.hash([1, 2, 4]))
        }
        #expect(error?.kind == .checksumMismatch)
        #expect(error?.status == 400)
        #expect(S3TestClient.error { _ = try client.head(bucket: bucket, key: "wrong") }?.kind == .noSuchKey)
    }

    @Test func anEmptyObjectRoundTrips() throws {
        let (client, bucket) = try S3TestClient.withBucket("empty")
        try client.put(bucket: bucket, key: "nothing", body: .bytes([]))
        #expect(try client.get(bucket: bucket, key: "nothing") == [])
        #expect(try client.head(bucket: bucket, key: "nothing").size == 0)
    }

    @Test func creatingAnExistingBucketAgainSucceeds() throws {
        let (client, bucket) = try S3TestClient.withBucket("twice")
        try client.createBucket(bucket)
        try client.put(bucket: bucket, key: "k", body: .bytes([42]))
        #expect(try client.get(bucket: bucket, key: "k") == [42])
    }
}
