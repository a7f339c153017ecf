import Foundation
import LivePairS3
import Testing
import TestSupport

/// Ranged GETs (206) into memory and into a file, and ranges past the end (416).
@Suite struct S3ClientRangeTests {
    static let still = "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg"

    @Test func aRangeReturnsExactlyThoseBytes() throws {
        let (client, bucket) = try S3TestClient.withBucket("range")
        let bytes = try SampleMedia.bytes(Self.still)
        try client.put(bucket: bucket, key: "still.jpeg", body: .bytes(bytes), contentType: "image/jpeg")

        #expect(try client.get(bucket: bucket, key: "still.jpeg", range: 0...1) == [0xFF, 0xD8])
        #expect(try client.get(bucket: bucket, key: "still.jpeg", range: 100_000...165_535) == Array(bytes[100_000...165_535]))
        let size = UInt64(bytes.count)
        // An end past the object's end is cut to it.
        #expect(try client.get(bucket: bucket, key: "still.jpeg", range: (size - 5)...(size + 1_000)) == Array(bytes.suffix(5)))
    }

    @Test func aRangeStartingPastTheEndFailsWith416() throws {
        let (client, bucket) = try S3TestClient.withBucket("range416")
        try client.put(bucket: bucket, key: "small", body: .bytes(Array("0123456789".utf8)))
        let error = S3TestClient.error { _ = try client.get(bucket: bucket, key: "small", range: 10...20) }
        #expect(error?.kind == .rangeNotSatisfiable)
        #expect(error?.status == 416)
        #expect(error?.code == "InvalidRange")
    }

    @Test func aRangeIsWrittenIntoAFileAtAnOffset() throws {
        let (client, bucket) = try S3TestClient.withBucket("rangefile")
        let bytes = try SampleMedia.bytes(Self.still)
        try client.put(bucket: bucket, key: "still.jpeg", body: .bytes(bytes))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("s3-range-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        let written = try client.get(bucket: bucket, key: "still.jpeg", range: 2_000...2_999_999, into: descriptor, at: 16)
        #expect(written == UInt64(bytes.count - 2_000))
        let copy = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(copy.count == 16 + bytes.count - 2_000)
        #expect(Array(copy[16...]) == Array(bytes[2_000...]))
    }
}
