import Foundation
import LivePair
import LivePairCLI
import LivePairFormats
import LivePairLibrary

extension ImportCommand {
    /// Whether the files are imported through an export layout's plan: archive parts among them,
    /// or a layout with sidecars (given, or detected from the paths).
    static func usesLayoutPlan(_ files: [String], given: ExportLayout?) -> Bool {
        files.contains(where: ExportTreePath.isArchiveName) || (given ?? ExportLayout.detect(paths: files)).importsThroughPlan
            || (given != nil && given != .plain)
    }

    /// Imports `files` (folders' files and archive parts) through their layout's plan
    /// (`LayoutImport`) and prints its report. Archive members are spooled next to the library
    /// (so they move into the store) and the spool is removed at the end.
    static func importLayout(
        _ files: [String], links: [String: String], anyMissing: Bool, given: ExportLayout?, library: PhotoLibrary,
        selectionName: String, owner: String, jobs: Int, deep: Bool, json: Bool, streams: OutputStreams
    ) -> ExitCode {
        let scratch = scratchDirectory(for: library)
        guard FileSystemPath.withCString(scratch, { mkdir($0, 0o700) }) == 0 else {
            streams.printError("Error: cannot create the import's working folder \(TerminalText.path(scratch))")
            return .failure
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let parts = files.filter(ExportTreePath.isArchiveName)
        let plainFiles = files.filter { !ExportTreePath.isArchiveName($0) && links[$0] == nil }
        let reader = ExportReader(archives: LibarchiveExportArchives(), spoolDirectory: scratch)
        let importer = LayoutImport(
            library: library, owner: owner, jobs: jobs, scratch: scratch, decodesMedia: deep,
            importsLoneHalves: given != .plain)
        // A Takeout's assets complete while its parts stream are ingested at once (docs/exports.md);
        // files read from folders (no inflating to overlap, no digest to find copies by) wait.
        let early = !parts.isEmpty && (given == nil || given == .takeout) ? EarlyLayoutIngestion(importer) : nil
        var (entries, failures) = reader.read(files: plainFiles, archives: parts) { entry in
            guard let early, entry.location != entry.path,
                given == .takeout || ExportLayout.detect(paths: [entry.path]) == .takeout
            else { return }
            early.add(entry)
        }
        let (earlyResults, ingestedWhileReading) = early?.finish() ?? ([:], 0)
        entries += links.keys.sorted().map { ExportEntry(path: $0, location: $0, content: .skipped(reason: "same-file")) }
        for failure in failures {
            streams.printError("Error: \(TerminalText.path(failure.path)): \(TerminalText.escaped(failure.message))")
        }
        let layout = given ?? ExportLayout.detect(paths: entries.map(\.path))
        let plan = ExportPlanner.plan(layout, entries, contents: ExportContentSource(files: Set(plainFiles)))
        let byPath = Dictionary(entries.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let run = LayoutImport(
            library: library, owner: owner, jobs: jobs, scratch: scratch, decodesMedia: deep,
            importsLoneHalves: layout != .plain)
            .run(plan, entries: byPath, early: earlyResults)
        let report = LayoutImportReport(
            library: selectionName, owner: owner, layout: layout, plan: plan, files: run.files, datesApplied: run.datesApplied,
            albumsMade: run.albums, assets: run.assets, problems: run.problems, ingestedWhileReading: ingestedWhileReading)
        if json {
            streams.print(report.json().rendered())
        } else {
            streams.print(report.text(), terminator: "")
        }
        return anyMissing || !failures.isEmpty || report.rejected > 0 || report.errors > 0 || !report.problems.isEmpty
            ? .failure : .success
    }

    /// A new working folder for one import: beside a directory store (same file system, so spooled
    /// members are linked into the store, not copied), else in the temporary folder.
    private static func scratchDirectory(for library: PhotoLibrary) -> String {
        let name = ".livepair-import-\(UUID().uuidString)"
        if case let .directory(path) = library.storeLocation {
            let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            return (parent.isEmpty ? "." : parent) + "/" + name
        }
        return NSTemporaryDirectory() + "/" + name
    }
}
