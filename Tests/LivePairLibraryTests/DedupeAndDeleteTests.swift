import Foundation
@testable import LivePairLibrary
import TestSupport
import Testing

/// The same pair imported twice gives one asset and one copy of each file; the second import
/// reports the existing asset. Another owner gets an asset of their own.
@Test(arguments: CatalogKind.underTest) func samePairTwiceIsOneAsset(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    let first = try importPair(SamplePairs.iPhone15, into: library)
    let second = try importPair(SamplePairs.iPhone15, into: library)
    #expect(first == .created(first.localIdentifier))
    #expect(second == .existing(first.localIdentifier))
    let inOneBatch = try library.performChangesAndWait { context in
        for _ in 0..<2 {
            let request = context.creationRequestForAsset()
            request.addResource(with: .photo, path: SampleMedia.path(SamplePairs.train.0))
            request.addResource(with: .pairedVideo, path: SampleMedia.path(SamplePairs.train.1))
        }
    }
    #expect(inOneBatch.assets[1] == .existing(inOneBatch.assets[0].localIdentifier))
    let snapshot = try LibrarySnapshot(library)
    #expect(snapshot.assets.count == 2)
    #expect(snapshot.storedDigests.count == 4)
    let otherOwner = try importPair(SamplePairs.iPhone15, into: library, owner: "tenant-b")
    #expect(!otherOwner.isExisting)
    #expect(try LibrarySnapshot(library).storedDigests.count == 4)
}

/// Deleting removes both halves' rows; the files go only when no other asset uses them.
@Test(arguments: CatalogKind.underTest) func deleteRemovesFilesOnlyWhenUnused(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    let mine = try importPair(SamplePairs.iPhone15, into: library)
    let theirs = try importPair(SamplePairs.iPhone15, into: library, owner: "tenant-b")
    let resources = try library.assetResources(forLocalIdentifier: mine.localIdentifier)
    #expect(resources.count == 2)

    let first = try library.performChangesAndWait { _ in
        AssetChangeRequest.deleteAssets(withLocalIdentifiers: [mine.localIdentifier])
    }
    #expect(first.deletedAssets == [mine.localIdentifier])
    #expect(try library.assetResources(forLocalIdentifier: mine.localIdentifier).isEmpty)
    for resource in resources { #expect(library.store.contains(resource.digest)) }

    try library.performChangesAndWait { _ in
        AssetChangeRequest.deleteAssets(try library.fetchAssets(withLocalIdentifiers: [theirs.localIdentifier]).map { $0 })
    }
    for resource in resources { #expect(!library.store.contains(resource.digest)) }
    #expect(try LibrarySnapshot(library).assets.isEmpty)
    #expect(throws: LibraryError.notFound(localIdentifier: mine.localIdentifier)) {
        try library.performChangesAndWait { context in context.deleteAssets(withLocalIdentifiers: [mine.localIdentifier]) }
    }
}

/// An album made in the same batch as its assets, through their placeholders.
@Test(arguments: CatalogKind.underTest) func placeholdersWorkLaterInTheSameBatch(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    var albumIdentifier = ""
    var placeholders: [String] = []
    let result = try library.performChangesAndWait { _ in
        var created: [ObjectPlaceholder] = []
        for pair in [SamplePairs.train, SamplePairs.iPhone15] {
            let request = AssetCreationRequest.creationRequestForAsset()
            request.addResource(with: .photo, path: SampleMedia.path(pair.0))
            request.addResource(with: .pairedVideo, path: SampleMedia.path(pair.1))
            created.append(request.placeholderForCreatedAsset)
        }
        let album = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Holidays")
        album.addAssets(created.reversed())
        albumIdentifier = try #require(album.placeholderForCreatedAssetCollection).localIdentifier
        placeholders = created.map(\.localIdentifier)
    }
    #expect(result.assets.map(\.localIdentifier) == placeholders)
    #expect(result.createdCollections == [albumIdentifier])
    let album = try #require(try library.fetchAssetCollections(withTitle: "Holidays").firstObject)
    #expect(album.localIdentifier == albumIdentifier)
    #expect(album.assetCount == 2)
    #expect(try library.fetchAssets(in: album).localIdentifiers == placeholders.reversed())

    // Remove one, then delete the album: the assets stay.
    try library.performChangesAndWait { _ in
        AssetCollectionChangeRequest(for: album).removeAssets(withLocalIdentifiers: [placeholders[1]])
    }
    #expect(try library.fetchAssets(in: album).localIdentifiers == [placeholders[0]])
    let inAlbum = try library.fetchAssetCollections(containing: try library.fetchAssets(withLocalIdentifiers: [placeholders[0]])[0])
    #expect(inAlbum.localIdentifiers == [albumIdentifier])
    try library.performChangesAndWait { _ in AssetCollectionChangeRequest.deleteAssetCollections([album]) }
    #expect(try library.fetchAssetCollections().isEmpty)
    #expect(try library.fetchAssets().count == 2)
}

/// A duplicate's placeholder used in the same batch refers to the existing asset.
@Test(arguments: CatalogKind.underTest) func duplicatePlaceholderRefersToTheExistingAsset(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    let existing = try importPair(SamplePairs.train, into: library)
    let result = try library.performChangesAndWait { context in
        let request = context.creationRequestForAsset()
        request.addResource(with: .photo, path: SampleMedia.path(SamplePairs.train.0))
        request.addResource(with: .pairedVideo, path: SampleMedia.path(SamplePairs.train.1))
        context.creationRequestForAssetCollection(withTitle: "A").addAssets([request.placeholderForCreatedAsset])
    }
    #expect(result.assets == [.existing(existing.localIdentifier)])
    let album = try #require(try library.fetchAssetCollections().firstObject)
    #expect(try library.fetchAssets(in: album).localIdentifiers == [existing.localIdentifier])
}
