import Foundation
@testable import LivePairLibrary
import TestSupport
import Testing

/// Two writers storing into a subdirectory that does not exist yet: both fail to place their file
/// first, one makes the subdirectory, and the other, finding it made, must still place its file.
/// Two `livepair import` processes hit this under load (one file reported "no such file or
/// directory" at its final path); the interleaving is replayed here step by step.
@Suite struct StorageShardRaceTests {
    @Test func aWriterThatFindsTheSubdirectoryMadeByAnotherStillPlacesItsFile() throws {
        let scratch = try StorageScratchDirectory("shards-race")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let bytes = Array("made by the other writer meanwhile".utf8)
        let digest = ContentDigest.of(bytes)
        let source = try scratch.write(bytes, to: "upload.bin")
        let shard = store.shardDirectory(for: digest)
        #expect(!FileManager.default.fileExists(atPath: shard))

        // The store's own deferred placement (`installDeferred`): a hard link to the final name.
        var attempts = 0
        let code = try store.intoShard(of: digest) {
            attempts += 1
            let placed = POSIXFile.hardLink(source, store.path(for: digest))
            // This writer's first link fails (no subdirectory yet); the concurrent writer makes it
            // before this one looks.
            if attempts == 1 { mkdir(shard, 0o755) }
            return placed
        }
        #expect(code == 0)
        #expect(attempts == 2)
        #expect(store.contains(digest))
        #expect(try store.allDigests() == [digest])
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: store.path(for: digest)))) == bytes)
    }

    @Test func aMissingSourceIsStillReportedAsMissing() throws {
        let scratch = try StorageScratchDirectory("shards-race-source")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let digest = ContentDigest.of(Array("never written".utf8))
        var attempts = 0
        let code = try store.intoShard(of: digest) {
            attempts += 1
            return POSIXFile.hardLink(scratch.file("missing.bin"), store.path(for: digest))
        }
        #expect(code == ENOENT)
        #expect(attempts == 2)
        #expect(!store.contains(digest))
        // The subdirectory is made (empty) on the way; nothing names the digest.
        #expect(FileManager.default.fileExists(atPath: store.shardDirectory(for: digest)))
        #expect(try store.allDigests().isEmpty)
    }
}
