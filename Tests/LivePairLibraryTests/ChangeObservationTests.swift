import Foundation
import LivePair
@testable import LivePairLibrary
import TestSupport
import Testing

/// Three Live Photos dated 10, 20, 30 s (A, B, C), fetched by creation date.
private func libraryWithThree(_ kind: CatalogKind) throws -> (PhotoLibrary, [String]) {
    let library = try makeLibrary(kind)
    var identifiers: [String] = []
    for (pair, seconds) in zip([SamplePairs.train, SamplePairs.iPhone15, SamplePairs.iPhone15Second], [10.0, 20, 30]) {
        identifiers.append(try importPair(pair, into: library, creationDate: date(seconds)).localIdentifier)
    }
    return (library, identifiers)
}

private let byDate = FetchOptions(sortDescriptors: [AssetSortDescriptor(key: .creationDate)])

@Test(arguments: CatalogKind.underTest) func observerSeesInsertsWithIndexes(_ kind: CatalogKind) throws {
    let (library, ids) = try libraryWithThree(kind)
    let observer = RecordingObserver()
    library.register(observer)
    let before = try library.fetchAssets(with: byDate)
    let inserted = try importPair(SamplePairs.photosLibrary, into: library, creationDate: date(15))
    let change = try #require(observer.changes.first)
    #expect(observer.changes.count == 1)
    #expect(change.insertedAssetIdentifiers == [inserted.localIdentifier])
    let details = try #require(change.changeDetails(for: before))
    #expect(details.fetchResultBeforeChanges.localIdentifiers == ids)
    #expect(details.fetchResultAfterChanges.localIdentifiers == [ids[0], inserted.localIdentifier, ids[1], ids[2]])
    #expect(details.insertedIndexes == IndexSet([1]))
    #expect(details.removedIndexes.isEmpty && details.changedIndexes.isEmpty && !details.hasMoves)
    #expect(details.hasIncrementalChanges)
}

@Test(arguments: CatalogKind.underTest) func observerSeesDeletesAndChanges(_ kind: CatalogKind) throws {
    let (library, ids) = try libraryWithThree(kind)
    let observer = RecordingObserver()
    library.register(observer)
    let before = try library.fetchAssets(with: byDate)
    try library.performChangesAndWait { context in
        context.deleteAssets(withLocalIdentifiers: [ids[1]])
        context.changeRequest(for: before[2]).isFavorite = true
    }
    let details = try #require(observer.changes.last?.changeDetails(for: before))
    #expect(details.removedIndexes == IndexSet([1]))
    #expect(details.insertedIndexes.isEmpty)
    #expect(details.changedIndexes == IndexSet([1]))  // C, now at index 1
    #expect(details.changedObjects.map(\.isFavorite) == [true])
    #expect(details.removedObjects.map(\.localIdentifier) == [ids[1]])
    #expect(!details.hasMoves)
    // A fetch result the change does not touch gets no details.
    let untouched = try library.fetchAssets(with: FetchOptions(predicate: .owner("nobody")))
    #expect(observer.changes.last?.changeDetails(for: untouched) == nil)
}

/// Changing a date re-sorts: the asset moves, and its row changes.
@Test(arguments: CatalogKind.underTest) func observerSeesMovesWhenADateChanges(_ kind: CatalogKind) throws {
    let (library, ids) = try libraryWithThree(kind)
    let observer = RecordingObserver()
    library.register(observer)
    let before = try library.fetchAssets(with: byDate)
    try library.performChangesAndWait { context in context.changeRequest(for: before[0]).creationDate = date(40) }
    let details = try #require(observer.changes.last?.changeDetails(for: before))
    #expect(details.fetchResultAfterChanges.localIdentifiers == [ids[1], ids[2], ids[0]])
    #expect(details.removedIndexes.isEmpty && details.insertedIndexes.isEmpty)
    #expect(details.changedIndexes == IndexSet([2]))
    #expect(details.hasMoves)
    var moves: [[Int]] = []
    details.enumerateMoves { from, to in moves.append([from, to]) }
    #expect(moves == [[0, 2]])
    library.unregister(observer)
    try library.performChangesAndWait { context in context.changeRequest(for: before[1]).isHidden = true }
    #expect(observer.changes.count == 1)
}

