import Foundation
import TestSupport
import Testing

/// `livepair import --files-from FILE|- [--json-lines]`: the long-running ingest process (a node),
/// through the executable. Standard input and several nodes at once: `MultiNodeTests`.
@Suite("livepair import --files-from, through the executable")
struct ImportFilesFromCommandTests {
    typealias V = SampleVariants

    @Test("one JSON line per upload, a repeated path ingested again, a missing file rejected (exit 1)")
    func jsonLinesPerUpload() throws {
        let workspace = try V.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let still = try workspace.copy("live/train.jpg", as: "inbox/train.jpg")
        let movie = try workspace.copy("live/train.mov", as: "inbox/train.mov")
        let missing = workspace.url.appendingPathComponent("inbox/gone.heic").path
        let list = try workspace.write(Array("\(still)\n\n\(movie)\r\n\(missing)\n\(still)\n".utf8), as: "list.txt")
        let run = try LivePairBinary.run([
            "import", "--library", library, "--jobs", "1", "--files-from", list, "--json-lines",
        ])
        #expect(run.status == 1, "a missing file is rejected: \(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "one line per non-empty input line: \(run.output)")
        let objects = try lines.map { try LivePairBinary.json($0) }
        #expect(objects.map { $0["path"] as? String } == [still, movie, missing, still])
        #expect(objects.map { $0["outcome"] as? String } == ["pending", "accepted", "rejected", "duplicate"])
        #expect(objects[0]["contentIdentifier"] as? String == "E905E6C6-C747-4805-942F-9904A0281F02")
        let asset = try #require(objects[1]["asset"] as? String)
        #expect(objects[3]["asset"] as? String == asset, "the retry names the Live Photo the pair made")
        let codes = (objects[2]["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes == ["corrupt-file"])
    }

    @Test("without --json-lines the summary comes when the input ends")
    func summaryAtTheEnd() throws {
        let workspace = try V.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let still = try workspace.copy("live/train.jpg", as: "inbox/train.jpg")
        let movie = try workspace.copy("live/train.mov", as: "inbox/train.mov")
        let list = try workspace.write(Array("\(still)\n\(movie)\n".utf8), as: "list.txt")
        let run = try LivePairBinary.run(["import", "--library", library, "--files-from", list, "--json"])
        #expect(run.status == 0, "\(run.error)")
        let summary = try #require(try LivePairBinary.json(run.output)["summary"] as? [String: Int])
        #expect(summary["files"] == 2)
        #expect(summary["imported"] == 1)
        #expect(summary["pending"] == 1, "halves are reported as they were when ingested")
    }

    @Test("usage errors: paths with --files-from, --json-lines without it or with --json (exit 64)", arguments: [
        ["--files-from", "-", "x.jpg"], ["--json-lines", "x.jpg"], ["--files-from", "-", "--json-lines", "--json"], [],
    ])
    func usageErrors(_ arguments: [String]) throws {
        let workspace = try V.Workspace()
        let run = try LivePairBinary.run(["import", "--library", workspace.url.path + "/library"] + arguments)
        #expect(run.status == 64)
        #expect(run.error.hasPrefix("Error: "))
        #expect(run.error.contains("See 'livepair import --help'"))
        #expect(run.output.isEmpty)
    }

    @Test("a list that cannot be opened is an error naming it (exit 1)")
    func missingList() throws {
        let workspace = try V.Workspace()
        let list = workspace.url.appendingPathComponent("no-such-list").path
        let run = try LivePairBinary.run(["import", "--library", workspace.url.path + "/library", "--files-from", list])
        #expect(run.status == 1)
        #expect(run.error.contains("no-such-list"))
        #expect(run.error.contains("cannot open the list of files"))
        #expect(!FileManager.default.fileExists(atPath: workspace.url.path + "/library"), "nothing is created")
    }
}
