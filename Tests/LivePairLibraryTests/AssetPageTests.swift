import Foundation
@testable import LivePairLibrary
import TestSupport
import Testing

/// `PhotoLibrary.assetPage` (what `GET /v1/assets` reads: one keyset statement with `LIMIT`, the
/// count, the page's resources and jobs) against the fetch API's answers, on both catalogs; and
/// the records a listing keeps its edit summaries in.
@Suite("Asset pages")
struct AssetPageTests {
    @Test("a page in date-taken order, after a position or from an offset, with its resources, jobs and total", arguments: CatalogKind.underTest)
    func pagesMatchTheFetch(kind: CatalogKind) throws {
        let library = try makeLibrary(kind)
        // Two taken at the same second (ordered by identifier), one later, and bob's.
        for (pair, owner, seconds) in [
            (SamplePairs.train, "alice", 0.0), (SamplePairs.photosLibrary, "alice", 100), (SamplePairs.iPhone15Second, "alice", 100),
            (SamplePairs.iPhone15, "bob", 50),
        ] {
            _ = try importPair(pair, into: library, owner: owner, creationDate: date(seconds))
        }
        let options = FetchOptions(
            predicate: .and([.owner("alice")]),
            sortDescriptors: [AssetSortDescriptor(key: .dateTaken, ascending: false), AssetSortDescriptor(key: .localIdentifier)])
        let fetched = try library.fetchAssets(with: options).map { $0 }
        #expect(fetched.count == 3)
        #expect(fetched[0].creationDate == date(100) && fetched[1].creationDate == date(100) && fetched[2].creationDate == date(0))
        #expect(fetched[0].localIdentifier < fetched[1].localIdentifier)

        let first = try library.assetPage(with: options, after: nil, offset: 0, limit: 2)
        #expect(first.assets == Array(fetched[0..<2]))
        #expect(first.total == 3 && first.hasMore)
        for asset in first.assets {
            #expect(first.resources[asset.localIdentifier] == (try library.assetResources(for: asset)))
            let jobs = try library.derivativeJobs(ofAsset: asset.localIdentifier)
            #expect(jobs.map(\.kind) == [.placeholder, .still, .motion])
            #expect(first.derivativeJobs[asset.localIdentifier] == jobs)
        }
        let position = DateTakenPosition(after: try #require(first.assets.last), ascending: false)
        let second = try library.assetPage(with: options, after: position, offset: 0, limit: 2)
        #expect(second.assets == [fetched[2]])
        #expect(second.total == 3 && !second.hasMore)
        let byOffset = try library.assetPage(with: options, after: nil, offset: 1, limit: 5)
        #expect(byOffset.assets == Array(fetched[1...]))
        #expect(!byOffset.hasMore)
        let past = try library.assetPage(with: options, after: nil, offset: 3, limit: 5)
        #expect(past.assets.isEmpty && past.resources.isEmpty && past.derivativeJobs.isEmpty && past.total == 3)
    }

    @Test("record payloads are read by key in one statement and replaced when put again", arguments: CatalogKind.underTest)
    func recordPayloads(kind: CatalogKind) throws {
        let library = try makeLibrary(kind)
        try library.putRecordPayload([1, 2, 3], namespace: "test.summary", key: "a")
        try library.putRecordPayload([4], namespace: "test.summary", key: "b")
        try library.putRecordPayload([5], namespace: "test.summary", key: "a")
        #expect(try library.recordPayloads(namespace: "test.summary", keys: ["a", "b", "missing"]) == ["a": [5], "b": [4]])
        #expect(try library.recordPayloads(namespace: "other", keys: ["a"]).isEmpty)
        #expect(try library.recordPayloads(namespace: "test.summary", keys: []).isEmpty)
    }
}
