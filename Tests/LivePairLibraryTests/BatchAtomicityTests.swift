import Foundation
@testable import LivePairLibrary
import TestSupport
import Testing

/// The fault points of a batch that creates a Live Photo (moved from files), changes an asset,
/// deletes another and adds to an album, in the order they are reached.
private let preCommitPoints: [FaultPoint] = [
    .storeResource(index: 0), .storeResource(index: 1), .beginCatalogTransaction, .commitCatalogTransaction,
]

/// A fault injected at each step before the commit leaves catalog, store and source files exactly as before.
@Test(arguments: CatalogKind.underTest, preCommitPoints)
func faultBeforeCommitLeavesEverythingAsBefore(_ kind: CatalogKind, _ point: FaultPoint) throws {
    let armed = FaultSwitch()
    let library = try makeLibrary(kind, faultInjector: { reached in if armed.isOn, reached == point { throw InjectedFault() } })
    try importPair(SamplePairs.train, into: library)
    let existing = try #require(try library.fetchAssets().firstObject)
    let sources = try makeTemporaryDirectory("sources")
    let photo = sources + "/IMG_4580.HEIC", movie = sources + "/IMG_4580.mov"
    try FileManager.default.copyItem(atPath: SampleMedia.path(SamplePairs.iPhone15Second.0), toPath: photo)
    try FileManager.default.copyItem(atPath: SampleMedia.path(SamplePairs.iPhone15Second.1), toPath: movie)
    let before = try LibrarySnapshot(library)

    armed.isOn = true
    do {
        try library.performChangesAndWait { context in
            let request = context.creationRequestForAsset()
            request.addResource(with: .photo, path: photo, options: AssetResourceCreationOptions(shouldMoveFile: true))
            request.addResource(with: .pairedVideo, path: movie, options: AssetResourceCreationOptions(shouldMoveFile: true))
            context.changeRequest(for: existing).isFavorite = true
            let album = context.creationRequestForAssetCollection(withTitle: "Trip")
            album.addAssets([request.placeholderForCreatedAsset])
        }
        Issue.record("the batch committed despite a fault at \(point)")
    } catch {
        guard case let .faultInjected(reached, _) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(reached == point)
    }
    armed.isOn = false
    #expect(try LibrarySnapshot(library) == before)
    #expect(FileManager.default.fileExists(atPath: photo) && FileManager.default.fileExists(atPath: movie))
    // A library opened afresh sees the same.
    #expect(try LibrarySnapshot(try makeLibrary(kind, sharing: library)) == before)
}

/// A fault after the commit stops only the clean-up: the batch stays committed and consistent,
/// the moved source stays in place, and recovery on the next open removes what was left.
@Test(arguments: CatalogKind.underTest) func faultAfterCommitKeepsTheBatch(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind, faultInjector: { point in
        if case .unlinkSource = point { throw InjectedFault() }
    })
    let sources = try makeTemporaryDirectory("sources")
    let photo = sources + "/train.jpg", movie = sources + "/train.mov"
    try FileManager.default.copyItem(atPath: SampleMedia.path(SamplePairs.train.0), toPath: photo)
    try FileManager.default.copyItem(atPath: SampleMedia.path(SamplePairs.train.1), toPath: movie)
    let outcome = try importPair((photo, movie), into: library, move: true)
    #expect(!outcome.isExisting)
    #expect(FileManager.default.fileExists(atPath: photo))  // not unlinked: nothing lost
    let snapshot = try LibrarySnapshot(library)
    #expect(snapshot.assets.count == 1)
    #expect(snapshot.storedDigests == snapshot.resources.map(\.digest.hex).sorted())
}

/// Moving files: the sources disappear only after the commit.
@Test(arguments: CatalogKind.underTest) func movedSourcesAreUnlinkedAfterTheCommit(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    let sources = try makeTemporaryDirectory("sources")
    let photo = sources + "/a.jpg", movie = sources + "/a.mov"
    try FileManager.default.copyItem(atPath: SampleMedia.path(SamplePairs.train.0), toPath: photo)
    try FileManager.default.copyItem(atPath: SampleMedia.path(SamplePairs.train.1), toPath: movie)
    try importPair((photo, movie), into: library, move: true)
    #expect(!FileManager.default.fileExists(atPath: photo) && !FileManager.default.fileExists(atPath: movie))
    let asset = try #require(try library.fetchAssets().firstObject)
    let data = try AssetResourceManager(library: library).data(for: try library.assetResources(for: asset)[0])
    #expect(ContentDigest.of(data) == ContentDigest.of(try SampleMedia.bytes(SamplePairs.train.0)))
}

/// Files stored by a batch that never committed (the process died) are removed on the next open.
@Test(arguments: CatalogKind.underTest) func recoveryRemovesUnreferencedFiles(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    try importPair(SamplePairs.train, into: library)
    let orphan = try library.store.store(data: Array("left by a crashed batch".utf8))
    #expect(library.store.contains(orphan.digest))
    let reopened = try makeLibrary(kind, sharing: library)
    #expect(!reopened.store.contains(orphan.digest))
    #expect(try LibrarySnapshot(reopened).assets.count == 1)
    // With the default grace period, a fresh orphan (maybe another process's batch in flight) stays.
    let young = try library.store.store(data: Array("in flight".utf8))
    _ = try makeLibrary(kind, sharing: library, configuration: LibraryConfiguration())
    #expect(library.store.contains(young.digest))
}

/// A switch the fault injector reads, so a library can be set up before the fault is armed.
final class FaultSwitch: @unchecked Sendable {
    // Sendable: `on` is guarded by `lock`.
    private let lock = NSLock()
    private var on = false

    var isOn: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }
}
