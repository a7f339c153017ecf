import Foundation
import LivePair
import LivePairFormats
import TestSupport
import Testing

/// Paths to one file (hard links) are identical copies without reading them (issue 13).
@Suite("Pairing duplicates: hard links")
struct PairingHardLinkTests {
    @Test("a pile of hard links to one still is one duplicate group found without reading a byte")
    func hardLinksAreNotRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let original = try folder.copy("live/train.jpg", as: "pile/a000.jpg")
        var names = ["pile/a000.jpg"]
        for copy in 1..<200 {
            let name = "pile/a\(String(copy + 1000).dropFirst()).jpg"
            try FileManager.default.linkItem(atPath: original, toPath: folder.path + "/" + name)
            names.append(name)
        }
        let inputs = names.map(folder.resource)
        #expect(Set(inputs.compactMap(\.identity.fileID)).count == 1)
        let result = Pairing.pair(inputs, contents: ForbiddenContentSource())
        #expect(result.duplicates == [
            DuplicateGroup(
                original: folder.path + "/pile/a000.jpg", duplicates: names.dropFirst().map { folder.path + "/" + $0 },
                kind: .identicalFile)
        ])
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("links of two files with the same bytes: one file of each is read, the links join unread")
    func linksOfTwoCopies() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try folder.copy("live/train.mov", as: "a/train.mov")
        let second = try folder.copy("live/train.mov", as: "b/train.mov")
        let third = try folder.write(try SampleMedia.bytes("live/train.mov").dropLast() + [0xFF], as: "c/train.mov")
        var names = ["a/train.mov", "b/train.mov", "c/train.mov"]
        for (index, target) in [first, second, third].enumerated() {
            for link in 1...3 {
                let name = "\(["a", "b", "c"][index])/link\(link).mov"
                try FileManager.default.linkItem(atPath: target, toPath: folder.path + "/" + name)
                names.append(name)
            }
        }
        let inputs = names.map(folder.resource)
        let counter = CountingContentSource()
        let result = Pairing.pair(inputs, options: PairingOptions(comparisonChunkSize: 65_536), contents: counter)
        let size = try SampleMedia.bytes("live/train.mov").count
        // The original of each group is its first path.
        let kept = ["a/link1.mov", "c/link1.mov"].map { folder.path + "/" + $0 }
        #expect(result.duplicates.map(\.original).sorted() == kept)
        let groupA = result.duplicates.first { $0.original == kept[0] }
        #expect(groupA?.duplicates == ["a/link2.mov", "a/link3.mov", "a/train.mov", "b/link1.mov", "b/link2.mov",
            "b/link3.mov", "b/train.mov"].map { folder.path + "/" + $0 })
        #expect(result.duplicates.first { $0.original == kept[1] }?.duplicates.count == 3)
        // Three files fingerprinted (first and last 4 KiB), then a and b compared in full (c's
        // fingerprint differs in its last byte): nothing of the nine links is read.
        #expect(counter.opens <= 3 + 2)
        #expect(counter.bytesRead <= 3 * 2 * 4096 + 2 * size)
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }
}
