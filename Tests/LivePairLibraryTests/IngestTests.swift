import Foundation
import LivePair
@testable import LivePairLibrary
import TestSupport
import Testing

@Suite struct IngestTests {
    static func captureDate(_ file: String) -> Date? {
        ResourceIdentifier().identify(path: SampleMedia.path(file)).captureDate?.date
    }

    /// Still first or movie first: the first half is pending, the second links a Live Photo dated
    /// by the still's capture date (not the upload time), with the names kept as data.
    @Test(arguments: CatalogKind.underTest, [false, true])
    func pairLinksInEitherOrder(_ kind: CatalogKind, movieFirst: Bool) throws {
        let fixture = try IngestFixture("order", kind)
        defer { fixture.remove() }
        let ingestor = Ingestor(library: try fixture.open())
        let (still, movie) = ingestSamplePairs[0]
        let first = movieFirst ? movie : still, second = movieFirst ? still : movie
        let identifier = try #require(SampleMedia.entry(still)?.contentIdentifier)
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(first), owner: "alice", originalFilename: "first")
            == .pending(contentIdentifier: identifier))
        #expect(try ingestor.pendingUploads(olderThan: 0).count == 1)
        let outcome = try ingestor.ingest(fileAt: SampleMedia.path(second), owner: "alice", originalFilename: "second")
        let assetID = try #require(outcome.localIdentifier)
        let asset = try #require(try ingestor.library.fetchAssets(withLocalIdentifiers: [assetID]).firstObject)
        #expect(outcome == .accepted(localIdentifier: asset.localIdentifier))
        #expect(asset.isLivePhoto && asset.owner == "alice" && asset.contentIdentifier == identifier)
        #expect(abs((asset.creationDate?.timeIntervalSince1970 ?? 0) - (Self.captureDate(still)?.timeIntervalSince1970 ?? -1)) < 0.01)
        let resources = try ingestor.library.assetResources(for: asset)
        #expect(Set(resources.map(\.type)) == [.photo, .pairedVideo])
        #expect(resources.first { $0.type == .photo }?.originalFilename == (movieFirst ? "second" : "first"))
        #expect(try ingestor.pendingUploads(olderThan: 0).isEmpty)
        _ = try IngestInvariants.check(ingestor.library)
    }

    /// A motion photo is an asset in one step; plain files follow the policy.
    @Test(arguments: CatalogKind.underTest) func motionPhotosAndLooseFiles(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("single", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        let motion = try ingestor.ingest(fileAt: SampleMedia.path("motion/PXL_20200710_061629144.MP.jpg"), owner: "a")
        let assetID = try #require(motion.localIdentifier)
        let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [assetID]).firstObject)
        #expect(asset.isLivePhoto && asset.mediaType == .image)
        #expect(try ingestor.ingest(fileAt: SampleMedia.path("plain/IMG_0102.HEIC"), owner: "a").kind == "accepted")
        #expect(try ingestor.ingest(fileAt: SampleMedia.path("plain/IMG_3539.MOV"), owner: "a").kind == "accepted")

        let strict = Ingestor(library: library, options: IngestOptions(stillsWithoutIdentifier: .reject, moviesWithoutIdentifier: .reject))
        guard case let .rejected(findings) = try strict.ingest(fileAt: SampleMedia.path("plain/IMG_2682.heic"), owner: "a") else {
            Issue.record("a plain still must be rejected under the strict policy")
            return
        }
        #expect(findings.map(\.code) == [.missingContentIdentifier])
        guard case let .rejected(corrupt) = try ingestor.ingest(fileAt: SampleMedia.path("broken/badimage.jpeg"), owner: "a", originalFilename: "bad.jpg") else {
            Issue.record("a broken file must be rejected")
            return
        }
        #expect(corrupt.first?.path == "bad.jpg")
        _ = try IngestInvariants.check(library)
    }

    /// Retrying is idempotent: the same bytes of the same owner give the same answer and one file.
    @Test(arguments: CatalogKind.underTest) func retriesAreIdempotent(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("retry", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        let (still, movie) = ingestSamplePairs[1]
        let first = try ingestor.ingest(fileAt: SampleMedia.path(still), owner: "o", uploadID: "u1")
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(still), owner: "o", uploadID: "u1") == first)
        #expect(try ingestor.pendingUploads(olderThan: 0).count == 1)
        let linked = try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "o", uploadID: "u2")
        #expect(linked.kind == "accepted")
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "o", uploadID: "u2") == linked, "a retry of the linking upload")
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(still), owner: "o") == .duplicate(localIdentifier: linked.localIdentifier!),
            "the still uploaded again later")
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "o") == .duplicate(localIdentifier: linked.localIdentifier!))
        #expect(try library.fetchAssets().count == 1)
        #expect(try library.store.allDigests().count == 2)
        _ = try IngestInvariants.check(library)
    }

    /// Owner isolation: a movie of owner B carrying owner A's still's identifier never attaches to A's still.
    @Test(arguments: CatalogKind.underTest) func pairingNeverCrossesOwners(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("owners", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        let (still, movie) = ingestSamplePairs[2]
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(still), owner: "A").kind == "pending")
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "B").kind == "pending", "B's movie must not link A's still")
        #expect(try library.fetchAssets().count == 0)
        #expect(try ingestor.pendingUploads(olderThan: 0, owner: "A").map(\.type) == [.photo])
        #expect(try ingestor.pendingUploads(olderThan: 0, owner: "B").map(\.type) == [.pairedVideo])
        // B importing its movie alone, then A's own movie: A's pair links; B's asset stays B's.
        _ = try ingestor.importPendingAlone(try ingestor.pendingUploads(olderThan: 0, owner: "B"))
        let linked = try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "A")
        let assetID = try #require(linked.localIdentifier)
        let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [assetID]).firstObject)
        #expect(asset.owner == "A" && asset.isLivePhoto)
        let owners = try library.fetchAssets().map(\.owner)
        #expect(owners.sorted { ($0 ?? "") < ($1 ?? "") } == ["A", "B"])
        // Owner names that could collide in a naive key stay apart.
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(ingestSamplePairs[3].still), owner: "x|1:y").kind == "pending")
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(ingestSamplePairs[3].movie), owner: "x").kind == "pending")
        _ = try IngestInvariants.check(library)
    }

    /// Two different stills claiming one identifier and no movie: both wait, in either arrival
    /// order (issue 20: the second was rejected on a warning, so the result depended on the order).
    @Test(arguments: CatalogKind.underTest) func twoStillsWithOneIdentifierBothWait(_ kind: CatalogKind) throws {
        for order in [["live/IMG_2927.HEIC", "live/exif-at-eof.heic"], ["live/exif-at-eof.heic", "live/IMG_2927.HEIC"]] {
            let fixture = try IngestFixture("ambiguous", kind)
            defer { fixture.remove() }
            let library = try fixture.open()
            let ingestor = Ingestor(library: library)
            for sample in order {
                let name = String(sample.dropFirst("live/".count))
                #expect(
                    try ingestor.ingest(fileAt: SampleMedia.path(sample), owner: "o", originalFilename: name)
                        == .pending(contentIdentifier: "1745E022-9712-43C7-B024-F308EC6413CB"), "\(order)")
            }
            let waiting = try ingestor.pendingUploads(olderThan: 0)
            #expect(Set(waiting.compactMap(\.originalFilename)) == ["IMG_2927.HEIC", "exif-at-eof.heic"], "\(order)")
            #expect(waiting.allSatisfy { $0.type == .photo })
            _ = try IngestInvariants.check(library)
        }
    }

    /// Of several halves of one kind waiting, the one a partner links is chosen by name, then
    /// digest, never by arrival.
    @Test func linkOrderIgnoresArrival() throws {
        let digests = [String(repeating: "a", count: 64), String(repeating: "b", count: 64)].compactMap(ContentDigest.init(hex:))
        func half(_ name: String?, _ digest: Int, arrived: Double) -> PendingUpload {
            PendingUpload(
                owner: "o", contentIdentifier: "X", type: .photo, resource: StoredResource(digest: digests[digest], size: 1),
                originalFilename: name, uploadID: nil, receivedAt: Date(timeIntervalSince1970: arrived))
        }
        let halves = [half("b.heic", 0, arrived: 1), half("a.heic", 1, arrived: 2), half(nil, 0, arrived: 0)]
        #expect(halves.min(by: Ingestor.linkOrder)?.originalFilename == "a.heic")
        #expect(halves.reversed().min(by: Ingestor.linkOrder)?.originalFilename == "a.heic")
        #expect([half("a.heic", 1, arrived: 0), half("a.heic", 0, arrived: 1)].min(by: Ingestor.linkOrder)?.resource.digest == digests[0])
    }

    /// The halves arriving across a restart (and hours apart) still link.
    @Test(arguments: CatalogKind.underTest) func pendingSurvivesRestart(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("restart", kind)
        defer { fixture.remove() }
        let (still, movie) = ingestSamplePairs[0]
        do {
            let ingestor = Ingestor(library: try fixture.open())
            #expect(try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "o").kind == "pending")
        }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        #expect(try ingestor.pendingUploads().isEmpty, "younger than the default age")
        #expect(try ingestor.pendingUploads(olderThan: 0).count == 1)
        let outcome = try ingestor.ingest(fileAt: SampleMedia.path(still), owner: "o")
        #expect(outcome.kind == "accepted")
        _ = try IngestInvariants.check(library)
    }

    /// Giving up on a partner: import alone (a late movie then completes the asset) or drop.
    @Test(arguments: CatalogKind.underTest) func stalePendingImportedAloneOrDropped(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("stale", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        let (still, movie) = ingestSamplePairs[1]
        _ = try ingestor.ingest(fileAt: SampleMedia.path(still), owner: "o", originalFilename: "IMG_4580.HEIC")
        let alone = try ingestor.importPendingAlone(try ingestor.pendingUploads(olderThan: 0))
        let identifier = try #require(alone.first?.localIdentifier)
        #expect(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject?.isLivePhoto == false)
        // An observer hears of the late movie attaching, without polling: one changed asset.
        let observed = try library.fetchAssets(with: FetchOptions())
        let observer = RecordingObserver()
        library.register(observer)
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "o") == .accepted(localIdentifier: identifier))
        let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
        #expect(asset.isLivePhoto && asset.duration > 0)
        let details = try #require(observer.changes.first?.changeDetails(for: observed))
        #expect(Array(details.changedIndexes) == [0] && details.insertedIndexes.isEmpty && details.removedIndexes.isEmpty)
        library.unregister(observer)

        let (otherStill, _) = ingestSamplePairs[2]
        _ = try ingestor.ingest(fileAt: SampleMedia.path(otherStill), owner: "o")
        #expect(try ingestor.dropPending(try ingestor.pendingUploads(olderThan: 0)) == 1)
        #expect(try ingestor.pendingUploads(olderThan: 0).isEmpty)
        _ = try IngestInvariants.check(library)
    }

    /// Both directions of a late half (issue 20): a movie imported alone is joined by its still
    /// arriving later, in the same asset, which becomes a Live Photo with the still first.
    @Test(arguments: CatalogKind.underTest) func lateStillJoinsItsMovieImportedAlone(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("late-still", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        let (still, movie) = ingestSamplePairs[1]
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "o", originalFilename: "IMG_4580.mov").kind == "pending")
        let alone = try ingestor.importPendingAlone(try ingestor.pendingUploads(olderThan: 0))
        let identifier = try #require(alone.first?.localIdentifier)
        let video = try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
        #expect(video.mediaType == .video && !video.isLivePhoto)

        let outcome = try ingestor.ingest(fileAt: SampleMedia.path(still), owner: "o", originalFilename: "IMG_4580.HEIC")
        #expect(outcome == .accepted(localIdentifier: identifier))
        #expect(try ingestor.pendingUploads(olderThan: 0).isEmpty)
        let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
        #expect(asset.isLivePhoto && asset.mediaType == .image)
        #expect(asset.contentIdentifier == "4E1A1B89-CE70-4FF8-873B-E4470B839314")
        #expect(asset.pixelWidth == 4032 && asset.pixelHeight == 3024)
        #expect(asset.duration > 2 && asset.stillImageTime != nil)
        let resources = try library.assetResources(for: asset)
        #expect(resources.map(\.type) == [.photo, .pairedVideo])
        #expect(resources.map(\.originalFilename) == ["IMG_4580.HEIC", "IMG_4580.mov"])
        #expect(try library.fetchAssets(with: FetchOptions()).count == 1)
        // The same still again is a duplicate of the asset; nothing is left pending.
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(still), owner: "o") == .duplicate(localIdentifier: identifier))
        #expect(try ingestor.pendingUploads(olderThan: 0).isEmpty)
        _ = try IngestInvariants.check(library)
    }

    /// Deleting a linked Live Photo removes both halves; uploading one half again starts over as pending.
    @Test(arguments: CatalogKind.underTest) func deleteThenReupload(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("delete", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        let (still, movie) = ingestSamplePairs[3]
        _ = try ingestor.ingest(fileAt: SampleMedia.path(still), owner: "o")
        let linked = try #require(try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "o").localIdentifier)
        try library.performChangesAndWait { $0.deleteAssets(withLocalIdentifiers: [linked]) }
        #expect(try library.store.allDigests().isEmpty)
        #expect(try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "o").kind == "pending")
        _ = try IngestInvariants.check(library)
    }

    /// Original filenames are data: `../` and absolute names write nothing outside the library.
    @Test(arguments: CatalogKind.underTest) func originalFilenamesAreNeverPaths(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("names", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        let hostile = ["../../../../tmp/evil.heic", "/etc/passwd"]
        _ = try ingestor.ingest(fileAt: SampleMedia.path(ingestSamplePairs[0].still), owner: "o", originalFilename: hostile[0])
        let outcome = try ingestor.ingest(fileAt: SampleMedia.path(ingestSamplePairs[0].movie), owner: "o", originalFilename: hostile[1])
        let identifier = try #require(outcome.localIdentifier)
        let resources = try library.assetResources(forLocalIdentifier: identifier)
        #expect(Set(resources.compactMap(\.originalFilename)) == Set(hostile))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/evil.heic"))
        let entries = try FileManager.default.contentsOfDirectory(atPath: fixture.directory)
        #expect(entries.allSatisfy { $0.hasPrefix("catalog.sqlite") || $0 == "resources" }, "\(entries)")
    }

    /// The halves of four pairs uploaded all at once by concurrent callers link into four Live Photos.
    @Test(arguments: CatalogKind.underTest) func concurrentUploadsLinkEveryPair(_ kind: CatalogKind) async throws {
        let fixture = try IngestFixture("concurrent", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        let files = ingestSamplePairs.flatMap { [$0.still, $0.movie] }
        let outcomes = try await withThrowingTaskGroup(of: IngestOutcome.self) { group in
            for file in files { group.addTask { try await ingestor.ingest(fileAt: SampleMedia.path(file), owner: "o") } }
            return try await group.reduce(into: [IngestOutcome]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0.kind == "accepted" }.count == 4)
        #expect(outcomes.filter { $0.kind == "pending" }.count == 4)
        let snapshot = try IngestInvariants.check(library)
        #expect(snapshot.assets.count == 4 && snapshot.pending.isEmpty)
    }

    /// Every order of the six halves of three pairs (a seeded sample of the 720, plus sorted and
    /// reversed) ends in the same library: same assets, identifiers, resources and files.
    @Test(arguments: CatalogKind.underTest) func everyOrderGivesTheSameLibrary(_ kind: CatalogKind) throws {
        let files = ingestSamplePairs.prefix(3).flatMap { [$0.still, $0.movie] }
        var generator = SplitMix64(seed: 6)
        var orders = [files, files.reversed()]
        for _ in 0..<10 { orders.append(files.shuffled(using: &generator)) }
        var reference: IngestSnapshot?
        for order in orders {
            let fixture = try IngestFixture("permutation", kind)
            defer { fixture.remove() }
            let library = try fixture.open()
            let ingestor = Ingestor(library: library)
            for file in order { _ = try ingestor.ingest(fileAt: SampleMedia.path(file), owner: "o") }
            let snapshot = try IngestInvariants.check(library)
            #expect(snapshot.assets.count == 3 && snapshot.pending.isEmpty)
            if let reference { #expect(snapshot == reference, "order \(order)") } else { reference = snapshot }
        }
    }
}
