import LivePair
import LivePairCLI

/// `livepair restamp`: gives both halves of a pair a fresh identifier.
public enum RestampCommand: Command {
    /// The subcommand name.
    public static let name = "restamp"
    /// One line saying what it does.
    public static let abstract = MediaCommandCatalog.restamp
    /// The usage line.
    public static let usage = "livepair restamp <photo> <video> (--output <dir> | --in-place) [--identifier <uuid>]"
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Fixes pairs whose halves carry different identifiers (broken exports, Google Takeout) and
        pairs matched only by name: both files get the same new identifier (the still's maker note,
        the movie's moov/meta), nothing else changes. The movie keeps its still-image time unless
        --still-time is given. The pair is validated before it is written into place.

        USAGE: \(usage)

        ARGUMENTS:
          <photo>                 The still (HEIC or JPEG).
          <video>                 The movie (H.264 or HEVC in MOV or MP4).

        OPTIONS:
          --output <dir>          Write the restamped copies here (same file names).
          --in-place              Replace the originals, atomically, once both new files are complete.
          --identifier <uuid>     The content identifier (default: a new UUID).
          --still-time <seconds>  Move the still-image time (snapped to the nearest frame).
          --overwrite             Replace existing files in the output folder.
          --json                  Print the result as JSON (schema: see the documentation).
          -h, --help              Show help information.

        EXIT STATUS:
          0 success, 1 failure, 64 usage error.
        """

    /// Runs `restamp`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        let stillTime: Double?
        var options = PackagingOptions()
        do throws(UsageError) {
            parsed = try ParsedArguments(
                arguments, flags: ["in-place", "overwrite", "json"], options: ["output", "identifier", "still-time"])
            if parsed.has("help") {
                streams.print(HelpText.wrapped(help))
                return .success
            }
            stillTime = try PackagingArguments.stillTime(parsed)
            guard parsed.positionals.count == 2 else {
                throw UsageError("Expected exactly two arguments: '<photo> <video>'.")
            }
            guard (parsed.options["output"] != nil) != parsed.has("in-place") else {
                throw UsageError("Give exactly one of '--output <dir>' and '--in-place'.")
            }
            options.overwrite = parsed.has("overwrite")
        } catch {
            return usageFailure(error, streams: streams)
        }
        let json = parsed.has("json")
        InterruptCleanup.shared.install()
        do throws(PackagingError) {
            let result = try LivePhotoPackager(options: options).restamp(
                photo: parsed.positionals[0], video: parsed.positionals[1], outputDirectory: parsed.options["output"],
                stillImageTime: stillTime, contentIdentifier: parsed.options["identifier"])
            streams.print(json ? PackagingReport.json(result, operation: "restamp").rendered() : PackagingReport.text(result))
            return .success
        } catch {
            return PackagingReport.fail(error, operation: "restamp", json: json, streams: streams)
        }
    }
}
