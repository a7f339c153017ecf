import Foundation
@testable import LivePairLibrary
import TestSupport
import Testing

/// Two library instances on one directory (two connections, as two processes would have): a batch
/// committed by one reaches the other's observers when it polls, or when it next fetches.
@Test(arguments: CatalogKind.underTest) func secondInstanceCommitIsSeenAfterPolling(_ kind: CatalogKind) throws {
    let first = try makeLibrary(kind)
    let second = try makeLibrary(kind, sharing: first)
    let observer = RecordingObserver()
    first.register(observer)
    let before = try first.fetchAssets(with: FetchOptions(sortDescriptors: [.init(key: .creationDate)]))

    let created = try importPair(SamplePairs.train, into: second, creationDate: date(1))
    #expect(observer.changes.isEmpty)
    let change = try #require(try first.pollForChanges())
    #expect(change.insertedAssetIdentifiers == [created.localIdentifier])
    #expect(observer.changes.count == 1)
    let details = try #require(change.changeDetails(for: before))
    #expect(details.insertedIndexes == IndexSet([0]))
    #expect(try first.pollForChanges() == nil)

    // Noticed on the next fetch too.
    try second.performChangesAndWait { context in context.deleteAssets(withLocalIdentifiers: [created.localIdentifier]) }
    _ = try first.fetchAssets()
    #expect(observer.changes.count == 2)
    #expect(observer.changes[1].deletedAssetIdentifiers == [created.localIdentifier])
}

/// Concurrent writers from two instances: every batch commits, none is lost.
@Test(arguments: CatalogKind.underTest) func concurrentWritersAllCommit(_ kind: CatalogKind) async throws {
    let first = try makeLibrary(kind)
    let second = try makeLibrary(kind, sharing: first)
    let photo = try SampleMedia.bytes("plain/IMG_2682.heic")
    try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<16 {
            let library = index.isMultiple(of: 2) ? first : second
            group.addTask {
                try await library.performChanges { context in
                    context.creationRequestForAsset().addResource(with: .photo, data: photo + Array("\(index)".utf8))
                }
            }
        }
        try await group.waitForAll()
    }
    #expect(try first.fetchAssets().count == 16)
    #expect(try first.currentChangeSequence() == 16)
}

/// A real second process (`livepair library delete`) deletes an asset; this process's observer
/// sees it after polling, and both files are gone.
@Test(arguments: CatalogKind.underTest) func realSecondProcessDeleteIsObserved(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    let outcome = try importPair(SamplePairs.iPhone15Second, into: library)
    let resources = try library.assetResources(forLocalIdentifier: outcome.localIdentifier)
    let observer = RecordingObserver()
    library.register(observer)
    let before = try library.fetchAssets()

    let run = try LivePairBinary.run(
        ["library", "delete", outcome.localIdentifier, "--json"] + commandLineOptions(for: library),
        environment: commandLineEnvironment(for: library))
    #expect(run.status == 0, "output: \(run.output) \(run.error)")
    #expect(run.output.contains(outcome.localIdentifier))

    let change = try #require(try library.pollForChanges())
    #expect(change.deletedAssetIdentifiers == [outcome.localIdentifier])
    let details = try #require(change.changeDetails(for: before))
    #expect(details.removedIndexes == IndexSet([0]))
    #expect(details.fetchResultAfterChanges.isEmpty)
    for resource in resources { #expect(!library.store.contains(resource.digest)) }
}
