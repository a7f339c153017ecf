import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

@Suite("livepair restamp: a fresh identifier for both halves")
struct PackagingRestampTests {
    @Test("restamped copies carry one new identifier and keep the still time", arguments: PackagingOracle.pairs.indices)
    func restampedCopies(index: Int) throws {
        let (photo, video) = PackagingOracle.pairs[index]
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("restamped").path
        let before = ResourceIdentifier().identify(path: SampleMedia.path(video))
        let result = try LivePhotoPackager().restamp(
            photo: SampleMedia.path(photo), video: SampleMedia.path(video), outputDirectory: output)
        #expect(ContentIdentifier(rawValue: result.contentIdentifier)?.isWellFormedUUID == true)
        #expect(result.contentIdentifier != before.contentIdentifier?.rawValue)
        #expect(result.photoPath == "\(output)/\(LivePhotoPackager.fileName(of: photo))")
        #expect(result.videoPath == "\(output)/\(LivePhotoPackager.fileName(of: video))")
        let still = ResourceIdentifier().identify(path: result.photoPath)
        let movie = ResourceIdentifier().identify(path: result.videoPath)
        #expect(still.contentIdentifier?.rawValue == result.contentIdentifier)
        #expect(movie.contentIdentifier?.rawValue == result.contentIdentifier)
        // The movie's own still-image time is kept (the manifest's value).
        let manifest = try #require(SampleMedia.manifest.first { $0.file == video })
        #expect(abs((movie.stillImageTime ?? -1) - (manifest.stillImageTime ?? -2)) < 0.001)
        guard ReferenceTool.isInstalled("exiftool"), ReferenceTool.isInstalled("ffmpeg") else { return }
        #expect(try PackagingOracle.exiftoolIdentifier(result.photoPath) == result.contentIdentifier)
        #expect(try PackagingOracle.exiftoolIdentifier(result.videoPath) == result.contentIdentifier)
        #expect(try ReferenceTool.videoPacketMD5(result.videoPath) == ReferenceTool.videoPacketMD5(SampleMedia.path(video)))
    }

    @Test("in place: the originals are replaced atomically and nothing else is left in the folder")
    func inPlace() throws {
        let workspace = try SampleVariants.Workspace()
        let photo = try workspace.copy("live/IMG_3582.HEIC", as: "pair/IMG_3582.HEIC")
        let video = try workspace.copy("live/IMG_3582.mov", as: "pair/IMG_3582.mov")
        let identifier = "11111111-2222-4333-8444-555555555555"
        let result = try LivePhotoPackager().restamp(
            photo: photo, video: video, outputDirectory: nil, contentIdentifier: identifier)
        #expect(result.photoPath == photo && result.videoPath == video)
        #expect(ResourceIdentifier().identify(path: photo).contentIdentifier?.rawValue == identifier)
        #expect(ResourceIdentifier().identify(path: video).contentIdentifier?.rawValue == identifier)
        #expect(PackagingOracle.listing(workspace.url.appendingPathComponent("pair").path) == ["IMG_3582.HEIC", "IMG_3582.mov"])
        // Restamping again does not grow the movie (the earlier still-image-time sample is dropped).
        let size = try #require(PackagingOracle.contents(video)).count
        _ = try LivePhotoPackager().restamp(photo: photo, video: video, outputDirectory: nil)
        #expect(try #require(PackagingOracle.contents(video)).count == size)
    }

    @Test("a broken pair (identifiers differ) becomes a valid pair")
    func fixesMismatchedPair() throws {
        let workspace = try SampleVariants.Workspace()
        // Two halves from different Live Photos: validation reports the mismatch before, not after.
        let photo = try workspace.copy("live/IMG_3582.HEIC", as: "IMG_3582.HEIC")
        let video = try workspace.copy("live/IMG_4580.mov", as: "IMG_3582.mov")
        let before = Validator().validatePair(
            photo: AssetResource(ResourceIdentifier().identify(path: photo)),
            video: AssetResource(ResourceIdentifier().identify(path: video)))
        #expect(before.allFindings.contains { $0.code == .identifierMismatch })
        let result = try LivePhotoPackager().restamp(photo: photo, video: video, outputDirectory: nil)
        #expect(!result.findings.contains { $0.code == .identifierMismatch || $0.severity == .error })
    }

    @Test("a movie with 31 nested udta boxes in moov restamps, the nesting kept")
    func deeplyNestedMovie() throws {
        var bytes = try SampleMedia.bytes("live/IMG_3582.mov")
        let moov = try #require(SampleVariants.boxes(in: bytes).last { $0.type == "moov" })
        #expect(moov.end == bytes.count && moov.headerSize == 8)
        var chain: [UInt8] = []
        for _ in 0..<31 {
            let size = UInt32(chain.count + 8)
            chain = withUnsafeBytes(of: size.bigEndian, Array.init) + Array("udta".utf8) + chain
        }
        bytes += chain
        let moovSize = UInt32(moov.size + chain.count)
        bytes.replaceSubrange(moov.offset..<moov.offset + 4, with: withUnsafeBytes(of: moovSize.bigEndian, Array.init))
        let workspace = try SampleVariants.Workspace()
        let photo = try workspace.copy("live/IMG_3582.HEIC", as: "IMG_3582.HEIC")
        let video = try workspace.write(bytes, as: "IMG_3582.mov")
        let result = try LivePhotoPackager().restamp(
            photo: photo, video: video, outputDirectory: workspace.url.appendingPathComponent("out").path)
        #expect(ResourceIdentifier().identify(path: result.videoPath).contentIdentifier?.rawValue == result.contentIdentifier)
    }

}
