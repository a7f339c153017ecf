import Foundation
import LivePairLibrary
import TestSupport
import Testing

@Suite struct StorageResourceStoreTests {
    @Test func storesFileUnderItsDigestOnce() throws {
        let scratch = try StorageScratchDirectory("store")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let sample = SampleMedia.path("live/IMG_3582.mov")
        let stored = try store.store(fileAt: sample)
        #expect(stored.digest.hex == SampleMedia.entry("live/IMG_3582.mov")?.sha256)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: sample)[.size] as? Int)
        #expect(stored.size == UInt64(size))
        let path = store.path(for: stored.digest)
        #expect(path == scratch.file("resources/\(stored.digest.hex.prefix(2))/\(stored.digest.hex.dropFirst(2))"))
        #expect(FileManager.default.contentsEqual(atPath: path, andPath: sample))
        #expect(store.contains(stored.digest))

        // Same bytes again, from a file and from data: the same resource, one file, no temporary left.
        #expect(try store.store(fileAt: sample) == stored)
        #expect(try store.store(data: try SampleMedia.bytes("live/IMG_3582.mov")) == stored)
        #expect(try store.allDigests() == [stored.digest])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("resources/.tmp")).isEmpty)
    }

    @Test func storesDataAndEmptyContent() throws {
        let scratch = try StorageScratchDirectory("data")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let empty = try store.store(data: [])
        #expect(empty.digest.hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(empty.size == 0)
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let fromData = try store.store(data: bytes)
        let fromFile = try store.store(fileAt: try scratch.write(bytes, to: "big.bin"))
        #expect(fromData == fromFile)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: store.path(for: fromData.digest)))) == bytes)
        #expect(Set(try store.allDigests()) == [empty.digest, fromData.digest])
    }

    @Test func linkSharesTheInodeAndSurvivesRemovingTheSource() throws {
        let scratch = try StorageScratchDirectory("link")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let source = try scratch.write(Array("moved content".utf8), to: "upload.bin")
        let stored = try store.link(fileAt: source)
        #expect(stored.digest == ContentDigest.of(Array("moved content".utf8)))
        var info = stat()
        #expect(stat(store.path(for: stored.digest), &info) == 0 && info.st_nlink == 2)
        try FileManager.default.removeItem(atPath: source)
        #expect(try String(contentsOfFile: store.path(for: stored.digest), encoding: .utf8) == "moved content")
        // Linking identical content again reuses the stored file.
        let again = try scratch.write(Array("moved content".utf8), to: "again.bin")
        #expect(try store.link(fileAt: again) == stored)
        #expect(try store.allDigests().count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("resources/.tmp")).isEmpty)
    }

    @Test func removeDeletesAndReportsMissing() throws {
        let scratch = try StorageScratchDirectory("remove")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let stored = try store.store(data: [1, 2, 3])
        try store.remove(stored.digest)
        #expect(!store.contains(stored.digest))
        #expect(throws: ResourceStoreError.notFound(stored.digest)) { try store.remove(stored.digest) }
        #expect(try store.allDigests().isEmpty)
        #expect(throws: ResourceStoreError.self) { try store.store(fileAt: scratch.file("missing.bin")) }
    }

    @Test func damagedCopyIsReplaced() throws {
        let scratch = try StorageScratchDirectory("damaged")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let bytes = Array("the real content".utf8)
        let stored = try store.store(data: bytes)
        let path = store.path(for: stored.digest)
        chmod(path, 0o644)
        try Data("cut".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try store.store(data: bytes) == stored)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
    }

