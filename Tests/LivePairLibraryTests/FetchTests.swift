import Foundation
@testable import LivePairLibrary
import TestSupport
import Testing

/// A library with four Live Photos (dates 40, 10, 30, 20 s), a motion photo (no date set: its own)
/// and a hidden, favorite one; returns the library and the identifiers in import order.
private func populatedLibrary(_ kind: CatalogKind) throws -> (PhotoLibrary, [String]) {
    let library = try makeLibrary(kind)
    var identifiers: [String] = []
    for (pair, seconds) in zip(SamplePairs.all, [40.0, 10, 30, 20]) {
        identifiers.append(try importPair(pair, into: library, owner: "alice", creationDate: date(seconds)).localIdentifier)
    }
    let result = try library.performChangesAndWait { context in
        context.creationRequestForAsset().addResource(with: .photo, path: SampleMedia.path("motion/motionphoto.heic"))
        let plain = context.creationRequestForAsset()
        plain.addResource(with: .photo, path: SampleMedia.path("plain/IMG_2682.heic"))
        plain.isHidden = true
        plain.isFavorite = true
        plain.creationDate = date(5)
    }
    identifiers += result.assets.map(\.localIdentifier)
    return (library, identifiers)
}

@Test(arguments: CatalogKind.underTest) func fetchesWithPredicatesSortsAndLimits(_ kind: CatalogKind) throws {
    let (library, ids) = try populatedLibrary(kind)
    #expect(try library.fetchAssets().localIdentifiers == Array(ids[0..<5]))
    #expect(try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true)).localIdentifiers == ids)

    let byDate = FetchOptions(predicate: .owner("alice"), sortDescriptors: [AssetSortDescriptor(key: .creationDate)])
    #expect(try library.fetchAssets(with: byDate).localIdentifiers == [ids[1], ids[3], ids[2], ids[0]])
    var newestTwo = byDate
    newestTwo.sortDescriptors = [AssetSortDescriptor(key: .creationDate, ascending: false)]
    newestTwo.fetchLimit = 2
    #expect(try library.fetchAssets(with: newestTwo).localIdentifiers == [ids[0], ids[2]])

    let between = FetchOptions(predicate: .creationDate(.between(date(10), date(30))), sortDescriptors: [.init(key: .creationDate)])
    #expect(try library.fetchAssets(with: between).localIdentifiers == [ids[1], ids[3], ids[2]])
    let before = FetchOptions(predicate: .and([.creationDate(.before(date(20))), .owner("alice")]))
    #expect(try library.fetchAssets(with: before).localIdentifiers == [ids[1]])
    let after = FetchOptions(predicate: .creationDate(.after(date(30))))
    #expect(try library.fetchAssets(with: after).localIdentifiers.contains(ids[0]))

    #expect(try library.fetchAssets(with: FetchOptions(predicate: .owner(nil))).localIdentifiers == [ids[4]])
    #expect(try library.fetchAssets(with: FetchOptions(predicate: .livePhotos)).count == 5)
    #expect(try library.fetchAssets(with: FetchOptions(predicate: .not(.livePhotos), includeHiddenAssets: true)).localIdentifiers == [ids[5]])
    #expect(try library.fetchAssets(with: FetchOptions(predicate: .favorite(true))).isEmpty)
    #expect(try library.fetchAssets(with: FetchOptions(predicate: .hidden(true), includeHiddenAssets: true)).localIdentifiers == [ids[5]])
    #expect(try library.fetchAssets(with: FetchOptions(predicate: .mediaType(.video))).isEmpty)
    let either = FetchOptions(predicate: .or([.contentIdentifier("E905E6C6-C747-4805-942F-9904A0281F02"), .contentIdentifier("602FEBB7-6B59-4799-96E6-9C8484D873C7")]))
    #expect(try library.fetchAssets(with: either).localIdentifiers == [ids[0], ids[3]])
    // Values are bound, never spliced into SQL.
    let hostile = FetchOptions(predicate: .owner("x' OR 1=1 --"))
    #expect(try library.fetchAssets(with: hostile).isEmpty)
    #expect(try library.fetchAssets(withLocalIdentifiers: [ids[2], "missing", ids[5]]).localIdentifiers == [ids[2], ids[5]])
    let sortedBySize = FetchOptions(sortDescriptors: [.init(key: .pixelWidth, ascending: false), .init(key: .creationDate)])
    #expect(try library.fetchAssets(with: sortedBySize).first?.pixelWidth == 5712)
}

