import Foundation
import LivePairLibrary
import TestSupport
import Testing

/// `StoreDurability.deferred` and `ResourceStore.flush`: the group commit's batched file durability.
@Suite struct StorageDeferredDurabilityTests {
    private static func inode(_ path: String) throws -> UInt64 {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
    }

    /// A deferred store puts the complete file in place (no temporary left); `flush` makes it durable
    /// and throws `notFound` for a digest that is not stored.
    @Test func deferredStoreThenFlush() throws {
        let scratch = try StorageScratchDirectory("deferred")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let sample = SampleMedia.path("live/IMG_3582.mov")
        let stored = try store.store(fileAt: sample, durability: .deferred)
        #expect(stored.digest.hex == SampleMedia.entry("live/IMG_3582.mov")?.sha256)
        #expect(FileManager.default.contentsEqual(atPath: store.path(for: stored.digest), andPath: sample))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("resources/.tmp")).isEmpty)
        try store.flush([stored.digest, stored.digest])
        let missing = ContentDigest.of([1, 2, 3])
        #expect(throws: ResourceStoreError.notFound(missing)) { try store.flush([stored.digest, missing]) }
    }

    /// A deferred store never replaces an intact stored file (it may be flushed and committed
    /// already): the second store reuses it (same inode). A damaged one (wrong size) is replaced.
    @Test func deferredStoreKeepsIntactFilesAndReplacesDamagedOnes() throws {
        let scratch = try StorageScratchDirectory("deferred-replace")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let sample = SampleMedia.path("live/train.mov")
        let first = try store.store(fileAt: sample)
        let path = store.path(for: first.digest)
        let before = try Self.inode(path)
        #expect(try store.store(fileAt: sample, durability: .deferred) == first)
        #expect(try Self.inode(path) == before)

        // Cut short, as a file renamed in but never flushed may be after a power loss.
        _ = chmod(path, 0o644)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 1000)
        try handle.close()
        #expect(try store.store(fileAt: sample, durability: .deferred) == first)
        #expect(FileManager.default.contentsEqual(atPath: path, andPath: sample))
        try store.flush([first.digest])
    }

    /// Deferred and immediate stores of the same new content from many threads at once: one
    /// intact file, no temporary left.
    @Test func concurrentDeferredStores() async throws {
        let scratch = try StorageScratchDirectory("deferred-concurrent")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let sample = SampleMedia.path("live/IMG_4580.HEIC")
        let results = try await withThrowingTaskGroup(of: StoredResource.self) { group in
            for index in 0..<8 {
                group.addTask {
                    index % 2 == 0
                        ? try store.store(fileAt: sample, durability: .deferred) : try store.store(fileAt: sample)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results).count == 1)
        let digest = try #require(results.first?.digest)
        try store.flush([digest])
        #expect(FileManager.default.contentsEqual(atPath: store.path(for: digest), andPath: sample))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("resources/.tmp")).isEmpty)
    }

    /// A deferred link shares the upload's inode (no bytes copied).
    @Test func deferredLinkSharesTheInode() throws {
        let scratch = try StorageScratchDirectory("deferred-link")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let upload = try scratch.write(try SampleMedia.bytes("live/train.jpg"), to: "upload.jpg")
        let stored = try store.link(fileAt: upload, durability: .deferred)
        try store.flush([stored.digest])
        #expect(try Self.inode(store.path(for: stored.digest)) == (try Self.inode(upload)))
    }
}
