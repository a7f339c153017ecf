import LivePair
import LivePairCLI

/// `livepair make`: a Live Photo pair from a still and a movie, or from a movie alone.
public enum MakeCommand: Command {
    /// The subcommand name.
    public static let name = "make"
    /// One line saying what it does.
    public static let abstract = MediaCommandCatalog.make
    /// The usage line.
    public static let usage =
        "livepair make [--photo <still>] --video <movie> [--still-time <seconds>] [--identifier <uuid>] --output <dir>"
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Writes <stem>.HEIC or <stem>.JPG (by the still's format) and <stem>.MOV into the output
        folder, in upper case whatever the inputs' extensions, <stem> being the still's file name
        without its extension (the movie's without --photo): the still with the identifier in
        Apple's maker note, the movie with the identifier in moov/meta and a still-image-time
        track, like the files an iPhone writes. A HEIC or JPEG still keeps its
        image data; PNG, WebP and other stills are encoded (--still-format). H.264 and HEVC movies in
        MOV or MP4 are re-muxed without re-encoding; other codecs and containers are transcoded
        (--codec). Without --photo the still is the movie's frame at the still time. The pair is
        validated before it is renamed into place; inputs are never modified.

        USAGE: \(usage)

        OPTIONS:
          --photo <still>         The still (HEIC, JPEG, PNG, WebP, ...). Omit to take a frame of the movie.
          --video <movie>         The movie (any format FFmpeg reads).
          --still-time <seconds>  The still's time in the movie, snapped to the nearest frame
                                  (default: the movie's own, else the frame nearest the middle).
          --identifier <uuid>     The content identifier (default: a new UUID).
          --output <dir>          The output folder (created if needed).
          --still-format heic|jpeg  Format of stills LivePair encodes (default: heic).
          --codec hevc|h264       Codec for transcoded movies (default: hevc).
          --quality <1-100>       Quality of encoded stills (default: 90).
          --overwrite             Replace existing outputs.
          --json                  Print the result as JSON (schema: see the documentation).
          -h, --help              Show help information.

        EXIT STATUS:
          0 success, 1 failure (unreadable input, failed conversion or validation), 64 usage error.
        """

    /// Runs `make`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        let options: PackagingOptions
        let stillTime: Double?
        do throws(UsageError) {
            parsed = try ParsedArguments(
                arguments, flags: PackagingArguments.flags,
                options: PackagingArguments.options.union(["photo", "video", "still-time", "identifier", "output"]))
            options = try PackagingArguments.options(parsed)
            stillTime = try PackagingArguments.stillTime(parsed)
            if parsed.has("help") {
                streams.print(HelpText.wrapped(help))
                return .success
            }
            guard parsed.positionals.isEmpty else {
                throw UsageError("Unexpected argument '\(parsed.positionals[0])': give files with --photo and --video.")
            }
            guard parsed.options["video"] != nil else { throw UsageError("Missing expected option '--video <movie>'.") }
            guard parsed.options["output"] != nil else { throw UsageError("Missing expected option '--output <dir>'.") }
        } catch {
            return usageFailure(error, streams: streams)
        }
        let video = parsed.options["video"] ?? ""
        let output = parsed.options["output"] ?? ""
        let json = parsed.has("json")
        let packager = LivePhotoPackager(options: options)
        InterruptCleanup.shared.install()
        do throws(PackagingError) {
            let result: PackagedLivePhoto
            if let photo = parsed.options["photo"] {
                result = try packager.make(
                    photo: photo, video: video, outputDirectory: output, stillImageTime: stillTime,
                    contentIdentifier: parsed.options["identifier"])
            } else {
                result = try packager.make(
                    video: video, outputDirectory: output, stillImageTime: stillTime,
                    contentIdentifier: parsed.options["identifier"])
            }
            streams.print(json ? PackagingReport.json(result, operation: "make").rendered() : PackagingReport.text(result))
            return .success
        } catch {
            return PackagingReport.fail(error, operation: "make", json: json, streams: streams)
        }
    }
}
