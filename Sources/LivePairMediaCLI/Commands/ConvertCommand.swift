import LivePair
import LivePairCLI

/// `livepair convert`: Live Photo to motion photo and back.
public enum ConvertCommand: Command {
    /// The subcommand name.
    public static let name = "convert"
    /// One line saying what it does.
    public static let abstract = MediaCommandCatalog.convert
    /// The usage line.
    public static let usage =
        "livepair convert --to motion-photo <photo> <video> --output <file> | --to live-photo <motion-photo> --output <dir>"
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        --to motion-photo: writes a Google Motion Photo 1.0: the still (JPEG, or HEIC with the video
        in an mpvd box) with Camera and Container XMP, the movie appended as MP4 (H.264 and HEVC
        video kept, other codecs transcoded; audio as AAC, QuickTime lpcm re-encoded; no
        timed-metadata tracks), the presentation timestamp the time of the frame nearest the
        movie's still-image time, Apple's exact time in the XMP (LivePair:StillImageTime).

        --to live-photo: extracts the video of a Google or Samsung motion photo (JPEG or HEIC) into
        a QuickTime movie with a content identifier and a still-image-time track, and writes the
        still without the video, with the identifier. The identifier is the one the embedded video
        carries (a motion photo made from a Live Photo), else the still's, else a new one; the
        still time is the video's own still-image time, else LivePair:StillImageTime, else the
        presentation timestamp. The embedded video's streams are kept as they are (AAC stays AAC).
        The outputs are <stem>.HEIC or <stem>.JPG (by the still's format) and <stem>.MOV in the
        output folder, as 'livepair make' names them (<stem>: the file name without its extension
        and a trailing .MP).

        Outputs are validated before they are renamed into place; inputs are never modified.

        USAGE: \(usage)

        OPTIONS:
          --to motion-photo|live-photo  The direction.
          --output <path>         The motion photo file, or the Live Photo's folder.
          --still-time <seconds>  The still's time in the movie (snapped to the nearest frame).
          --identifier <uuid>     The content identifier of the Live Photo (default: the one the
                                  motion photo carries, else a new UUID).
          --new-identifier        A new UUID even when the motion photo carries an identifier.
          --still-format heic|jpeg  Format for stills that must be encoded (PNG, WebP input).
          --codec hevc|h264       Codec for movies that must be transcoded (default: hevc).
          --overwrite             Replace existing outputs.
          --json                  Print the result as JSON (schema: see the documentation).
          -h, --help              Show help information.

        EXIT STATUS:
          0 success, 1 failure, 64 usage error.
        """

    /// Runs `convert`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        let options: PackagingOptions
        let stillTime: Double?
        let direction: String
        do throws(UsageError) {
            parsed = try ParsedArguments(
                arguments, flags: PackagingArguments.flags.union(["new-identifier"]),
                options: PackagingArguments.options.union(["to", "output", "still-time", "identifier"]))
            if parsed.has("help") {
                streams.print(HelpText.wrapped(help))
                return .success
            }
            options = try PackagingArguments.options(parsed)
            stillTime = try PackagingArguments.stillTime(parsed)
            guard let to = parsed.options["to"] else { throw UsageError("Missing expected option '--to motion-photo|live-photo'.") }
            direction = to
            guard parsed.options["output"] != nil else { throw UsageError("Missing expected option '--output <path>'.") }
            switch direction {
            case "motion-photo":
                guard parsed.positionals.count == 2 else { throw UsageError("Expected exactly two arguments: '<photo> <video>'.") }
            case "live-photo":
                guard parsed.positionals.count == 1 else { throw UsageError("Expected exactly one argument: '<motion-photo>'.") }
                if parsed.has("new-identifier"), parsed.options["identifier"] != nil {
                    throw UsageError("'--identifier' and '--new-identifier' cannot be used together.")
                }
            default:
                throw UsageError("The value '\(direction)' is invalid for '--to motion-photo|live-photo'.")
            }
        } catch {
            return usageFailure(error, streams: streams)
        }
        let output = parsed.options["output"] ?? ""
        let json = parsed.has("json")
        let converter = MotionPhotoConverter(options: options)
        InterruptCleanup.shared.install()
        let operation = "convert-to-\(direction)"
        do throws(PackagingError) {
            if direction == "motion-photo" {
                let result = try converter.motionPhoto(
                    photo: parsed.positionals[0], video: parsed.positionals[1], output: output, stillImageTime: stillTime)
                streams.print(json ? PackagingReport.json(result).rendered() : PackagingReport.text(result))
            } else {
                let result = try converter.livePhoto(
                    motionPhoto: parsed.positionals[0], outputDirectory: output, stillImageTime: stillTime,
                    contentIdentifier: parsed.options["identifier"], newIdentifier: parsed.has("new-identifier"))
                streams.print(
                    json ? PackagingReport.json(result, operation: operation).rendered() : PackagingReport.text(result))
            }
            return .success
        } catch {
            return PackagingReport.fail(error, operation: operation, json: json, streams: streams)
        }
    }
}
