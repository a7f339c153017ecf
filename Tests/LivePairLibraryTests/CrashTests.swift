import Foundation
import LivePair
@testable import LivePairLibrary
import Synchronization
import TestSupport
import Testing

/// A fault the test injects.
struct IngestInjectedFault: Error {}

@Suite struct CrashTests {
    /// The uploads of the crash scenarios: a pair movie-first, a motion photo, a pair still-first
    /// with a retried still, a plain photo.
    static let scenario = [
        ingestSamplePairs[0].movie, ingestSamplePairs[0].still, "motion/PXL_20200710_061629144.MP.jpg",
        ingestSamplePairs[1].still, ingestSamplePairs[1].still, ingestSamplePairs[1].movie, "plain/IMG_0102.HEIC",
    ]

    /// Runs the scenario; returns the outcomes acknowledged (uploads whose call returned).
    static func run(_ ingestor: Ingestor, files: [String] = scenario) -> [(String, IngestOutcome)] {
        var acknowledged: [(String, IngestOutcome)] = []
        for file in files {
            if let outcome = try? ingestor.ingest(fileAt: SampleMedia.path(file), owner: "o", originalFilename: file) {
                acknowledged.append((file, outcome))
            }
        }
        return acknowledged
    }

    /// The library after the scenario ran without faults.
    static func reference(_ kind: CatalogKind) throws -> IngestSnapshot {
        let fixture = try IngestFixture("crash-reference", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        _ = run(Ingestor(library: library))
        return try IngestInvariants.check(library)
    }

    /// (a) The library's fault injector throws at every durable step in turn (store, group flush,
    /// transaction begin, pending record, link, commit, clean-up...), uploads made one at a time. After each, the reopened library holds
    /// its invariants, every acknowledged asset is there, and running the scenario again gives
    /// exactly the fault-free library.
    @Test(arguments: CatalogKind.underTest) func injectedFaultAtEveryStep(_ kind: CatalogKind) throws {
        let reference = try Self.reference(kind)
        #expect(reference.assets.count == 4 && reference.pending.isEmpty)
        // Count the fault points of a clean run.
        let counted = Atomic<Int>(0)
        do {
            let fixture = try IngestFixture("crash-count", kind)
            defer { fixture.remove() }
            let library = try fixture.open(faultInjector: { _ in counted.add(1, ordering: .relaxed) })
            _ = Self.run(Ingestor(library: library))
        }
        let total = counted.load(ordering: .relaxed)
        #expect(total >= Self.scenario.count * 2)
        for target in 1...total {
            let fixture = try IngestFixture("crash-fault", kind)
            defer { fixture.remove() }
            let calls = Atomic<Int>(0)
            let hit = Mutex<String?>(nil)
            let acknowledged: [(String, IngestOutcome)]
            do {
                let library = try fixture.open(faultInjector: { point in
                    if calls.add(1, ordering: .relaxed).newValue == target {
                        hit.withLock { $0 = point.description }
                        throw IngestInjectedFault()
                    }
                })
                acknowledged = Self.run(Ingestor(library: library))
            }
            let point = hit.withLock { $0 } ?? "none"
            let reopened = try fixture.open()
            let snapshot = try IngestInvariants.check(reopened)
            // Nothing accepted and then lost.
            for (file, outcome) in acknowledged {
                if let identifier = outcome.localIdentifier {
                    #expect(try reopened.fetchAssets(withLocalIdentifiers: [identifier]).count == 1,
                        "fault \(target) (\(point)): \(file) was acknowledged as \(outcome) but the asset is gone")
                }
            }
            #expect(snapshot.assets.count <= reference.assets.count)
            _ = Self.run(Ingestor(library: reopened))
            #expect(try IngestInvariants.check(reopened) == reference, "fault \(target) at \(point)")
        }
    }

