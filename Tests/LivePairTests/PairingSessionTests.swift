import Dispatch
import LivePair
import LivePairFormats
import TestSupport
import Testing

@Suite("Pairing session")
struct PairingSessionTests {
    /// The samples plus copies that make duplicates, a motion-photo video and an ambiguity.
    private func mixedInputs(in folder: TemporaryFolder) throws -> [AssetResource] {
        try folder.copy("live/train.jpg", as: "copy/train.jpg")
        try folder.copy("live/IMG_3582.mov", as: "copy/IMG_3582_HEVC.MOV")
        let clip = try PairingFixtures.movieBytes("live/train.mov", withIdentifier: PairingFixtures.sharedStillIdentifier)
        try folder.write(clip, as: "clip.mov")
        let motion = try SampleMedia.bytes("motion/PXL_20200710_061629144.MP.jpg")
        try folder.write(Array(motion[2_728_123..<2_728_123 + 1_317_283]), as: "PXL.mp4")
        let copies = ["copy/train.jpg", "copy/IMG_3582_HEVC.MOV", "clip.mov", "PXL.mp4"]
        return PairingFixtures.allSamples + copies.map(folder.resource)
    }

    @Test("the same set in 20 seeded shuffles gives identical results, one by one or in batches")
    func orderIndependence() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inputs = try mixedInputs(in: folder)
        let expected = Pairing.pair(inputs)
        #expect(!expected.duplicates.isEmpty && !expected.ambiguous.isEmpty && expected.pairs.count == 6)
        PairingFixtures.expectEachResourceOnce(expected, inputs: inputs)

        var generator = SplitMix64(seed: 2026)
        for round in 0..<20 {
            let shuffled = inputs.shuffled(using: &generator)
            #expect(Pairing.pair(shuffled) == expected, "one-shot, round \(round)")
            let session = PairingSession()
            if round.isMultiple(of: 2) {
                for resource in shuffled { session.add(resource) }
            } else {
                let cut = Int(generator.next() % UInt64(shuffled.count))
                session.add(contentsOf: shuffled[..<cut])
                _ = session.result()  // asking early changes nothing
                session.add(contentsOf: shuffled[cut...])
            }
            #expect(session.result() == expected, "session, round \(round)")
        }
    }

    @Test("adds from many threads at once give the same result")
    func concurrentThreads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inputs = try mixedInputs(in: folder)
        let expected = Pairing.pair(inputs)
        for _ in 0..<5 {
            let session = PairingSession()
            DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
                session.add(inputs[index])
                if index.isMultiple(of: 7) { _ = session.result() }
            }
            #expect(session.count == inputs.count)
            #expect(session.result() == expected)
        }
    }

    @Test("adds from many tasks at once give the same result")
    func concurrentTasks() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inputs = try mixedInputs(in: folder)
        let expected = Pairing.pair(inputs)
        let session = PairingSession()
        await withTaskGroup(of: Void.self) { group in
            for resource in inputs {
                group.addTask { session.add(resource) }
            }
            group.addTask { _ = session.result() }
        }
        #expect(session.result() == expected)
    }

    @Test("halves arriving one after the other: orphan first, pair once the partner is added")
    func incremental() {
        let session = PairingSession()
        session.add(PairingFixtures.sample("live/IMG_4580.mov"))
        #expect(session.result().unpaired.map(\.reason) == [.missingPhoto])
        session.add(PairingFixtures.sample("live/IMG_4580.HEIC"))
        let result = session.result()
        #expect(result.pairs.count == 1 && result.unpaired.isEmpty)
        session.add(PairingFixtures.sample("live/IMG_4580.HEIC"))  // the same path again counts once
        #expect(session.count == 2)
        #expect(session.result() == result)
        #expect(session.remove(path: SampleMedia.path("live/IMG_4580.HEIC")))
        #expect(!session.remove(path: SampleMedia.path("live/IMG_4580.HEIC")))
        #expect(session.result().unpaired.map(\.reason) == [.missingPhoto])
    }

    @Test("contents are compared once per session, however often the result is asked for")
    func comparisonsAreRemembered() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copy("live/train.jpg", as: "a/train.jpg")
        try folder.copy("live/train.jpg", as: "b/train.jpg")
        let counter = CountingContentSource()
        let session = PairingSession(contents: counter)
        session.add(folder.resource("a/train.jpg"))
        session.add(folder.resource("b/train.jpg"))
        let first = session.result()
        let bytesAfterFirst = counter.bytesRead
        #expect(bytesAfterFirst > 0)
        session.add(PairingFixtures.sample("live/IMG_4580.mov"))
        let second = session.result()
        #expect(counter.bytesRead == bytesAfterFirst)
        #expect(second.duplicates == first.duplicates)
    }
}
