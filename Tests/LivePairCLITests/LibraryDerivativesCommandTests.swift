import Foundation
import TestSupport
import Testing

@Suite("livepair library derivatives, through the executable")
struct LibraryDerivativesCommandTests {
    /// Two Live Photos and a plain photo: placeholder, grid still and motion for the Live Photos,
    /// placeholder and still for the photo, in the folder `livepair serve --library` reads, with
    /// progress on standard error; `--missing` then finds nothing to make.
    @Test func makesEachAssetsDerivativesOnce() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        for file in ["live/train.jpg", "live/train.mov", "live/IMG_4580.HEIC", "live/IMG_4580.mov", "plain/pixel_8.jpg"] {
            try workspace.copy(file, as: "inbox/" + (file as NSString).lastPathComponent)
        }
        let imported = try LivePairBinary.run(["import", "--library", library, workspace.url.appendingPathComponent("inbox").path])
        #expect(imported.status == 0, "\(imported.error)")
        let run = try LivePairBinary.run(["library", "derivatives", "--library", library, "--json"])
        #expect(run.status == 0, "\(run.error)")
        let summary = try LivePairBinary.json(run.output)
        #expect(summary["assets"] as? Int == 3)
        #expect(summary["made"] as? Int == 3)
        #expect(summary["failed"] as? Int == 0)
        #expect(run.error.split(separator: "\n").last == "derivatives: 3/3 assets", "\(run.error)")
        let kinds = try FileManager.default.contentsOfDirectory(atPath: library + "/derivatives")
            .filter { !$0.hasPrefix(".") }.map { $0.split(separator: "-").dropFirst(2).joined(separator: "-") }.sorted()
        #expect(kinds == ["motion-1024.mp4", "motion-1024.mp4", "placeholder.jpg", "placeholder.jpg", "placeholder.jpg",
                          "still-1024.jpg", "still-1024.jpg", "still-1024.jpg"])
        let missing = try LivePairBinary.run(["library", "derivatives", "--missing", "--library", library, "--json"])
        #expect(try LivePairBinary.json(missing.output)["made"] as? Int == 0)
    }
}
