import Dispatch
import Foundation
import LivePair
import LivePairFormats
@testable import LivePairLibrary
import Synchronization
import TestSupport
import Testing

/// Several library instances on one catalog (each with its own connections, as the nodes of a
/// backend have): what the catalog's single writer guarantees must hold when they all write at once.
@Suite struct MultiWriterTests {
    /// `count` copies of a real Live Photo pair, each with a fresh content identifier patched into
    /// both halves (same length, so nothing else moves): (still, movie) paths.
    static func freshPairs(_ count: Int, in scratch: StorageScratchDirectory) throws -> [(still: String, movie: String)] {
        let (stillName, movieName) = SamplePairs.iPhone15
        let identifier = try #require(ResourceIdentifier().identify(path: SampleMedia.path(stillName)).contentIdentifier?.rawValue)
        let still = try SampleMedia.bytes(stillName), movie = try SampleMedia.bytes(movieName)
        var generator = SplitMix64(seed: 300)
        return try (0..<count).map { index in
            let fresh = String(format: "%08X-%04X-%04X-%04X-%012llX", UInt32(truncatingIfNeeded: generator.next()),
                UInt16(truncatingIfNeeded: generator.next()), UInt16(truncatingIfNeeded: generator.next()),
                UInt16(truncatingIfNeeded: generator.next()), generator.next() & 0xFFFF_FFFF_FFFF)
            #expect(fresh.count == identifier.count)
            return (
                try scratch.write(replacing(identifier, with: fresh, in: still), to: "\(index).HEIC"),
                try scratch.write(replacing(identifier, with: fresh, in: movie), to: "\(index).mov"))
        }
    }

