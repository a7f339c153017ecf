import Foundation
import LivePairLibrary
import LivePairS3
import Testing
import TestSupport

@testable import LivePairServer

/// A serve node's local copies of the derivatives kept in the bucket are bounded like its cache of
/// fetched resources: past the limit the least recently used copy goes from the node's folder (the
/// object stays in the bucket) and is fetched again, byte for byte, when asked for.
@Suite struct ObjectStoreDerivativeCacheBoundTests {
    @Test func leastRecentlyUsedLocalCopyGoesAndComesBackFromTheBucket() throws {
        let (client, bucket) = try SeaweedFSTestServer.clientWithNewBucket("derivbound")
        let scratch = try TestScratch.folder("derivative-bound")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let store = try S3ResourceStore(client: client, bucket: bucket, prefix: "media/", cacheDirectory: scratch, cacheLimit: 1_000)
        let local = scratch + "/serve/derivatives"
        let cache = try ObjectStoreDerivativeCache(beside: store, localDirectory: local)
        #expect(cache.localBound.limit == 1_000)

        func make(_ key: String, byte: UInt8) throws -> String {
            let temporary = cache.temporaryPath(for: key)
            try Data(repeating: byte, count: 600).write(to: URL(fileURLWithPath: temporary))
            return try cache.insert(temporary, for: key)
        }
        let first = try make("a-b-still-96.jpg", byte: 1)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: first)
        // 1,200 bytes against 1,000: the copy unused for two minutes goes from the node's folder.
        let second = try make("a-b-placeholder.jpg", byte: 2)
        #expect(!FileManager.default.fileExists(atPath: first))
        #expect(FileManager.default.fileExists(atPath: second))
        #expect(Set(try client.list(bucket: bucket, prefix: "media.derivatives/").map(\.key))
            == ["media.derivatives/a-b-still-96.jpg", "media.derivatives/a-b-placeholder.jpg"])
        // Asked for again: fetched from the bucket, the same bytes; the second, used just now, stays.
        #expect(cache.fileWithoutWaiting(for: "a-b-still-96.jpg") == nil)
        let again = try #require(cache.file(for: "a-b-still-96.jpg"))
        #expect(FileManager.default.contents(atPath: again) == Data(repeating: 1, count: 600))
        #expect(FileManager.default.fileExists(atPath: second))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: local).filter { !$0.hasPrefix(".") })
            == ["a-b-still-96.jpg", "a-b-placeholder.jpg"])
    }
}
