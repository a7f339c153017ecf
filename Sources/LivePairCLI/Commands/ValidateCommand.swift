import LivePairCore

/// `livepair validate [--json] [--deep] [--severity LEVEL] PATH...`: what is wrong with each asset and how to fix it.
public enum ValidateCommand: Command {
    /// The subcommand name.
    public static let name = "validate"
    /// One line saying what it does.
    public static let abstract = "Check Live Photos and motion photos before they are loaded: what is wrong and how to fix it."
    /// The usage line.
    public static let usage = "livepair validate [--json] [--deep] [--severity <level>] [--quiet] <path> ..."
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Pairs the files first (as 'livepair pair'), then checks every Live Photo, orphan half and
        motion photo against the rule catalog (listed in the documentation). Reads metadata only unless --deep;
        never changes files.

        USAGE: \(usage)

        ARGUMENTS:
          <path>                  Files or directories (read recursively).

        OPTIONS:
          --json                  Print one JSON object (schema: see the documentation).
          --deep                  Also decode each still's image and each movie's frame at the
                                  still-image time, and report data that does not decode.
          --severity <level>      Show only findings at or above info, warning or error, and
                                  only what has one (default: info, everything). Verdicts,
                                  the summary and the exit status still count every finding.
          --quiet                 Show no progress. Without it, --deep shows a bar on a
                                  terminal, else a line on standard error every 5 seconds.
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
        switch parsePaths(arguments, flags: ["json", "deep", "quiet"], options: ["severity"], streams: streams) {
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
        let (files, links, anyMissing) = FileIdentification.collect(parsed.positionals, streams: streams)
        let quiet = parsed.has("quiet")
        let identities = FileIdentification.identifyAll(files, links: links, label: "Validating", streams: streams, quiet: quiet)
        let result = Pairing.pair(identities.map(AssetResource.init), options: PairingOptions())
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
        if report.hasErrors || anyMissing { return .failure }
        return FileIdentification.successOrNoMedia(identities, paths: parsed.positionals, streams: streams)
    }
}
