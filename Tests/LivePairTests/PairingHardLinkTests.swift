import Foundation
import LivePair
import LivePairFormats
import TestSupport
import Testing

/// Paths to one file (hard links) are `same-file` duplicates found without reading them (issues 13, 20).
@Suite("Pairing duplicates: hard links")
struct PairingHardLinkTests {
    @Test("a pile of hard links to one still is one same-file duplicate group found without reading a byte")
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
                kind: .sameFile)
        ])
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("links of two files with the same bytes: one path of each file is read, the other links are same-file groups")
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
        // Each file's links form a same-file group kept under its first path; of those three paths,
        // a's and b's have the same bytes (an identical-file group), c's differs in its last byte.
        let path = { (name: String) in folder.path + "/" + name }
        #expect(result.duplicates == [
            DuplicateGroup(original: path("a/link1.mov"), duplicates: [path("b/link1.mov")], kind: .identicalFile),
            DuplicateGroup(original: path("a/link1.mov"), duplicates: ["a/link2.mov", "a/link3.mov", "a/train.mov"].map(path), kind: .sameFile),
            DuplicateGroup(original: path("b/link1.mov"), duplicates: ["b/link2.mov", "b/link3.mov", "b/train.mov"].map(path), kind: .sameFile),
            DuplicateGroup(original: path("c/link1.mov"), duplicates: ["c/link2.mov", "c/link3.mov", "c/train.mov"].map(path), kind: .sameFile),
        ])
        // Three files fingerprinted (first and last 4 KiB), then a and b compared in full (c's
        // fingerprint differs in its last byte): nothing of the nine links is read.
        #expect(counter.opens <= 3 + 2)
        #expect(counter.bytesRead <= 3 * 2 * 4096 + 2 * size)
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("the path kept of a linked still is the one beside its movie; the other is a same-file duplicate, nothing read")
    func linkedStillPairsBesideItsMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let still = try folder.copy("live/IMG_3582.HEIC", as: "a.HEIC")
        try folder.copy("live/IMG_3582.mov", as: "sub/IMG_3582.mov")
        try FileManager.default.linkItem(atPath: still, toPath: folder.path + "/sub/b.HEIC")
        let inputs = ["a.HEIC", "sub/IMG_3582.mov", "sub/b.HEIC"].map(folder.resource)
        let result = Pairing.pair(inputs, contents: ForbiddenContentSource())
        #expect(result.pairs.map { [$0.photo.path, $0.video.path] } == [[folder.path + "/sub/b.HEIC", folder.path + "/sub/IMG_3582.mov"]])
        #expect(result.duplicates == [
            DuplicateGroup(original: folder.path + "/sub/b.HEIC", duplicates: [folder.path + "/a.HEIC"], kind: .sameFile)
        ])
        #expect(result.unpaired.isEmpty && result.ambiguous.isEmpty)
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }
}