@Test func predicateCompilesToParametersOnly() {
    let query = AssetQuery(
        scope: .collection("album'); DROP TABLE assets; --"),
        options: FetchOptions(
            predicate: .and([.owner("o'wner"), .contentIdentifier("id\"x"), .not(.subtypes(containing: .photoLive))]),
            sortDescriptors: [.init(key: .duration, ascending: false)], fetchLimit: 3))
    let compiled = AssetQuerySQL(query)
    #expect(!compiled.sql.contains("o'wner") && !compiled.sql.contains("DROP"))
    #expect(compiled.parameters.count == 6)
    #expect(compiled.sql.hasSuffix("ORDER BY a.duration DESC, m.position, a.rowid LIMIT ?"))
}

/// A fetch result is a snapshot: later commits (changes, inserts, deletes) do not change it.
@Test(arguments: CatalogKind.underTest) func fetchResultDoesNotChangeUnderTheCaller(_ kind: CatalogKind) throws {
    let (library, ids) = try populatedLibrary(kind)
    let snapshot = try library.fetchAssets(with: FetchOptions(sortDescriptors: [.init(key: .creationDate)]))
    let order = snapshot.localIdentifiers
    let first = snapshot[0]
    try library.performChangesAndWait { context in
        context.changeRequest(for: first).isFavorite = true
        context.deleteAssets(withLocalIdentifiers: [ids[0]])
    }
    try importPair(SamplePairs.iPhone15, into: library, owner: "bob")
    #expect(snapshot.localIdentifiers == order)
    #expect(snapshot.count == 5)
    #expect(!snapshot[0].isFavorite)
    #expect(snapshot.map(\.localIdentifier) == order)  // the deleted asset is still readable here
    let again = try library.fetchAssets(with: FetchOptions(sortDescriptors: [.init(key: .creationDate)]))
    #expect(again.count == 5 && again.first?.isFavorite == true && !again.localIdentifiers.contains(ids[0]))
}

/// Results larger than a page read later pages on demand.
@Test(arguments: CatalogKind.underTest) func largeResultsLoadPagesLazily(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    var created: [String] = []
    for index in 0..<(FetchResultStorage<Asset>.pageSize + 5) {
        let outcome = try library.performChangesAndWait { context in
            context.creationRequestForAsset().addResource(
                with: .photo, data: try SampleMedia.bytes("plain/IMG_2682.heic") + Array("\(index)".utf8))
        }
        created.append(outcome.assets[0].localIdentifier)
    }
    let result = try library.fetchAssets()
    #expect(result.count == created.count)
    #expect(result.last?.localIdentifier == created.last)
    #expect(result.map(\.localIdentifier) == created)
}

/// Date-taken order and keyset paging compile to the same SQL on both catalogs: newest first then
/// oldest first, and the assets after a position in either direction, whatever comes before it.
@Test(arguments: CatalogKind.underTest) func dateTakenOrderPagesAfterAPosition(_ kind: CatalogKind) throws {
    let (library, ids) = try populatedLibrary(kind)
    // The motion photo keeps its own date, 2023-03-08 (before the Live Photos' 2024 dates).
    let motion = ids[4]
    func order(ascending: Bool, after position: DateTakenPosition? = nil) throws -> [String] {
        let conditions: [AssetPredicate] = position.map { [.follows($0)] } ?? []
        return try library.fetchAssets(
            with: FetchOptions(
                predicate: .and(conditions),
                sortDescriptors: [AssetSortDescriptor(key: .dateTaken, ascending: ascending), AssetSortDescriptor(key: .localIdentifier)])
        ).localIdentifiers
    }
    #expect(try order(ascending: false) == [ids[0], ids[2], ids[3], ids[1], motion])
    #expect(try order(ascending: true) == [motion, ids[1], ids[3], ids[2], ids[0]])
    let third = try #require(try library.fetchAssets(withLocalIdentifiers: [ids[3]]).firstObject)
    #expect(third.dateTaken == date(20))
    #expect(try order(ascending: false, after: DateTakenPosition(after: third, ascending: false)) == [ids[1], motion])
    #expect(try order(ascending: true, after: DateTakenPosition(after: third, ascending: true)) == [ids[2], ids[0]])
    // A position at the same date as an asset: only identifiers after its own come.
    let tie = DateTakenPosition(dateTaken: date(20), localIdentifier: "", ascending: false)
    #expect(try order(ascending: false, after: tie) == [ids[3], ids[1], motion])
}