/// Moves, removals and insertions together, checked by applying them to the before list.
@Test func combinedDiffRebuildsTheAfterList() {
    let before = ["A", "B", "C", "D", "E", "F"]
    let after = ["F", "X", "B", "D", "C", "Y"]
    let diff = OrderedDiff(before: before, after: after)
    #expect(diff.removed == [0, 4])
    #expect(diff.inserted == [1, 5])
    // Intermediate: before minus removals (B C D F), with insertions at their after indexes.
    var intermediate = before.enumerated().filter { !diff.removed.contains($0.offset) }.map(\.element)
    for index in diff.inserted { intermediate.insert(after[index], at: index) }
    #expect(intermediate == ["B", "X", "C", "D", "F", "Y"])
    // All moves at once: moved objects take their targets, inserted ones their places, the rest keep their order.
    var result = [String?](repeating: nil, count: after.count)
    let moved = Set(diff.moves.map { intermediate[$0.from] })
    for index in diff.inserted { result[index] = after[index] }
    for move in diff.moves { result[move.to] = intermediate[move.from] }
    let insertedObjects = Set(diff.inserted.map { after[$0] })
    var rest = intermediate.filter { !moved.contains($0) && !insertedObjects.contains($0) }.makeIterator()
    for index in result.indices where result[index] == nil { result[index] = rest.next() }
    #expect(result.compactMap { $0 } == after)
    #expect(diff.moves.count == 2)
}

@Test(arguments: CatalogKind.underTest) func albumFetchResultsReportChanges(_ kind: CatalogKind) throws {
    let (library, ids) = try libraryWithThree(kind)
    let observer = RecordingObserver()
    library.register(observer)
    let albums = try library.fetchAssetCollections()
    try library.performChangesAndWait { context in
        context.creationRequestForAssetCollection(withTitle: "New").addAssets(withLocalIdentifiers: [ids[2], ids[0]])
    }
    let details = try #require(observer.changes.last?.changeDetails(for: albums))
    #expect(details.insertedIndexes == IndexSet([0]))
    #expect(details.insertedObjects.map(\.title) == ["New"])
    let album = details.fetchResultAfterChanges[0]
    let members = try library.fetchAssets(in: album)
    try library.performChangesAndWait { _ in AssetCollectionChangeRequest(for: album).addAssets(withLocalIdentifiers: [ids[1]]) }
    let memberDetails = try #require(observer.changes.last?.changeDetails(for: members))
    #expect(memberDetails.insertedIndexes == IndexSet([2]))
}

@Test(arguments: CatalogKind.underTest) func asyncSequenceDeliversChanges(_ kind: CatalogKind) async throws {
    let (library, _) = try libraryWithThree(kind)
    let stream = library.changes()
    let result = try await library.performChanges { context in
        _ = context.creationRequestForAssetCollection(withTitle: "Async")
    }
    var iterator = stream.makeAsyncIterator()
    let change = try #require(await iterator.next())
    #expect(change.changedCollectionIdentifiers == Set(result.createdCollections))
    #expect(change.sequences.upperBound == result.changeSequence)
}

@Test(arguments: CatalogKind.underTest) func completionHandlerFormReportsTheOutcome(_ kind: CatalogKind) async throws {
    let library = try makeLibrary(kind)
    let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<ChangeResult, LibraryError>, Never>) in
        library.performChanges({ _ in
            let request = AssetCreationRequest.creationRequestForAsset()
            request.addResource(with: .photo, path: SampleMedia.path("live/IMG_3582.HEIC"))
            request.addResource(with: .pairedVideo, path: SampleMedia.path("live/IMG_4580.mov"))
        }, completionHandler: { continuation.resume(returning: $0) })
    }
    guard case let .failure(.invalidLivePhoto(findings)) = outcome else {
        Issue.record("expected an invalid Live Photo, got \(outcome)")
        return
    }
    #expect(findings.contains { $0.code.rawValue == "identifier-mismatch" })
}
