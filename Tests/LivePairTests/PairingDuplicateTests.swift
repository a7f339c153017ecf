import LivePair
import LivePairFormats
import TestSupport
import Testing

@Suite("Pairing duplicates")
struct PairingDuplicateTests {
    static let motionPhoto = "motion/PXL_20200710_061629144.MP.jpg"
    static let embeddedOffset = 2_728_123
    static let embeddedLength = 1_317_283

    @Test("a Live Photo copied into two folders: one pair, two identical-file groups, no ambiguity")
    func copiesInTwoFolders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for sub in ["a", "b"] {
            try folder.copy("live/train.jpg", as: "\(sub)/train.jpg")
            try folder.copy("live/train.mov", as: "\(sub)/train.mov")
        }
        let inputs = ["a/train.jpg", "a/train.mov", "b/train.jpg", "b/train.mov"].map(folder.resource)
        let counter = CountingContentSource()
        let result = Pairing.pair(inputs, options: PairingOptions(comparisonChunkSize: 65_536), contents: counter)

        #expect(result.pairs.count == 1)
        #expect(result.pairs.first?.photo.path == folder.path + "/a/train.jpg")
        #expect(result.pairs.first?.video.path == folder.path + "/a/train.mov")
        #expect(result.ambiguous.isEmpty)
        #expect(result.unpaired.isEmpty)
        #expect(
            result.duplicates == [
                DuplicateGroup(
                    original: folder.path + "/a/train.jpg", duplicates: [folder.path + "/b/train.jpg"], kind: .identicalFile),
                DuplicateGroup(
                    original: folder.path + "/a/train.mov", duplicates: [folder.path + "/b/train.mov"], kind: .identicalFile),
            ])
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)

        // Each copy is read once next to its original, in chunks; nothing else is read.
        let sizes = try ["live/train.jpg", "live/train.mov"].map { try SampleMedia.bytes($0).count }
        #expect(counter.bytesRead == 2 * sizes.reduce(0, +))
        #expect(counter.opens == 4)
        #expect(counter.reads >= 2 * sizes.map { $0 / 65_536 }.reduce(0, +))
    }

    @Test("a still copied into another folder does not pair across folders: the copy beside the movie is kept")
    func copyBesideThePartnerIsKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // a/ sorts first but holds only a copy of the still; b/ holds the still and its movie.
        try folder.copy("live/train.jpg", as: "a/train.jpg")
        try folder.copy("live/train.jpg", as: "b/train.jpg")
        try folder.copy("live/train.mov", as: "b/train.mov")
        let inputs = ["a/train.jpg", "b/train.jpg", "b/train.mov"].map(folder.resource)
        let result = Pairing.pair(inputs)
        #expect(result.pairs.count == 1)
        #expect(result.pairs.first?.photo.path == folder.path + "/b/train.jpg")
        #expect(result.pairs.first?.video.path == folder.path + "/b/train.mov")
        #expect(
            result.duplicates == [
                DuplicateGroup(
                    original: folder.path + "/b/train.jpg", duplicates: [folder.path + "/a/train.jpg"], kind: .identicalFile)
            ])
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("many same-size look-alikes are fingerprinted once each, not compared with each other")
    func sameSizeLookAlikesCostLinearReads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Ten copies of a JPEG that differ only in one byte of the image data near the end: same
        // size, same identity (format, date, size), different bytes.
        var bytes = try SampleMedia.bytes("live/train.jpg")
        let position = bytes.count - 100
        var inputs: [AssetResource] = []
        for copy in 0..<10 {
            bytes[position] = UInt8(copy)
            try folder.write(bytes, as: "copy\(copy).jpg")
            inputs.append(folder.resource("copy\(copy).jpg"))
        }
        // And two byte-identical copies, which must still be found.
        try folder.write(bytes, as: "twin.jpg")
        inputs.append(folder.resource("twin.jpg"))
        let counter = CountingContentSource()
        let result = Pairing.pair(inputs, options: PairingOptions(comparisonChunkSize: 65_536), contents: counter)
        #expect(result.duplicates == [
            DuplicateGroup(original: folder.path + "/copy9.jpg", duplicates: [folder.path + "/twin.jpg"], kind: .identicalFile)
        ])
        // Each file is fingerprinted once (first and last 4 KiB), then one full comparison for the twins.
        let fingerprints = 11 * 2 * 4096
        #expect(counter.bytesRead <= fingerprints + 2 * bytes.count)
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("a copy that differs by one appended byte is not a duplicate")
    func nearCopyIsNoDuplicate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copy("live/IMG_4580.HEIC", as: "IMG_4580.HEIC")
        try folder.copy("live/IMG_4580.mov", as: "IMG_4580.mov")
        try folder.write(try SampleMedia.bytes("live/IMG_4580.mov") + [0], as: "other/IMG_4580.mov")
        let inputs = ["IMG_4580.HEIC", "IMG_4580.mov", "other/IMG_4580.mov"].map(folder.resource)
        let counter = CountingContentSource()
        let result = Pairing.pair(inputs, contents: counter)
        #expect(result.duplicates.isEmpty)
        #expect(counter.opens == 0, "different sizes: no contents read")
        #expect(result.ambiguous.count == 1)
        #expect(PairingFixtures.reason(of: folder.path + "/other/IMG_4580.mov", in: result) == .lostAmbiguity)
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("a loose MP4 equal to a motion photo's embedded video is its duplicate, not a video")
    func motionPhotoVideo() throws {
        let photo = PairingFixtures.sample(Self.motionPhoto)
        #expect(photo.identity.motionPhoto?.videoOffset == UInt64(Self.embeddedOffset))
        #expect(photo.identity.motionPhoto?.videoLength == UInt64(Self.embeddedLength))

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try SampleMedia.bytes(Self.motionPhoto)
        let embedded = Array(bytes[Self.embeddedOffset..<Self.embeddedOffset + Self.embeddedLength])
        try folder.copy(Self.motionPhoto, as: "takeout/PXL_20200710_061629144.MP.jpg")
        try folder.write(embedded, as: "takeout/PXL_20200710_061629144.MP.mp4")
        try folder.write(embedded, as: "again/PXL_20200710_061629144.MP.mp4")
        var changed = embedded
        changed[changed.count / 2] ^= 0xFF
        try folder.write(changed, as: "changed/PXL_20200710_061629144.MP.mp4")

        let names = [
            "takeout/PXL_20200710_061629144.MP.jpg", "takeout/PXL_20200710_061629144.MP.mp4",
            "again/PXL_20200710_061629144.MP.mp4", "changed/PXL_20200710_061629144.MP.mp4",
        ]
        let inputs = names.map(folder.resource)
        #expect(inputs[1].identity.format.isMovie)
        let result = Pairing.pair(inputs)

        #expect(result.motionPhotos.map(\.path) == [folder.path + "/takeout/PXL_20200710_061629144.MP.jpg"])
        // The two equal loose copies: the first by path is compared with the embedded video, the other is its copy.
        #expect(
            result.duplicates.contains(
                DuplicateGroup(
                    original: folder.path + "/takeout/PXL_20200710_061629144.MP.jpg",
                    duplicates: [folder.path + "/again/PXL_20200710_061629144.MP.mp4"], kind: .motionPhotoVideo)))
        #expect(
            result.duplicates.contains(
                DuplicateGroup(
                    original: folder.path + "/again/PXL_20200710_061629144.MP.mp4",
                    duplicates: [folder.path + "/takeout/PXL_20200710_061629144.MP.mp4"], kind: .identicalFile)))
        #expect(result.duplicates.count == 2)
        // One changed byte: a video of its own.
        let changedPath = folder.path + "/changed/PXL_20200710_061629144.MP.mp4"
        #expect(PairingFixtures.reason(of: changedPath, in: result) == .noContentIdentifier)
        #expect(result.pairs.isEmpty)
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("a loose movie alone (no motion photo) is a plain video")
    func looseMovieAlone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try SampleMedia.bytes(Self.motionPhoto)
        try folder.write(Array(bytes[Self.embeddedOffset..<Self.embeddedOffset + Self.embeddedLength]), as: "clip.mp4")
        let result = Pairing.pair([folder.resource("clip.mp4")], contents: ForbiddenContentSource())
        #expect(result.unpaired.map(\.reason) == [.noContentIdentifier])
        #expect(result.duplicates.isEmpty)
    }
}
