import LivePair
import LivePairFormats
import Testing
import TestSupport

@Suite("Pairing performance")
struct PairingPerformanceTests {
    @Test("20,000 resources pair by identifier, reading no contents")
    func twentyThousand() throws {
        var resources: [AssetResource] = []
        for index in 0..<10_000 {
            let hex = String(index, radix: 16, uppercase: true)
            let identifier = String(repeating: "0", count: 12 - hex.count) + hex
            let id = ContentIdentifier(rawValue: "00000000-0000-4000-8000-" + identifier)
            for movie in [false, true] {
                var identity = ResourceIdentity(path: "/library/\(index % 100)/IMG_\(index)." + (movie ? "MOV" : "HEIC"))
                identity.format = movie ? .quickTime : .heic
                identity.role = movie ? .livePhotoVideo : .livePhotoStill
                identity.contentIdentifier = id
                // Equal sizes but different identities: never compared.
                identity.fileSize = 1_000_000
                identity.captureDate = CaptureDate(year: 2024, month: 1, day: 1, hour: 0, minute: index % 60, second: index % 60)
                resources.append(AssetResource(identity))
            }
        }
        var generator = SplitMix64(seed: 7)
        resources.shuffle(using: &generator)
        let result = Pairing.pair(resources, contents: ForbiddenContentSource())
        #expect(result.pairs.count == 10_000)
        #expect(result.unpaired.isEmpty && result.ambiguous.isEmpty && result.duplicates.isEmpty)
        // How long it takes (linear to 20,000 files) is measured by `livepair-bench validate`
        // (docs/benchmarks.md), not here.
    }
}
