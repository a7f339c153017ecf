import Foundation
@testable import LivePairLibrary
import LivePairS3
import Synchronization
import TestSupport
import Testing

/// Opening a library on an S3 store lists one shard of its prefix, not the whole prefix: the cost
/// of an open does not grow with the bucket. The whole prefix is swept on request.
@Suite struct StorageS3OpenSweepTests {
    @Test func openingAStoreWithManyObjectsListsOneShard() throws {
        let store = try S3StoreTestSupport.makeStore("s3open")
        let directory = try makeTemporaryDirectory()
        let configuration = LibraryConfiguration(orphanGracePeriod: 3600)
        _ = try PhotoLibrary.open(at: directory, store: store, configuration: configuration)
        // 400 uploads of batches that never committed (young, so no sweep may remove them).
        let count = 400
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            if (try? store.store(data: Array("uncommitted upload \(index)".utf8))) == nil {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        let stored = try store.allDigests()
        #expect(stored.count == count)
        let perShard = Dictionary(grouping: stored) { $0.hex.prefix(2) }.mapValues(\.count)
        let largestShard = try #require(perShard.values.max())

        let before = store.client.firstAttemptCounts
        let reopened = try PhotoLibrary.open(at: directory, store: store, configuration: configuration)
        let afterOpening = store.client.firstAttemptCounts
        let opening = afterOpening.since(before)
        #expect(opening.lists == 1, "an open sends one list request: \(opening)")
        #expect(opening.listedObjects <= largestShard, "an open lists one shard, not the \(count) objects: \(opening)")

        // One shard: exactly the stored objects whose digests start with its two hex digits.
        let shard: UInt8 = 0x2a
        #expect(Set(try store.digests(inShard: shard)) == Set(stored.filter { $0.hex.hasPrefix("2a") }))
        // The maintenance sweep lists them all, and removes nothing young.
        #expect(try reopened.removeUnreferencedResources(olderThan: 3600) == 0)
        #expect(store.client.firstAttemptCounts.since(afterOpening).listedObjects >= count)
        #expect(try store.allDigests().count == count)
    }
}
