import Foundation
import LivePair
@testable import LivePairLibrary
import TestSupport
import Testing

@Test func catalogEngineIsSQLite() {
    #expect(catalogEngineVersion.hasPrefix("SQLite 3."))
}

/// Each sample pair becomes one Live Photo asset whose identifier, pixel size and duration match
/// the manifest, with both halves stored under their SHA-256.
@Test(arguments: CatalogKind.underTest, SamplePairs.all.map { [$0.0, $0.1] })
func createsLivePhotoFromRealPair(_ kind: CatalogKind, _ pair: [String]) throws {
    let library = try makeLibrary(kind)
    let outcome = try importPair((pair[0], pair[1]), into: library)
    guard case let .created(identifier) = outcome else {
        Issue.record("expected a new asset, got \(outcome)")
        return
    }
    let still = try #require(SampleMedia.entry(pair[0]))
    let movie = try #require(SampleMedia.entry(pair[1]))
    let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
    #expect(asset.mediaType == .image)
    #expect(asset.mediaSubtypes == .photoLive)
    #expect(asset.contentIdentifier == still.contentIdentifier)
    #expect(asset.contentIdentifier == movie.contentIdentifier)
    #expect(asset.pixelWidth == still.dimensions?.width)
    #expect(asset.pixelHeight == still.dimensions?.height)
    #expect(abs(asset.duration - (movie.duration ?? -1)) < 0.01)
    #expect(asset.creationDate != nil)
    #expect(!asset.isFavorite && !asset.isHidden)

    let resources = try library.assetResources(for: asset)
    #expect(resources.map(\.type) == [.photo, .pairedVideo])
    #expect(resources.map(\.digest.hex) == [still.sha256, movie.sha256])
    #expect(resources.map(\.originalFilename) == [pair[0].split(separator: "/").last.map(String.init), pair[1].split(separator: "/").last.map(String.init)])
    #expect(resources[1].uniformTypeIdentifier == "com.apple.quicktime-movie")
    for resource in resources {
        #expect(FileManager.default.fileExists(atPath: try library.storagePath(for: resource)))
    }
}

@Test(arguments: CatalogKind.underTest) func motionPhotoAddedAsPhotoIsLive(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    let result = try library.performChangesAndWait { context in
        for name in ["motion/PXL_20200710_061629144.MP.jpg", "motion/samsung-one-ui-6.heic"] {
            context.creationRequestForAsset().addResource(with: .photo, path: SampleMedia.path(name))
        }
        context.creationRequestForAsset().addResource(with: .photo, path: SampleMedia.path("plain/IMG_2682.heic"))
    }
    let assets = try library.fetchAssets(withLocalIdentifiers: result.assets.map(\.localIdentifier))
    #expect(assets.count == 3)
    #expect(assets[0].mediaSubtypes == .photoLive)
    #expect(abs(assets[0].duration - 0.763) < 0.01)
    #expect(assets[0].pixelWidth == 4032 && assets[0].pixelHeight == 3024)
    #expect(assets[1].mediaSubtypes == .photoLive)
    #expect(assets[2].mediaSubtypes == [])
    #expect(assets[2].duration == 0)
}

@Test(arguments: CatalogKind.underTest) func dataResourcesAndCreationPropertiesAreKept(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    let photo = try SampleMedia.bytes(SamplePairs.train.0)
    let movie = try SampleMedia.bytes(SamplePairs.train.1)
    let result = try library.performChangesAndWait { _ in
        let request = AssetCreationRequest.creationRequestForAsset()
        request.addResource(with: .photo, data: photo, options: AssetResourceCreationOptions(originalFilename: "IMG_0001.JPG"))
        request.addResource(with: .pairedVideo, data: movie)
        request.isFavorite = true
        request.location = AssetLocation(latitude: 48.85, longitude: 2.35)
        request.creationDate = date(10)
    }
    let asset = try #require(try library.fetchAssets(withLocalIdentifiers: result.assets.map(\.localIdentifier)).firstObject)
    #expect(asset.isFavorite)
    #expect(asset.location == AssetLocation(latitude: 48.85, longitude: 2.35))
    #expect(asset.creationDate == date(10))
    #expect(asset.contentIdentifier == "E905E6C6-C747-4805-942F-9904A0281F02")
    let resources = try library.assetResources(for: asset)
    #expect(resources.map(\.originalFilename) == ["IMG_0001.JPG", nil])
    #expect(resources.map(\.uniformTypeIdentifier) == ["public.jpeg", "com.apple.quicktime-movie"])
}

/// Halves whose identifiers differ fail the whole batch, with the findings, and leave nothing.
@Test(arguments: CatalogKind.underTest) func invalidPairFailsTheWholeBatch(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    try importPair(SamplePairs.train, into: library)
    let before = try LibrarySnapshot(library)
    do {
        try library.performChangesAndWait { _ in
            let good = AssetCreationRequest.creationRequestForAsset()
            good.addResource(with: .photo, path: SampleMedia.path(SamplePairs.iPhone15Second.0))
            good.addResource(with: .pairedVideo, path: SampleMedia.path(SamplePairs.iPhone15Second.1))
            let bad = AssetCreationRequest.creationRequestForAsset()
            bad.addResource(with: .photo, path: SampleMedia.path("live/IMG_3582.HEIC"))
            bad.addResource(with: .pairedVideo, path: SampleMedia.path("live/IMG_4580.mov"))
        }
        Issue.record("the mismatched pair was accepted")
    } catch {
        guard case let .invalidLivePhoto(findings) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        let mismatch = try #require(findings.first { $0.code == .identifierMismatch })
        #expect(mismatch.severity == .error)
        #expect(mismatch.message.contains("IMG_3582.HEIC") && mismatch.message.contains("IMG_4580.mov"))
        #expect(!mismatch.message.contains("/resources/"))
    }
    #expect(try LibrarySnapshot(library) == before)
}

@Test(arguments: CatalogKind.underTest) func requestsThatCannotBeAppliedFailTheBatch(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    #expect(throws: LibraryError.self) {
        try library.performChangesAndWait { context in _ = context.creationRequestForAsset() }
    }
    #expect(throws: LibraryError.unreadableResource(name: "notes.txt", reason: "added as photo but it is not a still image")) {
        try library.performChangesAndWait { context in
            context.creationRequestForAsset().addResource(
                with: .photo, data: Array("hello".utf8), options: AssetResourceCreationOptions(originalFilename: "notes.txt"))
        }
    }
    #expect(throws: LibraryError.changeBlockFailed("InjectedFault()")) {
        try library.performChangesAndWait { _ in throw InjectedFault() }
    }
    #expect(try LibrarySnapshot(library).storedDigests.isEmpty)
}
