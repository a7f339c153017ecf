import Foundation
import LivePair
import LivePairFormats
@testable import LivePairLibrary
import TestSupport
import Testing

/// `PhotoLibrary.requestContentEditingInput` (docs/editing.md): the base an editor starts from,
/// the edit's adjustment data byte for byte, and a Live Photo edit made from the input and
/// committed back as a `ContentEditingOutput`.
@Suite("Content editing input")
struct ContentEditingInputTests {
    typealias Digest = EditSamples.Digest

    /// The IMG_3582 group (render as `IMG_E3582.*`) ingested into `library`: its one asset.
    static func ingest3582(_ library: PhotoLibrary) throws -> Asset {
        try EditSamples.ingest(EditSamples.group3582(exportNames: true), with: Ingestor(library: library), folder: "/photos")
        return try #require(try library.fetchAssets(with: FetchOptions()).firstObject)
    }

    /// The bytes of the file at `path`.
    static func fileBytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The adjustment data inside a sample `.AAE`, read independently of the library.
    static func sampleAdjustmentData(_ file: String) throws -> AdjustmentData {
        try AdjustmentSidecar.read(try SampleMedia.bytes(file)).adjustmentData
    }

    @Test("IMG_3582 edited: the base is the render, the adjustment data exact; an editor that can resume gets the original", arguments: CatalogKind.underTest)
    func editedLivePhoto(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("input-3582", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let asset = try Self.ingest3582(library)
        let input = try library.requestContentEditingInput(for: asset)
        #expect(input.baseVersion == .current)
        #expect(input.baseStill?.type == .fullSizePhoto && input.baseStill?.digest.hex.hasPrefix(Digest.renderStill3582) == true)
        #expect(input.baseMovie?.type == .fullSizePairedVideo && input.baseMovie?.digest.hex.hasPrefix(Digest.renderMovie3582) == true)
        #expect(try Self.fileBytes(try #require(input.fullSizeImagePath))
            == SampleMedia.bytes("live/IMG_3582_edited.heic"))
        #expect(try Self.fileBytes(try #require(input.videoPath))
            == SampleMedia.bytes("live/IMG_3582_edited.mov"))
        let adjustment = try #require(input.adjustmentData)
        #expect(adjustment == (try Self.sampleAdjustmentData("live/IMG_3582.AAE")))
        #expect(adjustment.formatIdentifier == "com.apple.photo" && adjustment.formatVersion == "1.11")
        #expect(try Self.fileBytes(try #require(input.adjustmentDataPath))
            == SampleMedia.bytes("live/IMG_3582.AAE"))
        #expect(input.mediaType == .image && input.mediaSubtypes.contains(.photoLive))
        #expect(input.creationDate == asset.creationDate && input.creationDate != nil)
        #expect(input.location == asset.location)
        #expect(input.uniformTypeIdentifier == "public.heic")
        #expect(input.originalFilename == "IMG_3582.HEIC")

        let declined = try library.requestContentEditingInput(
            for: asset, options: ContentEditingInputRequestOptions(canHandleAdjustmentData: { _ in false }))
        #expect(declined.baseVersion == .current && declined.baseStill == input.baseStill)
        let resumed = try library.requestContentEditingInput(
            for: asset,
            options: ContentEditingInputRequestOptions(canHandleAdjustmentData: { $0.formatIdentifier == "com.apple.photo" }))
        #expect(resumed.baseVersion == .original)
        #expect(resumed.baseStill?.type == .photo && resumed.baseStill?.digest.hex.hasPrefix(Digest.still3582) == true)
        #expect(resumed.baseMovie?.type == .pairedVideo && resumed.baseMovie?.digest.hex.hasPrefix(Digest.movie3582) == true)
        #expect(resumed.adjustmentData == adjustment)
    }

    @Test("IMG_1853 settled: a photo whose base is IMG_E1853, with its LivePhotoKeyFrame adjustment data; no Live Photo context", arguments: CatalogKind.underTest)
    func editedPhoto(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("input-1853", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        try EditSamples.ingest(EditSamples.group1853, with: ingestor, folder: "/a")
        let (_, asset) = try EditSamples.settleAlone(ingestor, in: library)
        let input = try library.requestContentEditingInput(for: asset)
        #expect(input.baseVersion == .current && input.mediaType == .image && !input.mediaSubtypes.contains(.photoLive))
        #expect(input.baseStill?.type == .fullSizePhoto && input.baseStill?.digest.hex.hasPrefix(Digest.render1853) == true)
        #expect(input.baseMovie == nil && input.videoPath == nil)
        #expect(try Self.fileBytes(try #require(input.fullSizeImagePath))
            == SampleMedia.bytes("live/IMG_E1853.heic"))
        #expect(input.adjustmentData == (try Self.sampleAdjustmentData("live/IMG_1853.AAE")))
        let recipe = try #require(try AdjustmentSidecar.read(try SampleMedia.bytes("live/IMG_1853.AAE")).recipe())
        #expect(recipe.operations.map(\.identifier).contains("LivePhotoKeyFrame"))
        let scratch = try makeTemporaryDirectory("input-1853-context")
        #expect(throws: LibraryError.self) { _ = try input.livePhotoEditingContext(workingDirectory: scratch) }
    }

    @Test("a key photo edit made from the input of an unedited Live Photo, committed as its output: render and LivePair adjustment data, originals untouched")
    func editFromInputCommitted() throws {
        let library = try makeLibrary(.sqlite)
        let created = try EditSamples.createLivePhoto3582(in: library)
        let identifier = created.identifier
        var asset = created.asset
        let input = try library.requestContentEditingInput(for: asset)
        #expect(input.baseVersion == .current && input.adjustmentData == nil && input.adjustmentDataPath == nil)
        #expect(input.baseStill?.type == .photo && input.baseMovie?.type == .pairedVideo)
        let scratch = try makeTemporaryDirectory("input-edit")
        var edit = try input.livePhotoEditingContext(workingDirectory: scratch + "/base")
        edit.settings.photoTime = 1.0
        edit.settings.audioVolume = 0
        let rendered = try edit.render(outputDirectory: scratch + "/out")
        #expect(rendered.photoPath.hasSuffix("/IMG_E3582.HEIC") && rendered.videoPath.hasSuffix("/IMG_E3582.MOV"))
        #expect(rendered.adjustmentsPath.hasSuffix("/IMG_3582.AAE"))
        try library.performChangesAndWait { context in
            context.changeRequest(for: asset).contentEditingOutput = ContentEditingOutput(rendered)
        }
        asset = try EditSamples.asset(identifier, in: library)
        #expect(asset.hasAdjustments)
        let resources = try library.assetResources(for: asset)
        #expect(resources.map(\.type) == [.photo, .pairedVideo, .adjustmentData, .fullSizePhoto, .fullSizePairedVideo])
        #expect(resources.map(\.originalFilename) == ["IMG_3582.HEIC", "IMG_3582.mov", "IMG_3582.AAE", "IMG_E3582.HEIC", "IMG_E3582.MOV"])
        #expect(resources[0].digest.hex.hasPrefix(Digest.still3582) && resources[1].digest.hex.hasPrefix(Digest.movie3582))
        let manager = AssetResourceManager(library: library)
        #expect(try manager.data(for: resources[3]) == Self.fileBytes(rendered.photoPath))

        let next = try library.requestContentEditingInput(
            for: asset, options: ContentEditingInputRequestOptions(canHandleAdjustmentData: { _ in true }))
        #expect(next.adjustmentData?.formatIdentifier == LivePairAdjustments.formatIdentifier)
        #expect(next.baseVersion == .original)
        let resumed = try next.livePhotoEditingContext(workingDirectory: scratch + "/again")
        #expect(resumed.settings.photoTime == 1.0 && resumed.settings.isMuted)
    }

    @Test("renderLivePhotoEdit renders a key photo edit of IMG_3582 and commits it; a second edit resumes it; a failing one changes nothing; revert gives the originals byte for byte", arguments: CatalogKind.underTest)
    func editRenderedByTheLibrary(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("render-3582", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let created = try EditSamples.createLivePhoto3582(in: library)
        let scratch = try makeTemporaryDirectory("library-render")
        let rendered = try library.renderLivePhotoEdit(of: created.asset, scratchDirectory: scratch) { $0.settings.photoTime = 1.0 }
        #expect(rendered.photoTime == 1.0 && rendered.stillImageTime == 1.0 && rendered.movieHandling == .remuxed)
        var asset = try EditSamples.asset(created.identifier, in: library)
        #expect(asset.hasAdjustments)
        #expect(try library.stillImageTime(for: asset, version: .current) == 1.0)
        #expect(try library.stillImageTime(for: asset, version: .original) == asset.stillImageTime)
        let resources = try library.assetResources(for: asset)
        #expect(resources.map(\.type) == [.photo, .pairedVideo, .adjustmentData, .fullSizePhoto, .fullSizePairedVideo])
        #expect(resources.map(\.originalFilename) == ["IMG_3582.HEIC", "IMG_3582.mov", "IMG_3582.AAE", "IMG_E3582.HEIC", "IMG_E3582.MOV"])
        #expect(try library.adjustmentData(for: asset)?.formatIdentifier == LivePairAdjustments.formatIdentifier)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty, "the scratch folder is removed")

        // A second edit starts from the first (resumed from LivePair's adjustment data) and replaces it.
        let trimmed = try library.renderLivePhotoEdit(of: asset, scratchDirectory: scratch) { $0.settings.trim = 0.5...1.5 }
        #expect(trimmed.settings == LivePhotoEditSettings(photoTime: 1.0, trim: 0.5...1.5))
        #expect(trimmed.stillImageTime == 0.5)
        asset = try EditSamples.asset(created.identifier, in: library)
        #expect(try library.stillImageTime(for: asset, version: .current) == 0.5)
        let edited = try library.assetResources(for: asset)
        #expect(edited.count == 5)

        // A trim that keeps no frame is refused before anything is committed.
        #expect(throws: LibraryError.self) {
            try library.renderLivePhotoEdit(of: asset, scratchDirectory: scratch) { $0.settings.trim = 50...60 }
        }
        #expect(try library.assetResources(for: try EditSamples.asset(created.identifier, in: library)) == edited)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)

        try library.performChangesAndWait { context in context.changeRequest(for: asset).revertAssetContentToOriginal() }
        asset = try EditSamples.asset(created.identifier, in: library)
        #expect(!asset.hasAdjustments)
        let originals = try library.assetResources(for: asset)
        let manager = AssetResourceManager(library: library)
        #expect(originals.map(\.type) == [.photo, .pairedVideo])
        #expect(try manager.data(for: originals[0]) == SampleMedia.bytes("live/IMG_3582.HEIC"))
        #expect(try manager.data(for: originals[1]) == SampleMedia.bytes("live/IMG_3582.mov"))
    }
}
