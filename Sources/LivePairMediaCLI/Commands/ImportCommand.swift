import Dispatch
import Foundation
import LivePair
import LivePairCLI
import LivePairLibrary
import Synchronization

/// `livepair import (--library DIR | --catalog URL --store URL) [--owner ID] [--jobs N] [--json] PATH...`: ingests files into a
/// library as a backend's uploads would arrive: pairs link in any order, motion photos and single
/// files become assets, unmatched halves stay pending in the library until their partner comes.
/// With `--files-from FILE|-` it reads the paths as they arrive instead (`ImportStream`): a node.
public enum ImportCommand: Command {
    /// The subcommand name.
    public static let name = "import"
    /// One line saying what it does.
    public static let abstract = MediaCommandCatalog.`import`
    /// The usage line.
    public static let usage =
        "livepair import (--library <dir> | --catalog <url> --store <url> [--s3-endpoint <url>]) [--owner <id>] [--jobs <n>] [--deep] [--json] [--quiet] [--layout <layout>] (<path> ... | --files-from <file> [--json-lines] [--scratch <dir>])"
    /// The environment variable crash tests set: the process ends with `_exit(137)` at the Nth
    /// durable step (fault point) of the import, as if killed there. Only test harnesses set it.
    public static let crashEnvironmentVariable = "LIVEPAIR_TEST_EXIT_AT_FAULT_POINT"
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Each file is ingested as one upload (see the documentation): a Live Photo still or movie is
        stored and waits as pending until the other half with the same content identifier (and the
        same owner) arrives, then both become one validated Live Photo; a motion photo, or a photo or
        movie without an identifier, becomes an asset at once. Importing the same files again is safe:
        nothing is stored twice. Files are copied, never changed; their names are kept as data.
        Only unreadable, damaged or conflicting files are rejected; what else validation finds (a
        movie without a still-image time, a wrong extension, a motion photo without its video) is
        kept on the asset and shown. Files that are not photos or movies (notes, .json sidecars,
        .AAE edits) are skipped and counted. A file reached by several paths (hard links) is
        read and imported once; each other path is reported as a duplicate.

        USAGE: \(usage)

        An export (Google Takeout, an iCloud Photos export, icloudpd, Image Capture, Samsung Smart
        Switch) is read as its layout says: sidecars and CSV files give dates, places, favourites,
        hidden, captions and albums; zip and tgz parts are read in place; the report gives every
        file's end (media, sidecar, album metadata, or ignored with its reason).

        ARGUMENTS:
          <path>                  Files, directories (read recursively) or archive parts
                                  (.zip, .tgz, .tar.gz: read in place, merged into one tree).

