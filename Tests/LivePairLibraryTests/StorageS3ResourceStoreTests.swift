import Foundation
import LivePair
import LivePairFormats
@testable import LivePairLibrary
import LivePairS3
import TestSupport
import Testing

/// `S3ResourceStore` against a real SeaweedFS server: content addresses, write-once storage,
/// ranged reads, cached local copies, removal, and the age the garbage collection goes by.
@Suite struct StorageS3ResourceStoreTests {
    static let still = "live/IMG_3582.HEIC"
    static let movie = "live/IMG_3582.mov"

    @Test func aFileIsStoredOnceUnderItsSHA256AndReadBackInRanges() throws {
        let store = try S3StoreTestSupport.makeStore("s3store")
        let expected = try SampleMedia.bytes(Self.movie)
        let stored = try store.store(fileAt: SampleMedia.path(Self.movie))
        #expect(stored.digest.hex == SampleMedia.entry(Self.movie)?.sha256)
        #expect(stored.size == UInt64(expected.count))
        #expect(store.key(for: stored.digest) == "resources/\(stored.digest.hex.prefix(2))/\(stored.digest.hex)")
        #expect(store.contains(stored.digest))

        // The same content again (from a file and from bytes): the same resource, one object.
        #expect(try store.store(fileAt: SampleMedia.path(Self.movie)) == stored)
        #expect(try store.store(data: expected) == stored)
        #expect(try store.allDigests() == [stored.digest])
        #expect(try store.client.list(bucket: store.bucket).map(\.key) == [store.key(for: stored.digest)])

        let source = try store.byteSource(for: stored.digest)
        #expect(source.size == stored.size)
        #expect(try source.read(at: 0, count: 12) == Array(expected[0..<12]))
        let tail = UInt64(expected.count - 1_000)
        #expect(try source.read(at: tail, count: 5_000) == Array(expected[(expected.count - 1_000)...]))
        #expect(try source.read(at: 1_000_000, count: 300_000) == Array(expected[1_000_000..<1_300_000]))
    }

    @Test func stillsAreIdentifiedFromRangedReadsAsFromTheFile() throws {
        let store = try S3StoreTestSupport.makeStore("s3identify")
        let stored = try store.store(fileAt: SampleMedia.path(Self.still))
        let identifier = ResourceIdentifier()
        let remote = identifier.identify(source: try store.byteSource(for: stored.digest), path: "remote.HEIC")
        let local = identifier.identify(path: SampleMedia.path(Self.still))
        #expect(remote.format == local.format)
        #expect(remote.contentIdentifier?.rawValue == "602FEBB7-6B59-4799-96E6-9C8484D873C7")
        #expect(remote.contentIdentifier == local.contentIdentifier)
    }

    @Test func aLocalCopyIsFetchedOnceAndMatchesTheDigest() throws {
        let store = try S3StoreTestSupport.makeStore("s3cache")
        let stored = try store.store(fileAt: SampleMedia.path(Self.still))
        let path = try store.localPath(for: stored.digest)
        #expect(path.hasPrefix(store.cacheDirectory + "/"))
        #expect(ContentDigest.of([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))) == stored.digest)
        #expect(try store.localPath(for: stored.digest) == path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.cacheDirectory) == [stored.digest.hex])
    }

    @Test func removedResourcesAreGoneAndMissingOnesAreNotFound() throws {
        let store = try S3StoreTestSupport.makeStore("s3remove")
        let stored = try store.store(data: Array("remove me".utf8))
        _ = try store.localPath(for: stored.digest)
        try store.remove(stored.digest)
        #expect(!store.contains(stored.digest))
        #expect(try store.allDigests().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.cacheDirectory).isEmpty)
        #expect(throws: ResourceStoreError.notFound(stored.digest)) { try store.remove(stored.digest) }
        #expect(throws: ResourceStoreError.notFound(stored.digest)) { _ = try store.byteSource(for: stored.digest) }
        #expect(throws: ResourceStoreError.notFound(stored.digest)) { _ = try store.localPath(for: stored.digest) }
        #expect(throws: ResourceStoreError.notFound(stored.digest)) { try store.flush([stored.digest]) }
    }

    @Test func aMissingBucketIsATypedErrorNamingIt() throws {
        let client = try S3StoreTestSupport.makeClient()
        let bucket = SeaweedFSTestServer.uniqueBucketName("nobucket")
        let store = try S3ResourceStore(client: client, bucket: bucket, prefix: "", cacheDirectory: try makeTemporaryDirectory("s3-cache"))
        do {
            _ = try store.store(data: [1, 2, 3])
            Issue.record("stored into a missing bucket")
        } catch {
            guard case .objectStore(let s3Error) = error else { return #expect(Bool(false), "\(error)") }
            #expect(s3Error.kind == .noSuchBucket)
            #expect(error.description.contains("bucket '\(bucket)'"))
        }
    }

    @Test func storingExistingContentAgainRenewsItsAge() throws {
        let store = try S3StoreTestSupport.makeStore("s3age")
        let stored = try store.store(data: Array("kept alive".utf8))
        Thread.sleep(forTimeInterval: 2.2)
        let before = try #require(store.secondsSinceWritten(stored.digest))
        #expect(before >= 2)
        _ = try store.store(data: Array("kept alive".utf8))
        let after = try #require(store.secondsSinceWritten(stored.digest))
        #expect(after < before)
        #expect(after <= 1)
    }
}
