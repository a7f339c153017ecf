import Foundation
import LivePair
import LivePairCLI
import LivePairFormats
import LivePairLibrary

/// `livepair migrate SRC... --to apple-photos|google-photos|folder --output DIR`: an export folder
/// (or any folder `import` reads) rewritten for another service in one step: imported into a
/// temporary library inside a locked scratch folder of DIR, the halves left alone settled, exported
/// with `library export --layout`, and the temporary library removed.
public enum MigrateCommand: Command {
    /// The subcommand name.
    public static let name = "migrate"
    /// One line saying what it does.
    public static let abstract = MediaCommandCatalog.migrate
    /// The usage line.
    public static let usage = """
        livepair migrate <path> ... --to apple-photos|google-photos|folder --output <dir>
                         [--layout <layout>] [--albums folders|flat] [--still heic|jpeg]
                         [--json] [--quiet]
        """
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Reads the files and folders given as 'livepair import' reads them (Live Photo halves,
        motion photos, edits; --layout is passed on to import), into a temporary library kept in
        a hidden scratch folder inside --output; halves left without a partner are settled (a
        still as a photo, a movie as a video); then writes everything as 'library export
        --layout' does and removes the temporary library. Nothing given is changed.

        USAGE: \(usage)

        OPTIONS:
          --to <layout>     apple-photos (what Photos imports as Live Photos and edits),
                            google-photos (motion photos with Takeout sidecars and album
                            folders) or folder (the originals with a JSON sidecar each).
          --output <dir>    Where the export goes (created when missing).
          --layout <layout> The layout of the input, for import.
          --albums folders|flat
                            One folder per album (default) or one folder.
          --still heic|jpeg For google-photos: jpeg re-encodes HEIC stills as JPEG.
          --json            Print one JSON object: the import's summary and the export report.
          --quiet           Show no progress.
          -h, --help        Show help information.

        EXIT STATUS:
          0 done, 1 an input or an asset could not be read or written, 64 usage error.
        """

    /// Runs `migrate`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        do throws(UsageError) {
            parsed = try ParsedArguments(
                arguments, flags: ["json", "quiet"], options: ["to", "output", "layout", "albums", "still"])
        } catch {
            return usageFailure(error, streams: streams)
        }
        if parsed.has("help") {
            streams.print(HelpText.wrapped(help))
            return .success
        }
        guard !parsed.positionals.isEmpty else { return usageFailure(UsageError("Missing expected argument '<path>'."), streams: streams) }
        guard let output = parsed.options["output"] else {
            return usageFailure(UsageError("Missing expected option '--output <dir>'."), streams: streams)
        }
        guard let target = parsed.options["to"] else {
            return usageFailure(UsageError("Missing expected option '--to apple-photos|google-photos|folder'."), streams: streams)
        }
        var exportArguments = ["layout": target]
        for option in ["albums", "still"] { exportArguments[option] = parsed.options[option] }
        let options: LayoutExportOptions
        switch LibraryCommand.layoutExportOptions(exportArguments, forPhotos: false) {
        case let .failure(problem): return usageFailure(UsageError(problem.message.replacingOccurrences(of: "--layout", with: "--to")), streams: streams)
        case let .success(value): options = value
        }
        InterruptCleanup.shared.install()
        let created = FileSystemPath.createDirectories(output)
        guard created == 0 else {
            streams.printError("Error: " + TerminalText.message(about: output, "cannot create the output directory: " + FileSystemPath.errorText(created)))
            return .failure
        }
        let scratch: ScratchFolder
        do throws(LibraryError) {
            scratch = try LibraryPhotosExport.scratchFolder(in: output)
        } catch {
            streams.printError("Error: " + TerminalText.escaped(error.description))
            return .failure
        }
        defer { scratch.remove() }
        let library = scratch.path + "/library"
        // The import: its report is read, its messages go to standard error.
        let captured = CapturedOutput()
        let importStreams = OutputStreams(
            errorIsTerminal: false, output: { captured.append($0) }, error: { streams.printError($0, terminator: "") })
        let importArguments = ["--library", library, "--json", "--quiet"]
            + (parsed.options["layout"].map { ["--layout", $0] } ?? []) + parsed.positionals
        let imported = ImportCommand.run(importArguments, streams: importStreams)
        guard imported != .usage else { return .usage }
        let importSummary = (try? JSONSerialization.jsonObject(with: Data(captured.text.utf8)) as? [String: Any])?["summary"]
            as? [String: Any] ?? [:]
        do throws(LibraryError) {
            let opened = try PhotoLibrary.open(at: library, configuration: LibraryConfiguration(openMode: .openExisting))
            let ingestor = Ingestor(library: opened)
            let settled = try ingestor.importPendingAlone(try ingestor.pendingUploads(olderThan: 0))
            let report = try LibraryLayoutExporter(library: opened, options: options, output: output).run()
            if parsed.has("json") {
                let summary = importSummary.sorted { $0.key < $1.key }.compactMap { key, value -> (String, JSONElement)? in
                    (value as? Int).map { (key, .integer(Int64($0))) }
                }
                streams.print(
                    JSONElement.object([
                        ("schemaVersion", .integer(1)), ("operation", .string("migrate")),
                        ("inputs", .array(parsed.positionals.map(JSONElement.string))),
                        ("import", .object(summary)), ("settled", .integer(Int64(settled.count))), ("export", report.json()),
                    ]).rendered())
            } else {
                streams.print(
                    "imported " + parsed.positionals.map(TerminalText.path).joined(separator: ", ") + ": "
                        + importSummary.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                        + "; " + Wording.count(settled.count, "lone half", plural: "lone halves") + " settled")
                streams.print(report.text(), terminator: "")
            }
            return imported == .success && report.failedCount == 0 ? .success : .failure
        } catch {
            streams.printError("Error: " + TerminalText.escaped(error.description))
            return .failure
        }
    }
}

/// Text written to a stream, kept (the import's JSON report).
private final class CapturedOutput: @unchecked Sendable {
    // Sendable: `text` is only touched under `lock`.
    private let lock = NSLock()
    private var buffer = ""

    /// Appends `text`.
    func append(_ text: String) { lock.withLock { buffer += text } }

    /// Everything written.
    var text: String { lock.withLock { buffer } }
}
