import Foundation
import Testing
import TestSupport

@testable import LivePairLibrary

/// `ResourceStore.link(fileAt:knownContent:durability:)`: an upload hashed while it was spooled is
/// stored under that digest without a second hashing pass, and a digest or size that does not
/// match the bytes stores nothing.
struct StorageKnownContentTests {
    @Test func directoryStoreTakesTheKnownDigestAndChecksTheSize() throws {
        let scratch = try StorageScratchDirectory("known")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let bytes = try SampleMedia.bytes("live/IMG_3582.mov")
        let known = StoredResource(digest: ContentDigest.of(bytes), size: UInt64(bytes.count))
        let source = try scratch.write(bytes, to: "upload.bin")
        let stored = try store.link(fileAt: source, knownContent: known, durability: .immediate)
        #expect(stored == known)
        #expect(stored.digest.hex == SampleMedia.entry("live/IMG_3582.mov")?.sha256)
        var info = stat()
        #expect(stat(store.path(for: stored.digest), &info) == 0 && info.st_nlink == 2)  // linked, not copied
        #expect(FileManager.default.contentsEqual(atPath: store.path(for: stored.digest), andPath: SampleMedia.path("live/IMG_3582.mov")))

        // A size that is not the file's: refused, nothing stored, no temporary left.
        let other = try scratch.write(Array("other bytes".utf8), to: "other.bin")
        let wrongSize = StoredResource(digest: ContentDigest.of(Array("other bytes".utf8)), size: 3)
        #expect(throws: ResourceStoreError.sourceChanged(path: other)) {
            try store.link(fileAt: other, knownContent: wrongSize, durability: .immediate)
        }
        #expect(try store.allDigests() == [stored.digest])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("resources/.tmp")).isEmpty)
    }

    @Test func s3StoreSendsTheKnownDigestForTheServerToCheck() throws {
        let store = try S3StoreTestSupport.makeStore("known")
        let scratch = try StorageScratchDirectory("known-s3")
        defer { scratch.remove() }
        let bytes = Array("spooled upload".utf8)
        let source = try scratch.write(bytes, to: "upload.bin")
        let known = StoredResource(digest: ContentDigest.of(bytes), size: UInt64(bytes.count))
        #expect(try store.link(fileAt: source, knownContent: known, durability: .immediate) == known)
        #expect(store.contains(known.digest))

        // A digest that is not the bytes': the server refuses the object.
        let lie = StoredResource(digest: ContentDigest.of(Array("something else".utf8)), size: UInt64(bytes.count))
        #expect(throws: ResourceStoreError.sourceChanged(path: source)) {
            try store.link(fileAt: source, knownContent: lie, durability: .immediate)
        }
        #expect(!store.contains(lie.digest))
    }
}
