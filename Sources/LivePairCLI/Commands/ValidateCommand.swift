import LivePairCore

/// `livepair validate [--json] [--deep] [--severity LEVEL] PATH...`: what is wrong with each asset and how to fix it.
public enum ValidateCommand: Command {
    /// The subcommand name.
    public static let name = "validate"
    /// One line saying what it does.
    public static let abstract = "Check Live Photos and motion photos before they are loaded: what is wrong and how to fix it."
    /// The usage line.
    public static let usage = "livepair validate [--json] [--deep] [--severity <level>] [--quiet] [--layout <layout>] <path> ..."
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Pairs the files first (as 'livepair pair'), then checks every Live Photo, orphan half and
        motion photo against the rule catalog (listed in the documentation). Reads metadata only unless --deep;
        never changes files.

        USAGE: \(usage)

        ARGUMENTS:
          <path>                  Files, directories (read recursively) or archive parts
                                  (.zip, .tgz, .tar.gz: read in place, merged into one tree).

        OPTIONS:
          --json                  Print one JSON object (schema: see the documentation).
          --deep                  Also decode each still's image and each movie's frame at the
                                  still-image time, and report data that does not decode.
          --severity <level>      Show only findings at or above info, warning or error, and
                                  only what has one (default: info, everything). Verdicts,
                                  the summary and the exit status still count every finding.
          --quiet                 Show no progress. Without it, --deep shows a bar on a
                                  terminal, else a line on standard error every 5 seconds.
          --layout <layout>       takeout, icloud, icloudpd, image-capture, smart-switch, folder or plain,
                                  as for pair (default: detected): an export's assets are the
                                  ones its layout's plan makes (sidecars, stem-and-time pairs).
          -h, --help              Show help information.

        EXIT STATUS:
          0 no error finding, 1 at least one error finding, 64 usage error,
          66 no photo or movie among the files.
        """

    /// Runs `validate` (metadata only in this process; `--deep` is handed to `livepair-media`).
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        run(arguments, streams: streams, media: .unavailable)
    }

    /// Runs `validate`; `--deep` decodes through `media`'s deep validation (or hands over to it).
    static func run(_ arguments: [String], streams: OutputStreams, media: MediaCommands) -> ExitCode {
        let parsed: ParsedArguments
        switch parsePaths(arguments, flags: ["json", "deep", "quiet"], options: ["severity", "layout"], streams: streams) {
        case let .exit(code): return code
        case let .run(arguments): parsed = arguments
        }
        var minimum = Severity.info
        if let level = parsed.options["severity"] {
            guard let severity = Severity(rawValue: level) else {
                return usageFailure(
                    UsageError("The value '\(level)' is invalid for '--severity <level>': use info, warning or error."),
                    streams: streams)
            }
            minimum = severity
        }
        var deepValidation: (any DeepValidation)?
        if parsed.has("deep") {
            guard case let .inProcess(_, makeDeepValidation, _) = media else {
                return media.handOver([name] + arguments, streams: streams)
            }
            deepValidation = makeDeepValidation(ValidationOptions(deep: true))
        }
        let layout: ExportLayout?
        do throws(UsageError) {
            layout = try parsed.exportLayout()
        } catch {
            return usageFailure(error, streams: streams)
        }
        let (files, links, anyMissing) = FileIdentification.collect(parsed.positionals, streams: streams)
        let quiet = parsed.has("quiet")
        var identities: [ResourceIdentity]
        var result: PairingResult
        var failed = anyMissing
        let parts = files.filter(ExportTreePath.isArchiveName)
        if !parts.isEmpty || (layout ?? ExportLayout.detect(paths: files)).hasSidecars {
            // An export: its layout's plan says which files make each asset (as `pair --layout`).
            var archives: (any ExportArchiveStreaming)?
            if case let .inProcess(_, _, reader) = media { archives = reader }
            if !parts.isEmpty, archives == nil { return media.handOver([name] + arguments, streams: streams) }
            let plainFiles = files.filter { !ExportTreePath.isArchiveName($0) && links[$0] == nil }
            let (entries, failures) = ExportReader(archives: archives).read(files: plainFiles, archives: parts)
            for failure in failures {
                streams.printError("Error: \(TerminalText.path(failure.path)): \(TerminalText.escaped(failure.message))")
            }
            failed = failed || !failures.isEmpty
            let chosen = layout ?? ExportLayout.detect(paths: entries.map(\.path))
            let plan = ExportPlanner.plan(chosen, entries, contents: ExportContentSource(files: Set(plainFiles)))
            identities = entries.compactMap { entry -> ResourceIdentity? in
                if case let .identified(identity) = entry.content { return identity }
                return nil
            }
            result = ExportPlanner.pairingResult(plan, entries: entries)
        } else {
            identities = FileIdentification.identifyAll(files, links: links, label: "Validating", streams: streams, quiet: quiet)
            result = Pairing.pair(identities.map(AssetResource.init), options: PairingOptions())
        }
        var options = ValidationOptions()
        options.deep = parsed.has("deep")
        let progress =
            options.deep
            ? ProgressReporter.longWork(streams: streams, label: "validate --deep", unit: "assets", total: 0, quiet: quiet)
            : ProgressReporter(streams: streams, label: "Checking", unit: "assets", total: 0, quiet: quiet)
        let report = Validator(options: options, deepValidation: deepValidation).validate(result, progress: { done, total in
            progress.update(done: done, total: total)
        })
        progress.finish()
        let shown = report.filtered(minimumSeverity: minimum)
        if parsed.has("json") {
            streams.print(ValidateReport.json(shown, all: report))
        } else {
            var buffer = OutputBuffer(capacity: 256 * (shown.assets.count + shown.files.count + 2))
            ValidateReport.writeText(shown, all: report, into: &buffer)
            streams.write(buffer.bytes)
        }
        if report.hasErrors || failed { return .failure }
        return FileIdentification.successOrNoMedia(identities, paths: parsed.positionals, streams: streams)
    }
}