    /// A temporary file is removed only when no one holds its `flock`: a file locked by another
    /// process (whatever its process id means here) or by an open descriptor of this one stays;
    /// once the lock is released it is removed. Process ids play no part.
    @Test func abandonedTemporaryFilesAreRemovedOnlyWhenUnlocked() throws {
        let scratch = try StorageScratchDirectory("abandoned")
        defer { scratch.remove() }
        _ = try DirectoryStore(directory: scratch.file("resources"))
        let abandoned = scratch.file("resources/.tmp/2147483646-abc.tmp")
        let heldHere = scratch.file("resources/.tmp/\(getpid())-def.tmp")
        // Named after a process id that means nothing here, as a writer in another PID namespace
        // (another container) names its files: a clean-up by process id removed such files.
        let heldElsewhere = scratch.file("resources/.tmp/2147483645-ghi.tmp")
        for path in [abandoned, heldHere, heldElsewhere] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data([1])))
        }
        let descriptor = open(heldHere, O_RDONLY)
        #expect(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
        // Another process holds the lock of the third file (flock(1), from util-linux, essential in Debian).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["--exclusive", heldElsewhere, "sleep", "60"]
        try holder.run()
        defer { if holder.isRunning { holder.terminate() } }
        var waited = 0
        while waited < 200, flockHeld(heldElsewhere) == false {  // until the child has taken its lock
            usleep(10_000)
            waited += 1
        }
        #expect(flockHeld(heldElsewhere), "the flock(1) child never took its lock")

        #expect(try DirectoryStore(directory: scratch.file("resources")).removeAbandonedTemporaryFiles() == 0)
        _ = try DirectoryStore(directory: scratch.file("resources"))
        #expect(!FileManager.default.fileExists(atPath: abandoned), "an unlocked temporary file is removed")
        #expect(FileManager.default.fileExists(atPath: heldHere), "a file locked by an open descriptor stays")
        #expect(FileManager.default.fileExists(atPath: heldElsewhere), "a file another process locks stays")

        // A read-only user removes nothing.
        close(descriptor)
        _ = try DirectoryStore(directory: scratch.file("resources"), removingAbandonedTemporaryFiles: false)
        #expect(FileManager.default.fileExists(atPath: heldHere))

        holder.terminate()
        holder.waitUntilExit()
        #expect(try DirectoryStore(directory: scratch.file("resources"), removingAbandonedTemporaryFiles: false)
            .removeAbandonedTemporaryFiles() == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("resources/.tmp")).isEmpty)
    }

    @Test func digestTextIsValidated() {
        #expect(ContentDigest(hex: "zz") == nil)
        #expect(ContentDigest(hex: String(repeating: "A", count: 64))?.hex == String(repeating: "a", count: 64))
        #expect(ContentDigest(hex: String(repeating: "g", count: 64)) == nil)
    }

    /// Many threads storing the same and different content at once all succeed and agree.
    @Test func concurrentStoresOfTheSameContent() async throws {
        let scratch = try StorageScratchDirectory("concurrent")
        defer { scratch.remove() }
        let store = try DirectoryStore(directory: scratch.file("resources"))
        let samples = ["live/IMG_3582.HEIC", "live/IMG_3582.mov", "live/train.jpg"]
        let results = try await withThrowingTaskGroup(of: StoredResource.self) { group in
            for index in 0..<24 {
                group.addTask {
                    let sample = samples[index % samples.count]
                    if index % 2 == 0 { return try store.store(fileAt: SampleMedia.path(sample)) }
                    return try store.store(data: try SampleMedia.bytes(sample))
                }
            }
            return try await group.reduce(into: Set<StoredResource>()) { $0.insert($1) }
        }
        #expect(results.count == 3)
        #expect(Set(try store.allDigests()) == Set(results.map(\.digest)))
        for resource in results {
            let data = try Data(contentsOf: URL(fileURLWithPath: store.path(for: resource.digest)))
            #expect(ContentDigest.of([UInt8](data)) == resource.digest)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("resources/.tmp")).isEmpty)
    }
}

/// True when someone holds an exclusive `flock` on `path` (a non-blocking attempt fails).
private func flockHeld(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return flock(descriptor, LOCK_EX | LOCK_NB) != 0
}
