import Foundation
import LivePairLibrary
import TestSupport
import Testing

/// The directory store's subdirectories (`ab/` for digests starting `ab`) are made as content first
/// needs them, by every way content arrives (copy, data, link, deferred link), and a store laid out
/// by an older build (all 256 made up front) is used as it is.
@Suite struct StorageShardLayoutTests {
    /// The entries of the store's root, sorted.
    static func rootEntries(_ store: DirectoryStore) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted()
    }

    @Test func aNewStoreHasNoSubdirectoryUntilContentNeedsOne() throws {
        let scratch = try StorageScratchDirectory("shards-new")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        #expect(try Self.rootEntries(store) == [".tmp"])

        let first = try store.store(data: Array("first".utf8))
        let firstShard = String(first.digest.hex.prefix(2))
        #expect(try Self.rootEntries(store) == [".tmp", firstShard])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("resources/\(firstShard)")) == [String(first.digest.hex.dropFirst(2))])

        // Each way of storing makes the subdirectory it needs: from a file, by a link, deferred.
        let fromFile = try store.store(fileAt: SampleMedia.path("live/train.mov"))
        let linked = try store.link(fileAt: try scratch.write(Array("linked".utf8), to: "linked.bin"))
        let deferred = try store.link(fileAt: try scratch.write(Array("deferred".utf8), to: "deferred.bin"), durability: .deferred)
        try store.flush([deferred.digest])
        let all = [first, fromFile, linked, deferred]
        #expect(fromFile.digest.hex == SampleMedia.entry("live/train.mov")?.sha256)
        #expect(try Self.rootEntries(store) == ([".tmp"] + Set(all.map { String($0.digest.hex.prefix(2)) }).sorted()))
        #expect(Set(try store.allDigests()) == Set(all.map(\.digest)))
        for resource in all { #expect(store.contains(resource.digest)) }
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: store.path(for: linked.digest)))) == Array("linked".utf8))

        // Removing the last file of a subdirectory keeps the subdirectory; storing again reuses it.
        try store.remove(first.digest)
        #expect(!store.contains(first.digest))
        #expect(try Self.rootEntries(store).contains(firstShard))
        #expect(try store.store(data: Array("first".utf8)) == first)
        #expect(try DirectoryStore(directory: scratch.file("resources")).allDigests().count == 4)
    }

    @Test func aStoreLaidOutByAnOlderBuildIsUsedAsItIs() throws {
        let scratch = try StorageScratchDirectory("shards-old")
        defer { scratch.remove() }
        // What builds before lazy subdirectories made: the root, .tmp and all 256 subdirectories.
        let root = scratch.file("resources")
        try FileManager.default.createDirectory(atPath: root + "/.tmp", withIntermediateDirectories: true)
        let digits = Array("0123456789abcdef")
        for high in digits { for low in digits { try FileManager.default.createDirectory(atPath: "\(root)/\(high)\(low)", withIntermediateDirectories: false) } }
        let store = try DirectoryStore(directory: root)
        let stored = try store.store(data: Array("old layout".utf8))
        #expect(try Self.rootEntries(store).count == 257)
        #expect(try store.allDigests() == [stored.digest])
    }

    @Test func aStoreWhoseTemporaryDirectoryIsMissingGetsItBackOnOpen() throws {
        let scratch = try StorageScratchDirectory("shards-tmp")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let stored = try store.store(data: Array("kept".utf8))
        try FileManager.default.removeItem(atPath: scratch.file("resources/.tmp"))
        let reopened = try DirectoryStore(directory: scratch.file("resources"))
        #expect(try Self.rootEntries(reopened) == [".tmp", String(stored.digest.hex.prefix(2))])
        #expect(try reopened.allDigests() == [stored.digest])
    }
}