    private static func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8] {
        let oldBytes = Array(old.utf8), newBytes = Array(new.utf8)
        var result = bytes
        for index in ByteSearch.indices(of: oldBytes, in: bytes[...]) {
            result.replaceSubrange(index..<index + newBytes.count, with: newBytes)
        }
        return result
    }

    /// 300 pairs whose two halves arrive at the same moment on two libraries ("nodes"), the still
    /// on one and the movie on the other (which side gets which alternates), four uploads at a time
    /// on each: every pair links, nothing stays pending, each file is stored once.
    @Test(arguments: CatalogKind.underTest) func halvesArrivingTogetherOnTwoNodesAllLink(_ kind: CatalogKind) throws {
        let scratch = try StorageScratchDirectory("multi-writer-pairs")
        defer { scratch.remove() }
        let pairs = try Self.freshPairs(300, in: scratch)
        // Each half waits 50 ms inside its transaction between reading the pending halves and
        // recording itself as pending: without serialized writers, the two halves of a pair then
        // both miss each other (as the issue measured at READ COMMITTED): with the PostgreSQL
        // catalog's write lock removed, this test linked 250 of 300.
        let widenRace: @Sendable (FaultPoint) throws -> Void = { point in
            if point == .custom("ingest-pending-record") { usleep(50_000) }
        }
        let first = try makeLibrary(kind, faultInjector: widenRace)
        let second = try makeLibrary(kind, sharing: first, faultInjector: widenRace)
        let nodes = [Ingestor(library: first), Ingestor(library: second)]
        // Node n takes, for pair i, the still when i + n is even and the movie otherwise.
        let uploads = (0..<2).map { node in
            pairs.enumerated().map { index, pair in (index + node).isMultiple(of: 2) ? pair.still : pair.movie }
        }
        let failures = Mutex<[String]>([])
        let next = Mutex([0, 0])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let node = worker % 2
            while true {
                let index = next.withLock { counters in
                    defer { counters[node] += 1 }
                    return counters[node]
                }
                guard index < pairs.count else { return }
                do throws(LibraryError) {
                    let outcome = try nodes[node].ingest(fileAt: uploads[node][index], owner: "o")
                    if outcome.kind != "accepted" && outcome.kind != "pending" {
                        failures.withLock { $0.append("\(index): \(outcome.kind)") }
                    }
                } catch {
                    failures.withLock { $0.append("\(index): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let livePhotos = try first.fetchAssets(with: FetchOptions(predicate: .livePhotos, includeHiddenAssets: true))
        #expect(livePhotos.count == 300)
        #expect(try first.fetchAssets(with: FetchOptions(includeHiddenAssets: true)).count == 300)
        #expect(try Ingestor(library: second).pendingUploads(olderThan: 0).isEmpty)
        let snapshot = try IngestInvariants.check(first)
        #expect(snapshot.storedDigests.count == 600)
        #expect(Set(snapshot.assets.map { $0.split(separator: "|")[1] }).count == 300)
    }

    /// Batches committed at once by three libraries, while a fourth polls all along: the deliveries
    /// cover every change-log number exactly once and in order (no batch shows up under a number an
    /// observer has already moved past), and name every created asset once.
    @Test(arguments: CatalogKind.underTest) func changeLogOrderHoldsUnderConcurrentWriters(_ kind: CatalogKind) throws {
        let writers = try [makeLibrary(kind)]
        let all = try writers + [makeLibrary(kind, sharing: writers[0]), makeLibrary(kind, sharing: writers[0])]
        let watcher = try makeLibrary(kind, sharing: writers[0])
        let observer = RecordingObserver()
        watcher.register(observer)
        let photo = try SampleMedia.bytes("plain/IMG_2682.heic")
        let created = Mutex<[String]>([])
        let writing = Atomic<Int>(3)
        let poller = JoinedThread {
            var polls = 0
            while writing.load(ordering: .relaxed) > 0 {
                _ = try? watcher.pollForChanges()
                polls += 1
            }
            return polls
        }
        DispatchQueue.concurrentPerform(iterations: 3) { writer in
            defer { writing.subtract(1, ordering: .relaxed) }
            for index in 0..<20 {
                let result = try? all[writer].performChangesAndWait { context in
                    context.creationRequestForAsset().addResource(with: .photo, data: photo + Array("\(writer)-\(index)".utf8))
                }
                if let identifier = result?.assets.first?.localIdentifier { created.withLock { $0.append(identifier) } }
            }
        }
        #expect(poller.wait() > 0)
        _ = try watcher.pollForChanges()
        let changes = observer.changes
        let numbers = changes.flatMap { Array($0.sequences) }
        #expect(numbers == Array(1...60))
        let delivered = changes.flatMap(\.insertedAssetIdentifiers)
        #expect(delivered.count == 60)
        #expect(Set(delivered) == Set(created.withLock { $0 }))
    }

    /// On PostgreSQL, an observer of one library hears another library's commit without polling
    /// (LISTEN/NOTIFY), with the indexes of its fetch result.
    @Test func observerOnOneNodeHearsAnotherNodesCommitsAtOnce() throws {
        var configuration = LibraryConfiguration(orphanGracePeriod: 0)
        configuration.hearsOtherProcessesAtOnce = true
        let writer = try makeLibrary(.postgres)
        let listener = try makeLibrary(.postgres, sharing: writer, configuration: configuration)
        let byDate = FetchOptions(sortDescriptors: [AssetSortDescriptor(key: .creationDate)])
        let early = try importPair(SamplePairs.train, into: writer, creationDate: date(10))
        let late = try importPair(SamplePairs.iPhone15, into: writer, creationDate: date(30))
        let observer = RecordingObserver()
        listener.register(observer)
        let before = try listener.fetchAssets(with: byDate)
        #expect(before.localIdentifiers == [early.localIdentifier, late.localIdentifier])

        let middle = try importPair(SamplePairs.photosLibrary, into: writer, creationDate: date(20))
        // A guard against a hang, not a bound on speed (a loaded machine can take seconds).
        let deadline = Date().addingTimeInterval(600)
        while observer.changes.isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let change = try #require(observer.changes.first, "no change delivered within 600 s")
        #expect(change.insertedAssetIdentifiers == [middle.localIdentifier])
        let details = try #require(change.changeDetails(for: before))
        #expect(details.insertedIndexes == IndexSet([1]))
        #expect(details.fetchResultAfterChanges.localIdentifiers == [early.localIdentifier, middle.localIdentifier, late.localIdentifier])
    }
}

