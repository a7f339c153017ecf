import Foundation
import TestSupport
import Testing

/// Progress of long work on standard error (issue 20): a bar on a terminal, a line every few
/// seconds otherwise (`LIVEPAIR_PROGRESS_INTERVAL=0` here: a line after every step), nothing with
/// `--quiet`; standard output is the same either way.
@Suite("progress of import, validate --deep, library export and migrate")
struct ProgressCommandTests {
    /// A line after every step.
    static let everyStep = ["LIVEPAIR_PROGRESS_INTERVAL": "0"]

    /// The progress lines `label: k/total unit (p%)` for k = 1...total.
    static func lines(_ label: String, total: Int, unit: String) -> String {
        (1...total).map { "\(label): \($0)/\(total) \(unit) (\($0 * 100 / total)%)\n" }.joined()
    }

    @Test("import: a line per step in a log, none with --quiet, the same report")
    func importLines() throws {
        let workspace = try SampleVariants.Workspace()
        let files = ["live/train.jpg", "live/train.mov", "plain/pixel_8.jpg"].map(SampleMedia.path)
        let run = try LivePairBinary.run(
            ["import", "--library", workspace.url.appendingPathComponent("a").path] + files, environment: Self.everyStep)
        #expect(run.status == 0)
        #expect(run.error == Self.lines("import", total: 3, unit: "files"))
        #expect(run.output == "3 files: 3 imported, 0 duplicates, 0 pending, 0 rejected\n")
        let quiet = try LivePairBinary.run(
            ["import", "--quiet", "--library", workspace.url.appendingPathComponent("b").path] + files,
            environment: Self.everyStep)
        #expect(quiet.status == 0)
        #expect(quiet.error.isEmpty)
        #expect(quiet.output == run.output)
    }

    @Test("validate --deep, library export (plain and --for-photos) and migrate: their lines, none with --quiet")
    func otherCommands() throws {
        let workspace = try SampleVariants.Workspace()
        let files = ["live/train.jpg", "live/train.mov", "plain/pixel_8.jpg"].map(SampleMedia.path)
        let deep = try LivePairBinary.run(["validate", "--deep"] + files, environment: Self.everyStep)
        #expect(deep.error == Self.lines("validate --deep", total: 2, unit: "assets"))
        let deepQuiet = try LivePairBinary.run(["validate", "--deep", "--quiet"] + files, environment: Self.everyStep)
        #expect(deepQuiet.error.isEmpty)
        #expect(deepQuiet.output == deep.output)

        let library = workspace.url.appendingPathComponent("library").path
        #expect(try LivePairBinary.run(["import", "--quiet", "--library", library] + files).status == 0)
        let listing = try LivePairBinary.json(try LivePairBinary.run(["library", "list", "--json", "--library", library]).output)
        let live = try #require(
            (listing["assets"] as? [[String: Any]])?.first { ($0["mediaSubtypes"] as? [String])?.contains("photoLive") == true })
        let identifier = try #require(live["localIdentifier"] as? String)
        for extra in [[], ["--for-photos"]] {
            let output = workspace.url.appendingPathComponent("export\(extra.count)").path
            let export = try LivePairBinary.run(
                ["library", "export", identifier, "--library", library, "--output", output] + extra, environment: Self.everyStep)
            #expect(export.status == 0, "\(export.error)")
            #expect(export.error == Self.lines("library export", total: 2, unit: "resources"), "\(extra)")
        }
        let target = workspace.url.appendingPathComponent("target")
        let migrate = try LivePairBinary.run(
            ["library", "migrate", "--from", library, "--batch-size", "1", "--catalog", target.appendingPathComponent("catalog.sqlite").path,
             "--store", target.appendingPathComponent("store").path],
            environment: Self.everyStep)
        #expect(migrate.status == 0, "\(migrate.error)")
        #expect(migrate.error == Self.lines("migrate", total: 2, unit: "assets"))
        let quietExport = try LivePairBinary.run(
            ["library", "export", identifier, "--quiet", "--library", library, "--output", workspace.url.appendingPathComponent("q").path],
            environment: Self.everyStep)
        #expect(quietExport.status == 0)
        #expect(quietExport.error.isEmpty)
    }

    @Test("on a terminal (a pty from script(1)): a bar redrawn in place, then erased before the report")
    func terminalBar() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let binary = try #require(LivePairBinary.url).path
        let command = "\(binary) import --library \(library) \(SampleMedia.path("live/train.jpg")) \(SampleMedia.path("live/train.mov"))"
        let run = try Self.onTerminal(command)
        #expect(run.status == 0)
        let full = "\rimport [" + String(repeating: "#", count: 30) + "]  2/2 files  100%"
        #expect(run.text.contains(full + "\r\u{1B}[K2 files: 2 imported"), "\(run.text.debugDescription)")
        // No line of a log on a terminal, and the bar never ends a line.
        #expect(!run.text.contains("import: "))
        let quiet = try Self.onTerminal(command.replacingOccurrences(of: " import ", with: " import --quiet "))
        #expect(quiet.text == "2 files: 0 imported, 2 duplicates, 0 pending, 0 rejected\r\n")
    }

    /// Runs `command` with standard output and standard error on a pty (`script -q -e -c`):
    /// its exit status and everything the terminal received.
    static func onTerminal(_ command: String) throws -> (status: Int32, text: String) {
        let run = try ChildProcess.run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"])
        return (run.status, run.outputText)
    }
}
