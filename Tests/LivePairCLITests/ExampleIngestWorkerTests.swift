import Foundation
import Testing
import TestSupport

/// The embedding example (`Examples/IngestWorker`, docs/embedding.md), run as a backend developer
/// would: it is built with the package from LivePair's public API alone, so these checks keep the
/// documented walk-through (open, observe, ingest as uploads arrive, request Live Photos) working.
@Suite struct ExampleIngestWorkerTests {
    static let live = SampleMedia.path("live")

    /// The example's JSON lines.
    static func lines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { try LivePairBinary.json(String($0)) }
    }

    @Test func ingestsTheSampleFolderRequestsEachLivePhotoAndHearsEveryChange() throws {
        let binary = try #require(LivePairBinary.executable(named: "livepair-example-ingest"), "the example is not built")
        let library = try TestScratch.folder("example-ingest") + "/library"
        let run = try LivePairBinary.run(["--library", library, Self.live], binary: binary)
        // Nothing is rejected: the .AAE edit files are consumed as their edits' adjustment data.
        #expect(run.status == 0, "\(run.error)")
        let lines = try Self.lines(run.output)
        try #require(lines.count == 16 + 4 + 1, "\(run.output)")

        // One line per upload, in name order: each still waits, its movie makes the asset;
        // exif-at-eof.heic carries IMG_2927.HEIC's identifier and waits beside it. An edit's
        // render and .AAE wait for their original's asset (IMG_1853.HEIC, which has no movie,
        // waits too) and are accepted into it: IMG_3582's asset takes its .AAE when its movie
        // makes it, then the render's still and movie.
        let uploads = Array(lines.prefix(16))
        let expected: [(file: String, outcome: String, identifier: String?)] = [
            ("51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "pending", "C3754624-A05F-474D-9F16-E9C47B5F892D"),
            ("51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov", "accepted", nil),
            ("IMG_1853.AAE", "pending", "edit:img_1853"),
            ("IMG_1853.HEIC", "pending", "DC121C25-1A7C-4FEC-BB42-99FB89A4719D"),
            ("IMG_2927.HEIC", "pending", "1745E022-9712-43C7-B024-F308EC6413CB"),
            ("IMG_3582.AAE", "pending", "edit:img_3582"),
            ("IMG_3582.HEIC", "pending", "602FEBB7-6B59-4799-96E6-9C8484D873C7"),
            ("IMG_3582.mov", "accepted", nil),
            ("IMG_3582_edited.heic", "accepted", nil),
            ("IMG_3582_edited.mov", "accepted", nil),
            ("IMG_4580.HEIC", "pending", "4E1A1B89-CE70-4FF8-873B-E4470B839314"),
            ("IMG_4580.mov", "accepted", nil),
            ("IMG_E1853.heic", "pending", "edit:img_1853"),
            ("exif-at-eof.heic", "pending", "1745E022-9712-43C7-B024-F308EC6413CB"),
            ("train.jpg", "pending", "E905E6C6-C747-4805-942F-9904A0281F02"),
            ("train.mov", "accepted", nil),
        ]
        for (line, want) in zip(uploads, expected) {
            #expect(line["path"] as? String == Self.live + "/" + want.file)
            #expect(line["outcome"] as? String == want.outcome, "\(want.file)")
            #expect(line["contentIdentifier"] as? String == want.identifier, "\(want.file)")
            #expect((line["asset"] as? String).flatMap(UUID.init(uuidString:)) != nil || want.outcome != "accepted")
        }
        #expect(uploads[8]["asset"] as? String == uploads[7]["asset"] as? String)
        #expect(uploads[9]["asset"] as? String == uploads[7]["asset"] as? String)

        // Then each new Live Photo, requested from the stored resources (256 px, aspect fit): its
        // current version, IMG_3582's render.
        var assets: [String] = []
        for case let asset? in uploads.map({ $0["asset"] as? String }) where !assets.contains(asset) { assets.append(asset) }
        let livePhotos = Array(lines[16..<20])
        #expect(livePhotos.compactMap { $0["livePhoto"] as? String } == assets)
        #expect(livePhotos.map { $0["still"] as? String } == ["192x256", "192x256", "192x256", "256x192"])
        #expect(livePhotos.map { $0["frameSize"] as? String } == ["192x256", "192x256", "192x256", "256x192"])
        // The still-image times of the movies (SampleMedia/manifest.tsv; IMG_3582_edited.mov's).
        let times = livePhotos.map { $0["stillImageTime"] as? Double ?? -1 }
        for (time, want) in zip(times, [1.201667, 1.331667, 1.333333, 0.48]) {
            #expect(abs(time - want) < 0.000001, "\(times)")
        }
        #expect(!livePhotos.contains { $0["error"] != nil })

        // The observer heard one change per commit that made or completed an asset: four new assets,
        // IMG_3582's updated twice more by its render (pending halves and edit parts make none).
        #expect(lines[20]["changes"] as? Int == 6)
        #expect(lines[20]["insertedAssets"] as? Int == 4)
        #expect(lines[20]["updatedAssets"] as? Int == 1)

        // Paths on standard input, into the same library: the same bytes again are duplicates
        // of the asset already made, and nothing changes.
        let again = try LivePairBinary.run(
            ["--library", library], binary: binary, input: Self.live + "/train.jpg\n" + Self.live + "/train.mov\n")
        #expect(again.status == 0, "\(again.error)")
        let duplicates = try Self.lines(again.output)
        #expect(duplicates.map { $0["outcome"] as? String } == ["duplicate", "duplicate", nil])
        #expect(duplicates.prefix(2).allSatisfy { $0["asset"] as? String == assets.last })
        #expect(duplicates.last?["changes"] as? Int == 0)
    }

    @Test func refusesToRunWithoutALibrary() throws {
        let binary = try #require(LivePairBinary.executable(named: "livepair-example-ingest"), "the example is not built")
        let run = try LivePairBinary.run([Self.live], binary: binary)
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("--library DIR is required"))
    }
}