    /// (a2) The same, with the scenario's uploads decided as one group commit (several files in
    /// one flush, several members in one transaction, conflicting members deferred to the next
    /// group, a failed group decided again upload by upload) and moved instead of copied (so the
    /// unlink after the commit is a fault point too). After each fault: the invariants; every
    /// acknowledged asset exists; no upload is gone whose bytes the library does not hold; the
    /// sequential scenario then gives exactly the fault-free library.
    @Test(arguments: CatalogKind.underTest) func injectedFaultAtEveryStepOfAGroupCommitWithMoves(_ kind: CatalogKind) throws {
        let reference = try Self.reference(kind)
        let moving = IngestOptions(uploadHandling: .move)
        func uploads(_ scratch: StorageScratchDirectory) throws -> [(path: String, owner: String, originalFilename: String?)] {
            try IngestMoveTests.uploads(Self.scenario, in: scratch).enumerated().map { ($1, "o", Self.scenario[$0]) }
        }
        let counted = Atomic<Int>(0)
        let names = Mutex<Set<String>>([])
        do {
            let fixture = try IngestFixture("crash-group-count", kind)
            let scratch = try StorageScratchDirectory("crash-group-count-uploads")
            defer { fixture.remove(); scratch.remove() }
            let library = try fixture.open(faultInjector: { point in
                counted.add(1, ordering: .relaxed)
                _ = names.withLock { $0.insert(point.description.split(separator: "(").first.map(String.init) ?? "") }
            })
            let results = Ingestor(library: library, options: moving).ingestTogether(try uploads(scratch))
            #expect(results.allSatisfy { (try? $0.get()) != nil })
        }
        let seen = names.withLock { $0 }
        for name in ["ingest-store-upload", "ingest-flush-group", "begin-catalog-transaction", "ingest-pending-record",
            "ingest-link-pair", "ingest-clear-pending", "ingest-link-asset", "commit-catalog-transaction", "ingest-unlink-upload"]
        {
            #expect(seen.contains(name), "the group scenario never reaches \(name)")
        }
        let total = counted.load(ordering: .relaxed)
        for target in 1...total {
            let fixture = try IngestFixture("crash-group", kind)
            let scratch = try StorageScratchDirectory("crash-group-uploads")
            defer { fixture.remove(); scratch.remove() }
            let calls = Atomic<Int>(0)
            let hit = Mutex<String?>(nil)
            let files = try uploads(scratch)
            let results: [Result<IngestOutcome, LibraryError>]
            do {
                let library = try fixture.open(faultInjector: { point in
                    if calls.add(1, ordering: .relaxed).newValue == target {
                        hit.withLock { $0 = point.description }
                        throw IngestInjectedFault()
                    }
                })
                results = Ingestor(library: library, options: moving).ingestTogether(files)
            }
            let point = hit.withLock { $0 } ?? "none"
            let reopened = try fixture.open()
            let snapshot = try IngestInvariants.check(reopened)
            let held = Set(try reopened.store.allDigests())
            for (index, result) in results.enumerated() {
                if case let .success(outcome) = result, let identifier = outcome.localIdentifier {
                    #expect(try reopened.fetchAssets(withLocalIdentifiers: [identifier]).count == 1,
                        "fault \(target) (\(point)): upload \(index) was acknowledged as \(outcome) but the asset is gone")
                }
                if !FileManager.default.fileExists(atPath: files[index].path) {
                    let digest = ContentDigest.of(try SampleMedia.bytes(Self.scenario[index]))
                    #expect(held.contains(digest), "fault \(target) (\(point)): upload \(index) was unlinked but its bytes are not held")
                }
            }
            #expect(snapshot.assets.count <= reference.assets.count)
            _ = Self.run(Ingestor(library: reopened))
            #expect(try IngestInvariants.check(reopened) == reference, "fault \(target) at \(point)")
        }
    }

    /// (b) A real `livepair import` child process ended abruptly (`_exit`, no clean-up, like SIGKILL)
    /// at its Nth durable step, for every N until the import completes; after each, the reopened
    /// library holds its invariants and a re-run completes everything.
    @Test(arguments: CatalogKind.underTest) func childProcessKilledAtEveryStep(_ kind: CatalogKind) throws {
        try #require(IngestBinary.path != nil, "the livepair executable is not built")
        let reference = try Self.reference(kind)
        let files = Self.scenario.map(SampleMedia.path)
        var target = 1
        while target < 200 {
            let fixture = try IngestFixture("crash-child", kind)
            defer { fixture.remove() }
            let status = try IngestBinary.run(
                ["import", ] + fixture.commandLineOptions + [ "--owner", "o", "--jobs", "1"] + files,
                environment: ["LIVEPAIR_TEST_EXIT_AT_FAULT_POINT": String(target)])
            if status != 137 {
                #expect(status == 0, "the import finished without being killed but failed")
                break
            }
            let library = try fixture.open()
            _ = try IngestInvariants.check(library)
            #expect(try IngestBinary.run(["import", ] + fixture.commandLineOptions + [ "--owner", "o"] + files) == 0)
            #expect(try IngestInvariants.check(library) == reference, "killed at step \(target)")
            target += 1
        }
        #expect(target > Self.scenario.count, "the child was killed at fewer steps than files")
    }

    /// SIGKILL at random moments of a concurrent import (4 jobs), over several runs; then recovery
    /// and a re-run give the reference library.
    @Test(arguments: CatalogKind.underTest) func childProcessKilledAtRandomTimes(_ kind: CatalogKind) throws {
        try #require(IngestBinary.path != nil, "the livepair executable is not built")
        let reference = try Self.reference(kind)
        let files = Self.scenario.map(SampleMedia.path)
        var generator = SplitMix64(seed: 42)
        for _ in 0..<6 {
            let fixture = try IngestFixture("crash-random", kind)
            defer { fixture.remove() }
            let process = try IngestBinary.start(["import", ] + fixture.commandLineOptions + [ "--owner", "o", "--jobs", "4"] + files)
            usleep(UInt32.random(in: 50_000...900_000, using: &generator))
            process.send(SIGKILL)
            _ = process.waitForExit()
            let library = try fixture.open()
            _ = try IngestInvariants.check(library)
            #expect(try IngestBinary.run(["import", ] + fixture.commandLineOptions + [ "--owner", "o"] + files) == 0)
            #expect(try IngestInvariants.check(library) == reference)
        }
    }

    /// Two processes importing the halves of four real pairs into one library at the same time,
    /// in different orders (one the reverse of the other, then shuffles): always four Live Photos,
    /// nothing pending, each file stored once, the same library every time.
    @Test(arguments: CatalogKind.underTest) func twoProcessesInAnyOrder(_ kind: CatalogKind) throws {
        try #require(IngestBinary.path != nil, "the livepair executable is not built")
        let files = ingestSamplePairs.flatMap { [$0.still, $0.movie] }.map(SampleMedia.path)
        var generator = SplitMix64(seed: 7)
        var reference: IngestSnapshot?
        for round in 0..<4 {
            let first = round == 0 ? files : files.shuffled(using: &generator)
            let second = round == 0 ? Array(files.reversed()) : files.shuffled(using: &generator)
            let fixture = try IngestFixture("two-processes", kind)
            defer { fixture.remove() }
            let one = try IngestBinary.start(["import", ] + fixture.commandLineOptions + [ "--owner", "o", "--jobs", "2"] + first)
            let two: ChildProcess.Running
            do {
                two = try IngestBinary.start(["import", ] + fixture.commandLineOptions + [ "--owner", "o", "--jobs", "2"] + second)
            } catch {
                _ = one.waitForExit()  // reaped, its output files removed, before the failure is reported
                throw error
            }
            let (endOne, endTwo) = (one.waitForExit(), two.waitForExit())
            #expect(endOne.status == 0, "round \(round), first process: \(endOne.errorText)\n\(endOne.outputText)")
            #expect(endTwo.status == 0, "round \(round), second process: \(endTwo.errorText)\n\(endTwo.outputText)")
            let snapshot = try IngestInvariants.check(try fixture.open())
            #expect(snapshot.assets.count == 4 && snapshot.pending.isEmpty && snapshot.storedDigests.count == 8)
            if let reference { #expect(snapshot == reference, "round \(round)") } else { reference = snapshot }
        }
    }
}
