import Foundation
import TestSupport
import Testing

/// `livepair import` of an edited Live Photo as Photos exports it, then `library revert`, `library
/// edit` and `library export`, through the executable (docs/editing.md).
@Suite("livepair import of edits, library edit and revert, through the executable")
struct LibraryEditCommandTests {
    /// `type` -> first 12 hex digits of the digest, for one asset's resources in `show --json`.
    static func resources(_ json: [String: Any]) -> [String] {
        (json["resources"] as? [[String: Any]] ?? []).map {
            "\($0["type"] as? String ?? "?"):\(($0["digest"] as? String ?? "").prefix(12))"
        }
    }

    @Test("library settle makes a render whose original never came an asset of its own: IMG_E3582's halves one Live Photo, the .AAE left waiting")
    func settleRenderWithoutOriginal() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let inbox = workspace.url.appendingPathComponent("inbox").path
        for (file, name) in [
            ("live/IMG_3582_edited.heic", "IMG_E3582.HEIC"), ("live/IMG_3582_edited.mov", "IMG_E3582.MOV"),
            ("live/IMG_3582.AAE", "IMG_3582.AAE"),
        ] {
            _ = try workspace.copy(file, as: "inbox/" + name)
        }
        // The movie first, in a run of its own: the settled lines still list the still first.
        let movieFirst = try LivePairBinary.run(["import", "--quiet", "--library", library, "--json", inbox + "/IMG_E3582.MOV"])
        #expect((try LivePairBinary.json(movieFirst.output)["summary"] as? [String: Int])?["pending"] == 1, "\(movieFirst.output)")
        let imported = try LivePairBinary.run(
            ["import", "--quiet", "--library", library, "--json", inbox + "/IMG_E3582.HEIC", inbox + "/IMG_3582.AAE"])
        #expect((try LivePairBinary.json(imported.output)["summary"] as? [String: Int])?["pending"] == 2, "\(imported.output)")
        let settle = try LivePairBinary.run(["library", "settle", "--older-than", "0s", "--library", library])
        #expect(settle.status == 0, "\(settle.error)")
        #expect(settle.output.hasSuffix("0 pending halves settled, 2 renders without an original\n"), "\(settle.output)")
        let settled = settle.output.split(separator: "\n").dropLast().map { $0.split(separator: "\t").map(String.init) }
        #expect(settled.map { [$0[0], $0[2], $0[3]] } == [
            ["accepted", "fullSizePhoto", "edit:img_3582"], ["accepted", "fullSizePairedVideo", "edit:img_3582"],
        ])
        let identifier = try #require(settled.first?[1])
        let shown = try LivePairBinary.json(try LivePairBinary.run(["library", "show", identifier, "--library", library, "--json"]).output)
        let asset = try #require(shown["asset"] as? [String: Any])
        #expect(asset["hasAdjustments"] as? Bool == false && asset["contentIdentifier"] as? String == "87D06EAA-DAEF-4498-ABC5-27FE5C8CE710")
        #expect(Self.resources(shown) == ["photo:98f96704ea2d", "pairedVideo:339897936a9e"])
        let pending = try LivePairBinary.run(["library", "pending", "--library", library])
        #expect(pending.output.hasSuffix("1 edit part waiting for the original\n"), "\(pending.output)")
    }

    @Test("a folder with IMG_3582.HEIC/.mov, IMG_E3582.HEIC/.MOV and IMG_3582.AAE imports as one edited Live Photo; revert, edit and export")
    func importRevertEditExport() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let inbox = workspace.url.appendingPathComponent("inbox").path
        for (file, name) in [
            ("live/IMG_3582.HEIC", "IMG_3582.HEIC"), ("live/IMG_3582.mov", "IMG_3582.mov"),
            ("live/IMG_3582_edited.heic", "IMG_E3582.HEIC"), ("live/IMG_3582_edited.mov", "IMG_E3582.MOV"),
            ("live/IMG_3582.AAE", "IMG_3582.AAE"),
        ] {
            _ = try workspace.copy(file, as: "inbox/" + name)
        }
        let imported = try LivePairBinary.run(["import", "--quiet", "--library", library, "--json", inbox])
        #expect(imported.status == 0, "\(imported.error)")
        let report = try LivePairBinary.json(imported.output)
        let files = try #require(report["files"] as? [[String: Any]])
        let assets = Set(files.compactMap { $0["asset"] as? String })
        #expect(files.count == 5 && assets.count == 1, "\(imported.output)")
        #expect(files.allSatisfy { ["accepted", "pending"].contains($0["outcome"] as? String) })
        #expect((report["summary"] as? [String: Int])?["pending"] == 0, "every part joined the asset: \(imported.output)")
        let identifier = try #require(assets.first)
        let options = ["--library", library, "--json"]

        let shown = try LivePairBinary.json(try LivePairBinary.run(["library", "show", identifier] + options).output)
        #expect((shown["asset"] as? [String: Any])?["hasAdjustments"] as? Bool == true)
        #expect(Self.resources(shown).sorted() == [
            "adjustmentData:9e0333e0deca", "fullSizePairedVideo:339897936a9e", "fullSizePhoto:98f96704ea2d",
            "pairedVideo:7216736b9abb", "photo:83d445478eff",
        ])

        let reverted = try LivePairBinary.run(["library", "revert", identifier] + options)
        #expect(reverted.status == 0, "\(reverted.error)")
        let afterRevert = try LivePairBinary.json(reverted.output)
        #expect((afterRevert["asset"] as? [String: Any])?["hasAdjustments"] as? Bool == false)
        #expect(Self.resources(afterRevert) == ["photo:83d445478eff", "pairedVideo:7216736b9abb"])
        // The originals export byte for byte.
        let output = workspace.url.appendingPathComponent("export").path
        #expect(try LivePairBinary.run(["library", "export", identifier, "--quiet", "--library", library, "--output", output]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/IMG_3582.HEIC")) == Data(SampleMedia.bytes("live/IMG_3582.HEIC")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/IMG_3582.mov")) == Data(SampleMedia.bytes("live/IMG_3582.mov")))

        let edited = try LivePairBinary.run(
            ["library", "edit", identifier, "--adjustments", inbox + "/IMG_3582.AAE", "--photo", inbox + "/IMG_E3582.HEIC",
             "--video", inbox + "/IMG_E3582.MOV"] + options)
        #expect(edited.status == 0, "\(edited.error)")
        let afterEdit = try LivePairBinary.json(edited.output)
        #expect((afterEdit["asset"] as? [String: Any])?["hasAdjustments"] as? Bool == true)
        #expect(Self.resources(afterEdit) == [
            "photo:83d445478eff", "pairedVideo:7216736b9abb", "adjustmentData:9e0333e0deca", "fullSizePhoto:98f96704ea2d",
            "fullSizePairedVideo:339897936a9e",
        ])

        // A file that is not a still, given as the rendered still, is refused.
        let refused = try LivePairBinary.run(
            ["library", "edit", identifier, "--adjustments", inbox + "/IMG_3582.AAE", "--photo", inbox + "/IMG_3582.AAE"] + options)
        #expect(refused.status == 1)
        #expect(refused.error.contains("IMG_3582.AAE: it is not a still image"), "\(refused.error)")
        let usage = try LivePairBinary.run(["library", "edit", identifier, "--photo", inbox + "/IMG_E3582.HEIC"] + options)
        #expect(usage.status == 64 && usage.error.contains("--adjustments"), "\(usage.error)")
    }

    @Test("library edit ID --key-photo 1.0 --filter mono renders the edit in the library: edited, the render's still time 1.0 s, the filter resumable from its .AAE; revert gives the originals byte for byte; usage errors")
    func editRenderedHere() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let inbox = workspace.url.appendingPathComponent("inbox").path
        _ = try workspace.copy("live/IMG_3582.HEIC", as: "inbox/IMG_3582.HEIC")
        _ = try workspace.copy("live/IMG_3582.mov", as: "inbox/IMG_3582.mov")
        let imported = try LivePairBinary.run(["import", "--quiet", "--library", library, "--json", inbox])
        let files = try #require(try LivePairBinary.json(imported.output)["files"] as? [[String: Any]])
        let identifier = try #require(Set(files.compactMap { $0["asset"] as? String }).first)
        let options = ["--library", library, "--json"]

        let edited = try LivePairBinary.run(["library", "edit", identifier, "--key-photo", "1.0", "--filter", "mono"] + options)
        #expect(edited.status == 0, "\(edited.error)")
        let afterEdit = try LivePairBinary.json(edited.output)
        #expect((afterEdit["asset"] as? [String: Any])?["hasAdjustments"] as? Bool == true)
        let types = (afterEdit["resources"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
        #expect(types == ["photo", "pairedVideo", "adjustmentData", "fullSizePhoto", "fullSizePairedVideo"])
        let export = workspace.url.appendingPathComponent("edited").path
        #expect(try LivePairBinary.run(["library", "export", identifier, "--quiet", "--library", library, "--output", export]).status == 0)
        let inspect = try LivePairBinary.run(["inspect", "--json", export + "/IMG_E3582.MOV"])
        let movies = try #require(try JSONSerialization.jsonObject(with: Data(inspect.output.utf8)) as? [[String: Any]])
        #expect(movies.first?["stillImageTime"] as? Double == 1.0, "\(inspect.output)")
        let aae = try String(contentsOfFile: export + "/IMG_3582.AAE", encoding: .utf8)
        #expect(aae.contains("org.livepair.adjustments"))
        // The filter is recorded in the .AAE: resuming it sets the filter again.
        let resumed = try LivePairBinary.run(["edit", export + "/IMG_3582.HEIC", export + "/IMG_3582.mov", "--resume", export + "/IMG_3582.AAE",
            "--output", workspace.url.appendingPathComponent("resumed").path, "--json"])
        #expect(resumed.status == 0, "\(resumed.error)")
        #expect(resumed.output.contains("\"filter\" : \"mono\"") || resumed.output.contains("\"filter\": \"mono\""), "\(resumed.output)")

        let reverted = try LivePairBinary.run(["library", "revert", identifier] + options)
        #expect(reverted.status == 0, "\(reverted.error)")
        #expect((try LivePairBinary.json(reverted.output)["asset"] as? [String: Any])?["hasAdjustments"] as? Bool == false)
        let originals = workspace.url.appendingPathComponent("originals").path
        #expect(try LivePairBinary.run(["library", "export", identifier, "--quiet", "--library", library, "--output", originals]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: originals).sorted() == ["IMG_3582.HEIC", "IMG_3582.mov"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: originals + "/IMG_3582.HEIC")) == Data(SampleMedia.bytes("live/IMG_3582.HEIC")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: originals + "/IMG_3582.mov")) == Data(SampleMedia.bytes("live/IMG_3582.mov")))

        // A trim keeping nothing fails and leaves the asset as it was; usage errors.
        let failed = try LivePairBinary.run(["library", "edit", identifier, "--trim", "50-60"] + options)
        #expect(failed.status == 1 && failed.error.contains("keeps no frame"), "\(failed.error)")
        let shown = try LivePairBinary.json(try LivePairBinary.run(["library", "show", identifier] + options).output)
        #expect((shown["asset"] as? [String: Any])?["hasAdjustments"] as? Bool == false)
        for arguments in [
            ["--key-photo", "1", "--adjustments", inbox + "/IMG_3582.HEIC"], ["--key-photo", "soon"], ["--filter", "sepia"], [],
        ] {
            let usage = try LivePairBinary.run(["library", "edit", identifier] + arguments + options)
            #expect(usage.status == 64, "\(arguments): \(usage.error)")
        }
        let mute = try LivePairBinary.run(["library", "show", identifier, "--mute"] + options)
        #expect(mute.status == 64 && mute.error.contains("--mute is only for 'edit'"), "\(mute.error)")
    }

    @Test("IMG_1853.HEIC (no movie) + IMG_E1853.heic + IMG_1853.AAE: library pending lists the half and the two edit parts; settled, one photo with three resources")
    func stillEditWaitsThenSettles() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let inbox = workspace.url.appendingPathComponent("inbox").path
        for name in ["IMG_1853.HEIC", "IMG_E1853.heic", "IMG_1853.AAE"] { _ = try workspace.copy("live/" + name, as: "inbox/" + name) }
        let imported = try LivePairBinary.run(["import", "--quiet", "--library", library, inbox])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("pending   \(inbox)/IMG_1853.AAE (an edit waiting for its original, img_1853)"), "\(imported.output)")
        let pending = try LivePairBinary.json(try LivePairBinary.run(["library", "pending", "--library", library, "--json"]).output)
        #expect((pending["pending"] as? [[String: Any]])?.map { $0["originalFilename"] as? String } == ["IMG_1853.HEIC"])
        let parts = (pending["editParts"] as? [[String: Any]] ?? []).map { "\($0["type"] as? String ?? "?") \($0["originalFilename"] as? String ?? "?")" }
        #expect(parts.sorted() == ["adjustmentData IMG_1853.AAE", "fullSizePhoto IMG_E1853.heic"])
        let text = try LivePairBinary.run(["library", "pending", "--library", library]).output
        #expect(text.hasSuffix("1 pending half\n") == false && text.hasSuffix("2 edit parts waiting for the original\n"), "\(text)")

        let settled = try LivePairBinary.json(
            try LivePairBinary.run(["library", "settle", "--older-than", "0s", "--library", library, "--json"]).output)
        let identifier = try #require((settled["settled"] as? [[String: Any]])?.first?["asset"] as? String)
        let shown = try LivePairBinary.json(try LivePairBinary.run(["library", "show", identifier, "--library", library, "--json"]).output)
        #expect((shown["asset"] as? [String: Any])?["hasAdjustments"] as? Bool == true)
        #expect(Self.resources(shown) == ["photo:8e6fac35b135", "adjustmentData:d959f64c9291", "fullSizePhoto:51b3f4cc9159"])
        let after = try LivePairBinary.json(try LivePairBinary.run(["library", "pending", "--library", library, "--json"]).output)
        #expect((after["pending"] as? [Any])?.isEmpty == true && (after["editParts"] as? [Any])?.isEmpty == true)
    }
}
