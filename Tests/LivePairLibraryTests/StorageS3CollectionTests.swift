import Foundation
import Synchronization
@testable import LivePairLibrary
import LivePairS3
import TestSupport
import Testing

/// Several writers on one bucket: concurrent stores of the same content, the garbage collection's
/// grace period, and a server that is down.
@Suite struct StorageS3CollectionTests {
    @Test func writersStoringTheSameContentAtOnceAllSucceedWithOneObject() throws {
        let store = try S3StoreTestSupport.makeStore("s3race")
        let bytes = try SampleMedia.bytes("live/train.jpg")
        let results = Mutex<[StoredResource]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            if let stored = try? store.store(data: bytes) { results.withLock { $0.append(stored) } }
        }
        let stored = results.withLock { $0 }
        #expect(stored.count == 6)
        #expect(Set(stored).count == 1)
        #expect(try store.client.list(bucket: store.bucket).count == 1)
        let first = try #require(stored.first, "no writer succeeded")
        #expect(ContentDigest.of(try store.client.get(bucket: store.bucket, key: store.key(for: first.digest))) == first.digest)
    }

    @Test func theCollectionKeepsYoungUnreferencedObjectsAndNeverReferencedOnes() throws {
        let store = try S3StoreTestSupport.makeStore("s3gc")
        let library = try PhotoLibrary.open(
            at: try makeTemporaryDirectory(), store: store, configuration: LibraryConfiguration(orphanGracePeriod: 3600))
        let imported = try importPair(SamplePairs.train, into: library)
        let used = try library.assetResources(forLocalIdentifier: imported.localIdentifier).map(\.digest)
        #expect(used.count == 2)
        // Another node's upload whose batch has not committed yet.
        let pending = try store.store(data: Array("uploaded by another node, not committed yet".utf8))

        #expect(try library.removeUnreferencedResources(olderThan: 3600) == 0)
        #expect(store.contains(pending.digest))
        Thread.sleep(forTimeInterval: 1.2)
        #expect(try library.removeUnreferencedResources(olderThan: 1) == 1)
        #expect(!store.contains(pending.digest))
        #expect(used.allSatisfy(store.contains))
        #expect(Set(try store.allDigests()) == Set(used))
    }

    @Test func aServerThatIsDownIsATypedStoreError() throws {
        let server = try SeaweedFSTestServer.shared()
        let client = try S3Client(
            configuration: S3Configuration(
                endpoint: "http://127.0.0.1:1", region: server.region,
                credentials: S3Credentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey),
                retry: S3RetryPolicy(attempts: 2, initialDelayMilliseconds: 10)))
        let store = try S3ResourceStore(client: client, bucket: "photos", prefix: "", cacheDirectory: try makeTemporaryDirectory("s3-cache"))
        #expect {
            _ = try store.store(fileAt: SampleMedia.path("live/train.jpg"))
        } throws: { error in
            guard case .objectStore(let s3Error) = error as? ResourceStoreError else { return false }
            return s3Error.kind == .unreachable && s3Error.attempts == 2
        }
        #expect(!store.contains(ContentDigest.of([1])))
    }
}