        OPTIONS:
          --library <dir>         The library directory. A missing or empty directory gets a
                                  new library; one holding anything else must be a LivePair
                                  library, else nothing is imported (exit 1).
          --catalog <url>         A shared catalog: postgresql://USER@/DB?host=/socket/dir (any libpq
                                  URI; PG* variables honoured), created by `library init`
                                  (default: $LIVEPAIR_CATALOG).
          --store <url>           With --catalog: where resource files go, a directory or
                                  s3://BUCKET/PREFIX (default: $LIVEPAIR_STORE).
          --s3-endpoint <url>     The S3 server of an s3:// store, http://HOST:PORT (default:
                                  $LIVEPAIR_S3_ENDPOINT); keys from AWS_ACCESS_KEY_ID,
                                  AWS_SECRET_ACCESS_KEY and AWS_REGION.
          --owner <id>            The owner (tenant or user) of the uploads (default: local).
          --jobs <n>              Files ingested at once (default: 4).
          --files-from <file>     Read the files to ingest from <file> (- for standard input), one
                                  path per line, and ingest each as soon as it arrives, until the
                                  input ends: a long-running ingest process (a node of a backend).
                                  A path given twice is ingested twice (a retry).
          --json-lines            With --files-from: print one JSON object per line for each file
                                  as soon as it is done (the fields of an entry of --json's files).
          --scratch <dir>         This process's own working folder: with an s3:// store, where
                                  copies fetched from the bucket are kept (created when missing;
                                  default: $LIVEPAIR_S3_CACHE, else ~/.cache/livepair-s3; at
                                  most $LIVEPAIR_S3_CACHE_MAX, default 4G, least recently used
                                  first).
          --layout <layout>       takeout, icloud, icloudpd, image-capture, smart-switch, folder
                                  (a LivePair folder export: its NAME.json sidecars read) or
                                  plain (default: detected from the files; see the documentation).
          --deep                  Also decode each file (image, movie frame) and reject
                                  data that does not decode (0.2 to 1 s per file).
          --json                  Print one JSON object (schema: see the documentation).
          --quiet                 Show no progress. Without it: a bar on a terminal, else a
                                  line on standard error every 5 seconds (not with --files-from).
          --require-durable       Refuse a PostgreSQL catalog with synchronous_commit or fsync off
                                  (exit 1, nothing imported); without it such a catalog is warned about.
          -h, --help              Show help information.

        EXIT STATUS:
          0 done (halves may be pending, files skipped), 1 a file was rejected or could not be imported,
          64 usage error.
        """

    /// Runs `import`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        do throws(UsageError) {
            parsed = try ParsedArguments(
                arguments, flags: ["json", "json-lines", "deep", "quiet", "require-durable"],
                options: LibrarySelection.optionNames.union(["owner", "jobs", "files-from", "scratch", "layout"]))
        } catch {
            return usageFailure(error, streams: streams)
        }
        if parsed.has("help") {
            streams.print(HelpText.wrapped(help))
            return .success
        }
        let listSource = parsed.options["files-from"]
        if let problem = Self.inputProblem(parsed, listSource: listSource) {
            return usageFailure(problem, streams: streams)
        }
        let givenLayout: ExportLayout?
        do throws(UsageError) {
            givenLayout = try parsed.exportLayout()
        } catch {
            return usageFailure(error, streams: streams)
        }
        let selection: LibrarySelection
        do throws(UsageError) {
            selection = try LibrarySelection(parsed)
        } catch {
            return usageFailure(error, streams: streams)
        }
        let owner = parsed.options["owner"] ?? "local"
        guard owner.isEmpty == false else { return usageFailure(UsageError("The owner must not be empty."), streams: streams) }
        var jobs = 4
        if let text = parsed.options["jobs"] {
            guard let value = Int(text), value >= 1, value <= 256 else {
                return usageFailure(UsageError("--jobs takes a number from 1 to 256."), streams: streams)
            }
            jobs = value
        }
        var list: UnsafeMutablePointer<FILE>?
        if let listSource {
            guard let opened = ImportStream.open(listSource, streams: streams) else { return .failure }
            list = opened
        }
        let library: PhotoLibrary
        do throws(LibraryError) {
            library = try selection.open(
                configuration: LibraryConfiguration(faultInjector: crashInjector(), openMode: .createIfNeeded),
                s3CacheDirectory: parsed.options["scratch"])
        } catch {
            // The errors about the library directory name it already.
            switch error {
            case .libraryNotFound, .notALibrary, .directoryNotEmpty:
                streams.printError("Error: " + TerminalText.escaped(ConnectionText.redacted(error.description)))
            default: streams.printError("Error: " + TerminalText.message(about: selection.name, ConnectionText.redacted(error.description)))
            }
            return .failure
        }
        guard CatalogDurabilityCheck.check(library, require: parsed.has("require-durable"), streams: streams).allowed else {
            return .failure
        }
        let ingestor = Ingestor(library: library, options: IngestOptions(decodesMedia: parsed.has("deep")))
        if let list {
            let stream = ImportStream(
                file: list, ingestor: ingestor, owner: owner, jobs: jobs, jsonLines: parsed.has("json-lines"), streams: streams)
            let results = stream.run()
            let report = ImportReport(library: selection.name, owner: owner, files: results)
            if parsed.has("json") {
                streams.print(report.json().rendered())
            } else if !parsed.has("json-lines") {
                streams.print(report.text(), terminator: "")
            }
            return report.rejected > 0 || report.errors > 0 ? .failure : .success
        }
        let (collected, links, anyMissing) = FileIdentification.collect(parsed.positionals, streams: streams)
        if Self.usesLayoutPlan(collected, given: givenLayout) {
            return importLayout(
                collected, links: links, anyMissing: anyMissing, given: givenLayout, library: library,
                selectionName: selection.name, owner: owner, jobs: jobs, deep: parsed.has("deep"), json: parsed.has("json"),
                streams: streams)
        }
        // A further path to a file (a hard link) is not read again: it is reported with its file's outcome.
        let files = collected.filter { links[$0] == nil }
        let results = ResultSlots<ImportReport.FileResult>(count: files.count)
        let progress = ProgressReporter.longWork(
            streams: streams, label: "import", unit: "files", total: files.count, quiet: parsed.has("quiet"))
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(files.count, 1))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < files.count else { return }
                let file = files[index]
                let name = file.split(separator: "/").last.map(String.init) ?? file
                do throws(LibraryError) {
                    let outcome = try ingestor.ingest(
                        fileAt: file, owner: owner, originalFilename: name, folder: ImportStream.folder(of: file))
                    results.store(ImportReport.FileResult(path: file, outcome: outcome, error: nil), at: index)
                } catch {
                    results.store(ImportReport.FileResult(path: file, outcome: nil, error: error.description), at: index)
                }
                progress.advance()
            }
        }
        progress.finish()
        let settled = ImportFileList.withLinks(
            settle(results.values, owner: owner, ingestor: ingestor), paths: collected, links: links)
        let report = ImportReport(
            library: selection.name, owner: owner, files: ImportFileList.withFlags(settled, library: library))
        if parsed.has("json") {
            streams.print(report.json().rendered())
        } else {
            streams.print(report.text(), terminator: "")
        }
        return anyMissing || report.rejected > 0 || report.errors > 0 ? .failure : .success
    }

    /// What is wrong with where the files come from: paths and `--files-from` together, neither,
    /// or `--json-lines` without `--files-from` or with `--json`.
    private static func inputProblem(_ parsed: ParsedArguments, listSource: String?) -> UsageError? {
        if listSource == nil && parsed.positionals.isEmpty {
            return UsageError("Missing expected argument '<path> ...' (or '--files-from <file>').")
        }
        if listSource != nil && !parsed.positionals.isEmpty {
            return UsageError("Give either paths or '--files-from <file>', not both.")
        }
        if parsed.has("json-lines") && listSource == nil {
            return UsageError("'--json-lines' needs '--files-from <file>'.")
        }
        if parsed.has("json-lines") && parsed.has("json") {
            return UsageError("Give either '--json' or '--json-lines', not both.")
        }
        return nil
    }

    /// Halves that were pending when they arrived but whose partner came later in the same run are
    /// reported with the Live Photo they are now part of.
    private static func settle(_ files: [ImportReport.FileResult], owner: String, ingestor: Ingestor) -> [ImportReport.FileResult] {
        guard let waiting = try? ingestor.pendingUploads(olderThan: 0, owner: owner) else { return files }
        let stillPending = Set(waiting.map(\.contentIdentifier))
        return files.map { file in
            guard case let .pending(identifier) = file.outcome, !stillPending.contains(identifier) else { return file }
            if identifier.hasPrefix("edit:") {
                // A render or .AAE: joined its original's asset when that came later in the run.
                let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
                guard
                    let outcome = try? ingestor.editPartOutcome(named: name, folder: ImportStream.folder(of: file.path), owner: owner)
                else { return file }
                return ImportReport.FileResult(path: file.path, outcome: outcome, error: nil)
            }
            let options = FetchOptions(
                predicate: .and([.owner(owner), .contentIdentifier(identifier)]), includeHiddenAssets: true)
            guard let asset = try? ingestor.library.fetchAssets(with: options).firstObject else { return file }
            return ImportReport.FileResult(path: file.path, outcome: .accepted(localIdentifier: asset.localIdentifier), error: nil)
        }
    }

    /// The fault injector crash tests ask for through `crashEnvironmentVariable`: counts durable
    /// steps and ends the process abruptly (no clean-up, like SIGKILL) at the chosen one.
    static func crashInjector() -> (@Sendable (FaultPoint) throws -> Void)? {
        guard let text = ProcessInfo.processInfo.environment[crashEnvironmentVariable], let target = Int(text), target > 0
        else { return nil }
        let counter = Atomic<Int>(0)
        return { _ in
            if counter.add(1, ordering: .relaxed).newValue == target { _exit(137) }
        }
    }
}
