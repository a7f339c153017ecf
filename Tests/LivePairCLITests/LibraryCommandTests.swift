import Foundation
import TestSupport
import Testing

@Suite("livepair import and livepair library, end to end through the executable")
struct LibraryCommandTests {
    @Test("library list: a header, Live Photo, motion photo, photo and video told apart, durations of what moves, flags, original names")
    func listText() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let files = [
            "broken/normalphoto.jpg", "live/IMG_4580.HEIC", "live/train.jpg", "live/train.mov", "motion/motionphoto.heic",
            "plain/IMG_3539.MOV", "plain/pixel_8.jpg",
        ].map(SampleMedia.path)
        // One job: the assets are added in the files' (sorted) order.
        let imported = try LivePairBinary.run(["import", "--quiet", "--jobs", "1", "--library", library] + files)
        #expect(imported.status == 0, "\(imported.error)")
        let list = try LivePairBinary.run(["library", "list", "--library", library])
        #expect(list.status == 0, "\(list.error)")
        let lines = list.output.split(separator: "\n").map(String.init)
        // Every row starts with the asset's local identifier (a fresh UUID), then two spaces.
        let rows = lines.dropFirst().dropLast()
        #expect(rows.allSatisfy { $0.count > 38 && UUID(uuidString: String($0.prefix(36))) != nil && $0.dropFirst(36).hasPrefix("  ") })
        #expect(
            [String(lines[0])] + rows.map { String($0.dropFirst(38)) } + [lines.last ?? ""] == [
                "IDENTIFIER                            KIND          SIZE       DURATION  CREATED                   RESOURCES  FLAGS    NAME",
                "photo         100x400    -         -                         1          flagged  normalphoto.jpg",
                "Live Photo    4032x3024  1.233s    2021-04-10T10:44:00.814Z  2          -        train.jpg + train.mov",
                "motion photo  4000x3000  2.083s    2023-03-08T07:01:05.059Z  1          -        motionphoto.heic",
                "video         1920x1080  0.567s    2016-01-18T22:20:40.000Z  1          -        IMG_3539.MOV",
                "photo         3072x4080  -         2023-11-01T14:11:17.049Z  1          -        pixel_8.jpg",
                "5 assets, 1 pending half",
            ])
    }

    @Test("import pairs, a motion photo and a plain file; list, show, export and delete them")
    func importAndManage() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let inbox = workspace.url.appendingPathComponent("inbox")
        for file in ["live/train.jpg", "live/train.mov", "live/IMG_4580.HEIC", "motion/PXL_20200710_061629144.MP.jpg",
                     "plain/with-gps.mov"] {
            try workspace.copy(file, as: "inbox/" + (file as NSString).lastPathComponent)
        }
        // IMG_4580.HEIC's movie is missing: it stays pending.
        let run = try LivePairBinary.run(["import", "--library", library, "--owner", "alice", "--json", inbox.path])
        #expect(run.status == 0, "\(run.error)")
        let json = try LivePairBinary.json(run.output)
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == 5)
        #expect(summary["imported"] as? Int == 4)  // both train halves, the motion photo, the plain movie
        #expect(summary["pending"] as? Int == 1)
        #expect(summary["rejected"] as? Int == 0)
        let files = try #require(json["files"] as? [[String: Any]])
        let pending = try #require(files.first { ($0["path"] as? String)?.hasSuffix("IMG_4580.HEIC") == true })
        #expect(pending["outcome"] as? String == "pending")
        #expect(pending["contentIdentifier"] as? String == "4E1A1B89-CE70-4FF8-873B-E4470B839314")

        // The partner arrives in a later run: the pair links; the rest are duplicates.
        let movie = try workspace.copy("live/IMG_4580.mov", as: "later/IMG_4580.mov")
        let later = try LivePairBinary.run(["import", "--library", library, "--owner", "alice", movie])
        #expect(later.status == 0, "\(later.error)")
        #expect(later.output.contains("1 file: 1 imported, 0 duplicates, 0 pending, 0 rejected"), "\(later.output)")
        let again = try LivePairBinary.run(["import", "--library", library, "--owner", "alice", "--json", inbox.path])
        let againSummary = try #require(try LivePairBinary.json(again.output)["summary"] as? [String: Any])
        #expect(againSummary["duplicates"] as? Int == 5)

        // list: four assets, two of them Live Photos (train and IMG_4580) plus the motion photo.
        let list = try LivePairBinary.json(try LivePairBinary.run(["library", "list", "--library", library, "--json"]).output)
        #expect(list["count"] as? Int == 4)
        let assets = try #require(list["assets"] as? [[String: Any]])
        let live = assets.filter { ($0["mediaSubtypes"] as? [String])?.contains("photoLive") == true }
        #expect(live.count == 3)
        let train = try #require(assets.first { $0["contentIdentifier"] as? String == "E905E6C6-C747-4805-942F-9904A0281F02" })
        #expect(train["pixelWidth"] as? Int == 4032 && train["pixelHeight"] as? Int == 3024)
        #expect(train["owner"] as? String == "alice")
        let identifier = try #require(train["localIdentifier"] as? String)

        // show and export: both halves, byte-identical to what was imported.
        let show = try LivePairBinary.json(try LivePairBinary.run(["library", "show", identifier, "--library", library, "--json"]).output)
        let resources = try #require(show["resources"] as? [[String: Any]])
        #expect(Set(resources.compactMap { $0["type"] as? String }) == ["photo", "pairedVideo"])
        let exportDirectory = workspace.url.appendingPathComponent("export").path
        let export = try LivePairBinary.run(["library", "export", identifier, "--library", library, "--output", exportDirectory])
        #expect(export.status == 0, "\(export.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: exportDirectory).sorted() == ["train.jpg", "train.mov"])
        #expect(FileManager.default.contents(atPath: exportDirectory + "/train.mov") == Data(try SampleMedia.bytes("live/train.mov")))

        // delete: the asset and both its files go; an unknown identifier changes nothing.
        #expect(try LivePairBinary.run(["library", "delete", "no-such-asset", "--library", library]).status == 1)
        let delete = try LivePairBinary.run(["library", "delete", identifier, "--library", library, "--json"])
        #expect(delete.status == 0, "\(delete.error)")
        let after = try LivePairBinary.json(try LivePairBinary.run(["library", "list", "--library", library, "--json"]).output)
        #expect(after["count"] as? Int == 3)

        // Usage errors.
        #expect(try LivePairBinary.run(["library", "list"]).status == 64)
        #expect(try LivePairBinary.run(["import", inbox.path]).status == 64)
    }
}
