import LivePair
import LivePairFormats
import TestSupport
import Testing

/// IMG_2927.HEIC and exif-at-eof.heic carry one identifier but differ in bytes. A movie with that
/// identifier is made from a real movie by rewriting its identifier (same length, still valid).
@Suite("Pairing ambiguity")
struct PairingAmbiguityTests {
    static let identifier = PairingFixtures.sharedStillIdentifier

    private func movie(from sample: String = "live/train.mov") throws -> [UInt8] {
        try PairingFixtures.movieBytes(sample, withIdentifier: Self.identifier)
    }

    private func expectLosers(_ names: [String], in folder: TemporaryFolder, _ result: PairingResult) {
        for name in names {
            #expect(PairingFixtures.reason(of: folder.path + "/" + name, in: result) == .lostAmbiguity, "\(name)")
        }
    }

    @Test("the rewritten movie carries the shared identifier")
    func rewrittenMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(try movie(), as: "clip.mov")
        let resource = folder.resource("clip.mov")
        #expect(resource.role == .livePhotoVideo)
        #expect(resource.contentIdentifier?.rawValue == Self.identifier)
    }

    @Test("same folder decides first")
    func sameFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copy("live/IMG_2927.HEIC", as: "a/IMG_2927.HEIC")
        try folder.copy("live/exif-at-eof.heic", as: "b/exif-at-eof.heic")
        try folder.write(try movie(), as: "b/clip.mov")
        let inputs = ["a/IMG_2927.HEIC", "b/exif-at-eof.heic", "b/clip.mov"].map(folder.resource)
        let result = Pairing.pair(inputs)

        let match = try #require(result.ambiguous.first)
        #expect(result.ambiguous.count == 1)
        #expect(match.decidingRule == .sameFolder)
        #expect(match.photos == [folder.path + "/a/IMG_2927.HEIC", folder.path + "/b/exif-at-eof.heic"])
        #expect(match.videos == [folder.path + "/b/clip.mov"])
        #expect(match.chosen?.photo.path == folder.path + "/b/exif-at-eof.heic")
        #expect(result.pairs == [try #require(match.chosen)])
        expectLosers(["a/IMG_2927.HEIC"], in: folder, result)
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("then the same normalised stem")
    func sameStem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copy("live/IMG_2927.HEIC", as: "IMG_2927.HEIC")
        try folder.copy("live/exif-at-eof.heic", as: "exif-at-eof.heic")
        try folder.write(try movie(), as: "EXIF-AT-EOF_HEVC.MOV")
        let inputs = ["IMG_2927.HEIC", "exif-at-eof.heic", "EXIF-AT-EOF_HEVC.MOV"].map(folder.resource)
        let result = Pairing.pair(inputs)

        let match = try #require(result.ambiguous.first)
        #expect(match.decidingRule == .sameStem)
        #expect(match.chosen?.photo.path == folder.path + "/exif-at-eof.heic")
        #expect(match.chosen?.video.path == folder.path + "/EXIF-AT-EOF_HEVC.MOV")
        expectLosers(["IMG_2927.HEIC"], in: folder, result)
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("then the nearest capture time")
    func nearestCaptureTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copy("live/IMG_2927.HEIC", as: "IMG_2927.HEIC")
        try folder.write(try movie(from: "live/IMG_4580.mov"), as: "a.mov")  // taken in 2025
        try folder.write(try movie(from: "live/train.mov"), as: "b.mov")  // taken in 2021, nearer the 2020 still
        let inputs = ["IMG_2927.HEIC", "a.mov", "b.mov"].map(folder.resource)
        let years = inputs.map { $0.identity.captureDate?.year }
        try #require(years[0]! < years[2]! && years[2]! < years[1]!)
        let result = Pairing.pair(inputs)

        let match = try #require(result.ambiguous.first)
        #expect(match.decidingRule == .nearestCaptureTime)
        #expect(match.chosen?.video.path == folder.path + "/b.mov")
        #expect(match.videos == [folder.path + "/a.mov", folder.path + "/b.mov"])
        expectLosers(["a.mov"], in: folder, result)
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("finally the first by path")
    func firstByPath() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copy("live/IMG_2927.HEIC", as: "IMG_2927.HEIC")
        try folder.copy("live/exif-at-eof.heic", as: "exif-at-eof.heic")
        try folder.write(try movie(), as: "clip.mov")
        let inputs = ["IMG_2927.HEIC", "exif-at-eof.heic", "clip.mov"].map(folder.resource)
        try #require(inputs[0].identity.captureDate == inputs[1].identity.captureDate)
        let result = Pairing.pair(inputs)

        let match = try #require(result.ambiguous.first)
        #expect(match.decidingRule == .firstByPath)
        #expect(match.chosen?.photo.path == folder.path + "/IMG_2927.HEIC")
        expectLosers(["exif-at-eof.heic"], in: folder, result)
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("several movies and no still: nothing chosen, each an orphan listed once, no ambiguity")
    func moviesWithoutStill() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(try movie(), as: "x.mov")
        try folder.write(try movie() + [0], as: "y.mov")
        let inputs = ["x.mov", "y.mov"].map(folder.resource)
        let result = Pairing.pair(inputs)
        #expect(result.ambiguous.isEmpty)
        #expect(result.unpaired.map(\.reason) == [.missingPhoto, .missingPhoto])
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("byte-identical copies are duplicates, not ambiguity")
    func identicalCopiesAreNotAmbiguous() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copy("live/IMG_2927.HEIC", as: "IMG_2927.HEIC")
        try folder.copy("live/IMG_2927.HEIC", as: "IMG_2927(1).HEIC")
        try folder.write(try movie(), as: "IMG_2927.MOV")
        let inputs = ["IMG_2927.HEIC", "IMG_2927(1).HEIC", "IMG_2927.MOV"].map(folder.resource)
        let result = Pairing.pair(inputs)
        #expect(result.ambiguous.isEmpty)
        #expect(result.pairs.count == 1)
        #expect(result.duplicates.map(\.kind) == [.identicalFile])
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }
}
