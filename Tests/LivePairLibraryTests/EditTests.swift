import Foundation
import LivePair
import LivePairFormats
@testable import LivePairLibrary
import TestSupport
import Testing

/// Edits in the library (docs/editing.md): an original, its render and its adjustment data are one
/// asset, whichever order the files arrive in; requests choose the version; an edit made elsewhere
/// is applied, and reverted, in `performChanges`.
@Suite("Edits and versions")
struct EditTests {
    typealias Digest = EditSamples.Digest

    /// The rotations: each file first once and last once (five of the 120 orders of five files).
    static func orders<T>(_ items: [T]) -> [[T]] {
        items.indices.map { Array(items[$0...] + items[..<$0]) }
    }

    @Test("IMG_3582 + its render + .AAE, uploaded one at a time in five orders, each file first and last once (and two with Photos' `_edited` names), is one Live Photo with five resources", arguments: CatalogKind.underTest)
    func liveGroupInAnyOrder(_ kind: CatalogKind) throws {
        var reference: IngestSnapshot?
        for exportNames in [true, false] {
            let orders = Self.orders(EditSamples.group3582(exportNames: exportNames))
            for (number, order) in (exportNames ? orders : [orders[0], orders[4]]).enumerated() {
                let fixture = try IngestFixture("edit-3582-\(exportNames)-\(number)", kind)
                defer { fixture.remove() }
                let library = try fixture.open()
                let ingestor = Ingestor(library: library)
                var outcomes: [IngestOutcome] = []
                for (file, name) in order {
                    outcomes.append(
                        try ingestor.ingest(fileAt: SampleMedia.path(file), owner: "owner", originalFilename: name, folder: "/photos"))
                }
                // The last file completes the group: it is accepted into the asset.
                #expect(outcomes.last?.kind == "accepted", "order \(order.map(\.1)): \(outcomes)")
                let assets = try library.fetchAssets(with: FetchOptions())
                try #require(assets.count == 1, "order \(order.map(\.1))")
                let asset = try assets.object(at: 0)
                #expect(asset.isLivePhoto && asset.hasAdjustments)
                #expect(asset.contentIdentifier == "602FEBB7-6B59-4799-96E6-9C8484D873C7")  // the original's, not the render's
                let resources = try library.assetResources(for: asset)
                #expect(EditSamples.kinds(resources) == [
                    "adjustmentData:\(Digest.aae3582)", "fullSizePairedVideo:\(Digest.renderMovie3582)",
                    "fullSizePhoto:\(Digest.renderStill3582)", "pairedVideo:\(Digest.movie3582)", "photo:\(Digest.still3582)",
                ])
                #expect(resources.first { $0.type == .adjustmentData }?.uniformTypeIdentifier == "com.apple.photos.adjustment-data")
                #expect(resources.first { $0.type == .fullSizePhoto }?.uniformTypeIdentifier == "public.heic")
                // The .AAE again (a retry): the asset that has it.
                #expect(
                    try ingestor.ingest(
                        fileAt: SampleMedia.path("live/IMG_3582.AAE"), owner: "owner", originalFilename: "IMG_3582.AAE", folder: "/photos")
                        == .duplicate(localIdentifier: asset.localIdentifier))
                let snapshot = try IngestInvariants.check(library)
                #expect(snapshot.pending.isEmpty)
                #expect(try ingestor.waitingEditParts().isEmpty)
                if let reference { #expect(snapshot == reference, "order \(order.map(\.1)) differs") } else { reference = snapshot }
            }
        }
    }

    @Test("IMG_1853 + IMG_E1853 + .AAE in all six orders: the parts wait for the still, which has no movie; settled, one photo with three resources", arguments: CatalogKind.underTest)
    func stillGroupInEveryOrder(_ kind: CatalogKind) throws {
        for (number, order) in IngestEveryOrderTests.permutations(EditSamples.group1853).enumerated() {
            let fixture = try IngestFixture("edit-1853-\(number)", kind)
            defer { fixture.remove() }
            let library = try fixture.open()
            let ingestor = Ingestor(library: library)
            var outcomes: [String: IngestOutcome] = [:]
            for (file, name) in order {
                outcomes[name] = try ingestor.ingest(fileAt: SampleMedia.path(file), owner: "owner", originalFilename: name, folder: "/a")
            }
            #expect(outcomes["IMG_1853.HEIC"] == .pending(contentIdentifier: "DC121C25-1A7C-4FEC-BB42-99FB89A4719D"))
            #expect(outcomes["IMG_E1853.heic"] == .pending(contentIdentifier: "edit:img_1853"))
            #expect(outcomes["IMG_1853.AAE"] == .pending(contentIdentifier: "edit:img_1853"))
            #expect(try ingestor.waitingEditParts().map(\.type).sorted(by: { $0.rawValue < $1.rawValue }) == [.adjustmentData, .fullSizePhoto])
            let (identifier, asset) = try EditSamples.settleAlone(ingestor, in: library)
            #expect(asset.mediaType == .image && !asset.isLivePhoto && asset.hasAdjustments)
            #expect(EditSamples.kinds(try library.assetResources(for: asset)) == [
                "adjustmentData:\(Digest.aae1853)", "fullSizePhoto:\(Digest.render1853)", "photo:\(Digest.original1853)",
            ])
            #expect(try ingestor.waitingEditParts().isEmpty)
            #expect(try ingestor.editPartOutcome(named: "IMG_1853.AAE", folder: "/a", owner: "owner") == .accepted(localIdentifier: identifier))
            _ = try IngestInvariants.check(library)
        }
    }

    @Test("renders whose original never came, settled: IMG_E3582's halves one Live Photo by their own identifier, IMG_E1853 a photo; the .AAE keeps waiting", arguments: CatalogKind.underTest)
    func rendersWithoutOriginalSettled(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("edit-orphan", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        for (file, name, folder) in [
            ("live/IMG_3582_edited.heic", "IMG_E3582.HEIC", "/e"), ("live/IMG_3582_edited.mov", "IMG_E3582.MOV", "/e"),
            ("live/IMG_3582.AAE", "IMG_3582.AAE", "/e"), ("live/IMG_E1853.heic", "IMG_E1853.heic", "/f"),
        ] {
            #expect(
                try ingestor.ingest(fileAt: SampleMedia.path(file), owner: "owner", originalFilename: name, folder: folder).kind
                    == "pending")
        }
        // The original of another group is here: its waiting parts are not settled alone.
        _ = try ingestor.ingest(
            fileAt: SampleMedia.path("live/IMG_1853.HEIC"), owner: "owner", originalFilename: "IMG_1853.HEIC", folder: "/g")
        _ = try ingestor.ingest(
            fileAt: SampleMedia.path("live/IMG_1853.AAE"), owner: "owner", originalFilename: "IMG_1853.AAE", folder: "/g")
        #expect(try library.fetchAssets(with: FetchOptions()).count == 0)

        let settled = try ingestor.importWaitingRendersAlone(try ingestor.waitingEditParts())
        #expect(settled.map { $0.0.originalFilename } == ["IMG_E3582.HEIC", "IMG_E3582.MOV", "IMG_E1853.heic"])
        #expect(settled.allSatisfy { $0.1.kind == "accepted" })
        #expect(settled[0].1 == settled[1].1 && settled[0].1 != settled[2].1)
        let liveID = try #require(settled[0].1.localIdentifier)
        let stillID = try #require(settled[2].1.localIdentifier)
        let live = try #require(try library.fetchAssets(withLocalIdentifiers: [liveID]).firstObject)
        #expect(live.isLivePhoto && !live.hasAdjustments)
        #expect(live.contentIdentifier == "87D06EAA-DAEF-4498-ABC5-27FE5C8CE710")
        #expect(EditSamples.kinds(try library.assetResources(for: live)) == [
            "pairedVideo:\(Digest.renderMovie3582)", "photo:\(Digest.renderStill3582)",
        ])
        let still = try #require(try library.fetchAssets(withLocalIdentifiers: [stillID]).firstObject)
        #expect(still.mediaType == .image && !still.isLivePhoto && !still.hasAdjustments)
        #expect(still.contentIdentifier == "DDFE07E3-65A7-4329-896F-41C370FF4FCD")
        #expect(EditSamples.kinds(try library.assetResources(for: still)) == ["photo:\(Digest.render1853)"])
        // Left waiting: IMG_3582.AAE (no edit to describe) and IMG_1853.AAE, whose original (pending) is here.
        #expect(try ingestor.waitingEditParts().compactMap(\.originalFilename).sorted() == ["IMG_1853.AAE", "IMG_3582.AAE"])
        // Settling again changes nothing.
        #expect(try ingestor.importWaitingRendersAlone(try ingestor.waitingEditParts()).isEmpty)
        #expect(try library.fetchAssets(with: FetchOptions()).count == 2)
        _ = try IngestInvariants.check(library)
    }

    @Test("a render joining its original's asset queues the asset's derivative jobs again (the version shown is now the render)", arguments: CatalogKind.underTest)
    func attachedRenderQueuesDerivativeJobs(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("edit-jobs", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        _ = try ingestor.ingest(
            fileAt: SampleMedia.path("live/IMG_1853.HEIC"), owner: "owner", originalFilename: "IMG_1853.HEIC", folder: "/a")
        let identifier = try #require(try ingestor.importPendingAlone(try ingestor.pendingUploads(olderThan: 0)).first?.localIdentifier)
        // The original's jobs made (claimed and finished as a worker would).
        let claim = DerivativeJobClaim(node: "test")
        while let job = try library.claimDerivativeJob(claim) {
            try library.finishDerivativeJob(job, outcome: .done, maxAttempts: claim.maxAttempts)
        }
        #expect(try library.derivativeJobs(ofAsset: identifier).map(\.state) == [.done, .done])
        #expect(
            try ingestor.ingest(
                fileAt: SampleMedia.path("live/IMG_E1853.heic"), owner: "owner", originalFilename: "IMG_E1853.heic", folder: "/a")
                == .accepted(localIdentifier: identifier))
        #expect(try library.derivativeJobs(ofAsset: identifier).map(\.state) == [.queued, .queued])
    }

    @Test("a render and an .AAE in another folder, or of another owner, never join the original", arguments: CatalogKind.underTest)
    func otherFolderOrOwnerStaysApart(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("edit-apart", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        try EditSamples.ingest(EditSamples.group3582(exportNames: true).prefix(2), with: ingestor, folder: "/one")
        let render = try ingestor.ingest(
            fileAt: SampleMedia.path("live/IMG_3582_edited.heic"), owner: "owner", originalFilename: "IMG_E3582.HEIC", folder: "/two")
        let aae = try ingestor.ingest(
            fileAt: SampleMedia.path("live/IMG_3582.AAE"), owner: "other", originalFilename: "IMG_3582.AAE", folder: "/one")
        #expect(render == .pending(contentIdentifier: "edit:img_3582") && aae == .pending(contentIdentifier: "edit:img_3582"))
        let asset = try #require(try library.fetchAssets(with: FetchOptions()).firstObject)
        #expect(!asset.hasAdjustments)
        #expect(try EditSamples.kinds(library.assetResources(for: asset)).count == 2)
        #expect(try ingestor.waitingEditParts().count == 2)
        _ = try IngestInvariants.check(library)
    }

    @Test("the camera's IMG_O1853.AAE is kept as originalAdjustmentData; an unreadable .AAE is kept byte for byte", arguments: CatalogKind.underTest)
    func cameraAndUnreadableAdjustments(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("edit-camera", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        let scratch = try makeTemporaryDirectory("edit-camera-files")
        let broken = scratch + "/IMG_2682.AAE"
        let brokenBytes = Array("<?xml version=\"1.0\"?><plist><dict><key>x</key>".utf8)
        try Data(brokenBytes).write(to: URL(fileURLWithPath: broken))
        _ = try ingestor.ingest(
            fileAt: SampleMedia.path("live/IMG_1853.AAE"), owner: "o", originalFilename: "IMG_O2682.AAE", folder: "/f")
        _ = try ingestor.ingest(fileAt: broken, owner: "o", originalFilename: "IMG_2682.AAE", folder: "/f")
        let photo = try ingestor.ingest(
            fileAt: SampleMedia.path("plain/IMG_2682.heic"), owner: "o", originalFilename: "IMG_2682.heic", folder: "/f")
        let identifier = try #require(photo.localIdentifier)
        let asset = try EditSamples.asset(identifier, in: library)
        let resources = try library.assetResources(for: asset)
        // Linked by name, then digest: IMG_2682.AAE before IMG_O2682.AAE.
        #expect(resources.map(\.type) == [.photo, .adjustmentData, .originalAdjustmentData])
        let stored = try AssetResourceManager(library: library).data(for: try #require(resources.first { $0.type == .adjustmentData }))
        #expect(stored == brokenBytes)
        #expect(asset.hasAdjustments)
        #expect(throws: LibraryError.self) { _ = try library.adjustmentData(for: asset) }
    }

    @Test("an edit applied in performChanges, then reverted: versions, adjustment data, originals byte-identical", arguments: CatalogKind.underTest)
    func applyAndRevert(_ kind: CatalogKind) throws {
        let library = try makeLibrary(kind)
        let created = try EditSamples.createLivePhoto3582(in: library)
        let identifier = created.identifier
        var asset = created.asset
        #expect(!asset.hasAdjustments)
        #expect(try library.adjustmentData(for: asset) == nil)

        let edited = try library.performChangesAndWait { context in
            let request = context.changeRequest(for: asset)
            request.contentEditingOutput = ContentEditingOutput(
                adjustmentDataPath: SampleMedia.path("live/IMG_3582.AAE"),
                renderedPhotoPath: SampleMedia.path("live/IMG_3582_edited.heic"),
                renderedVideoPath: SampleMedia.path("live/IMG_3582_edited.mov"))
        }
        #expect(edited.changeSequence != nil)
        asset = try EditSamples.asset(identifier, in: library)
        #expect(asset.hasAdjustments)
        let adjustment = try #require(try library.adjustmentData(for: asset))
        #expect(adjustment.formatIdentifier == "com.apple.photo" && adjustment.formatVersion == "1.11")
        let all = try library.assetResources(for: asset)
        #expect(all.map(\.type) == [.photo, .pairedVideo, .adjustmentData, .fullSizePhoto, .fullSizePairedVideo])
        #expect(all.map(\.originalFilename) == ["IMG_3582.HEIC", "IMG_3582.mov", "IMG_3582.AAE", "IMG_3582_edited.heic", "IMG_3582_edited.mov"])
        #expect(all.still(version: .current)?.digest.hex.hasPrefix(Digest.renderStill3582) == true)
        #expect(all.still(version: .original)?.digest.hex.hasPrefix(Digest.still3582) == true)
        #expect(all.movie(version: .current)?.digest.hex.hasPrefix(Digest.renderMovie3582) == true)
        #expect(all.movie(version: .unadjusted)?.digest.hex.hasPrefix(Digest.movie3582) == true)
        #expect(EditSamples.kinds(try library.assetResources(for: asset, version: .current)) == [
            "adjustmentData:\(Digest.aae3582)", "fullSizePairedVideo:\(Digest.renderMovie3582)", "fullSizePhoto:\(Digest.renderStill3582)",
        ])
        #expect(EditSamples.kinds(try library.assetResources(for: asset, version: .original)) == [
            "pairedVideo:\(Digest.movie3582)", "photo:\(Digest.still3582)",
        ])
        let manager = AssetResourceManager(library: library)
        let currentBytes = try manager.data(for: try #require(all.still(version: .current)))
        let originalBytes = try manager.data(for: try #require(all.still(version: .original)))
        #expect(try currentBytes == SampleMedia.bytes("live/IMG_3582_edited.heic"))
        #expect(try originalBytes == SampleMedia.bytes("live/IMG_3582.HEIC"))

        // A still render cannot edit a video; the failing batch changes nothing.
        #expect(throws: LibraryError.self) {
            try library.performChangesAndWait { context in
                context.changeRequest(for: asset).contentEditingOutput = ContentEditingOutput(
                    adjustmentDataPath: SampleMedia.path("live/IMG_3582.AAE"),
                    renderedPhotoPath: SampleMedia.path("live/IMG_3582.AAE"))
            }
        }
        #expect(try library.assetResources(for: asset) == all)

        let renderDigests = all.filter { $0.type.isEdit }.map(\.digest)
        try library.performChangesAndWait { context in context.changeRequest(for: asset).revertAssetContentToOriginal() }
        asset = try EditSamples.asset(identifier, in: library)
        #expect(!asset.hasAdjustments)
        #expect(try library.assetResources(for: asset) == Array(all.prefix(2)))
        // Nothing uses the render and the adjustment data any more: their files left the store.
        #expect(renderDigests.allSatisfy { !library.store.contains($0) })
        #expect(all.prefix(2).allSatisfy { library.store.contains($0.digest) })
        let reverted = try library.performChangesAndWait { context in context.changeRequest(for: asset).revertAssetContentToOriginal() }
        #expect(reverted.changeSequence == nil)  // nothing to revert: no change logged
    }

    @Test("a migration carries the waiting edit parts and their original's group: settled on the target, one photo with three resources")
    func migrationKeepsWaitingEdits() throws {
        let source = try makeLibrary(.sqlite)
        try EditSamples.ingest(EditSamples.group1853, with: Ingestor(library: source), folder: "/m")
        let locations = try CatalogKind.postgres.newLocations()
        let target = try PhotoLibrary.open(
            catalog: locations.catalog, store: locations.store, configuration: LibraryConfiguration(orphanGracePeriod: 0), create: true)
        let report = try LibraryMigration(from: source, to: target).run()
        #expect(report.recordsCopied == 4)  // the pending still, two edit parts, the still's edit group
        let moved = Ingestor(library: target)
        #expect(try moved.waitingEditParts().count == 2)
        let (_, asset) = try EditSamples.settleAlone(moved, in: target)
        #expect(asset.hasAdjustments)
        #expect(EditSamples.kinds(try target.assetResources(for: asset)) == [
            "adjustmentData:\(Digest.aae1853)", "fullSizePhoto:\(Digest.render1853)", "photo:\(Digest.original1853)",
        ])
    }
}
