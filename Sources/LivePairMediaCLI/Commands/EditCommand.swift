import LivePair
import LivePairCLI
import LivePairFormats

/// `livepair edit`: a Live Photo edit (key photo, trim, mute, Loop, Bounce, Long Exposure)
/// rendered beside the originals under Photos' names (`LivePhotoEditingContext`).
public enum EditCommand: Command {
    /// The subcommand name.
    public static let name = "edit"
    /// One line saying what it does.
    public static let abstract = MediaCommandCatalog.edit
    /// The usage line.
    public static let usage =
        "livepair edit <still> <movie> [--key-photo <seconds>] [--trim <start>-<end>] [--volume <0-1>] [--mute] [--variation <kind>] [--filter <name>] [--resume <aae>] --output <dir>"
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Renders the edit of the Live Photo <still> + <movie> into the output folder as Photos
        exports an edited photo: IMG_E1234.HEIC (or .JPG, the original still's format) and
        IMG_E1234.MOV for the original IMG_1234.HEIC, with the adjustment data IMG_1234.AAE
        (LivePair's format, org.livepair.adjustments); a name that is not IMG_1234-like gets
        _edited (train_edited.JPG). The render is a new Live Photo with a new content
        identifier: the still is the movie's frame at the key photo time, upright, with the
        original still's Exif (Long Exposure: the mean of the kept frames); the movie is the
        original's H.264 or HEVC packets cut to the trim by edit lists, not re-encoded, with its
        sound of that range unless --mute (Loop and Bounce, or another codec: the kept frames
        encoded as H.264, sound as AAC; Loop and Bounce have none), and its still-image time on
        the key photo's frame. Times are
        seconds on the original movie's timeline. The outputs are staged, validated as one Live
        Photo and renamed into place together; the originals are never modified.

        USAGE: \(usage)

        ARGUMENTS:
          <still>                 The original still (HEIC or JPEG; others are encoded as HEIC).
          <movie>                 The original movie.

        OPTIONS:
          --key-photo <seconds>   The key photo's time (default: the movie's still-image time).
          --trim <start>-<end>    The part of the movie kept, in seconds (e.g. 0.5-2.25).
          --volume <0-1>          The sound's volume: its samples scaled (the sound alone
                                  encoded again as AAC); 0 is --mute, 1 keeps it.
          --mute                  Leave the sound out.
          --variation <kind>      loop, bounce, long-exposure or none (default: none).
          --filter <name>         A frame filter on every kept frame and the still, recorded
                                  in the .AAE: invert or mono (the movie is then encoded
                                  again as H.264).
          --resume <aae>          Start from the settings in an .AAE: LivePair's own, or Photos'
                                  key photo, trim, mute and Loop/Bounce/Long Exposure; the
                                  options given override them.
          --identifier <uuid>     The render's content identifier (default: a new UUID).
          -o, --output <dir>      The output folder (created if needed).
          --quality <1-100>       Quality of the encoded still (default: 90).
          --overwrite             Replace existing outputs.
          --json                  Print the result as JSON (schema: see the documentation).
          -h, --help              Show help information.

        EXIT STATUS:
          0 success, 1 failure (unreadable input, settings the movie cannot take, failed
          validation), 64 usage error, 130/143 interrupted (nothing left behind).
        """

    /// Runs `edit`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        let options: PackagingOptions
        do throws(UsageError) {
            parsed = try ParsedArguments(
                arguments, flags: ["mute", "overwrite", "json"],
                options: ["key-photo", "trim", "volume", "variation", "filter", "resume", "identifier", "output", "quality"],
                shortNames: ["h": "help", "o": "output"])
            if parsed.has("help") {
                streams.print(HelpText.wrapped(help))
                return .success
            }
            options = try PackagingArguments.options(parsed)
            guard parsed.positionals.count == 2 else {
                throw UsageError("Expected a still and a movie, got \(parsed.positionals.count) arguments.")
            }
            guard parsed.options["output"] != nil else { throw UsageError("Missing expected option '--output <dir>'.") }
            _ = try settings(parsed, base: LivePhotoEditSettings())
        } catch {
            return usageFailure(error, streams: streams)
        }
        let (photo, video, output) = (parsed.positionals[0], parsed.positionals[1], parsed.options["output"] ?? "")
        let json = parsed.has("json")
        InterruptCleanup.shared.install()
        do throws(PackagingError) {
            var context = LivePhotoEditingContext(photo: photo, video: video, options: options)
            if let resume = parsed.options["resume"] {
                context = try LivePhotoEditingContext(photo: photo, video: video, resuming: resume, options: options)
            }
            do throws(UsageError) {
                context.settings = try settings(parsed, base: context.settings)
            } catch {
                return usageFailure(error, streams: streams)
            }
            let result = try context.render(outputDirectory: output, contentIdentifier: parsed.options["identifier"])
            streams.print(json ? EditReport.json(result).rendered() : EditReport.text(result))
            return .success
        } catch {
            return PackagingReport.fail(error, operation: "edit", json: json, streams: streams)
        }
    }

    /// `base` with the options given on the command line.
    static func settings(_ parsed: ParsedArguments, base: LivePhotoEditSettings) throws(UsageError) -> LivePhotoEditSettings {
        var settings = base
        if let value = parsed.options["key-photo"] {
            guard let seconds = Double(value), seconds.isFinite, seconds >= 0 else {
                throw UsageError("The value '\(value)' is invalid for '--key-photo <seconds>': use a number of seconds, e.g. 1.5.")
            }
            settings.photoTime = seconds
        }
        if let value = parsed.options["trim"] {
            let parts = value.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let start = Double(parts[0]), let end = Double(parts[1]), start.isFinite, end.isFinite,
                start >= 0, start < end
            else {
                throw UsageError("The value '\(value)' is invalid for '--trim <start>-<end>': use seconds with start < end, e.g. 0.5-2.")
            }
            settings.trim = start...end
        }
        if let value = parsed.options["volume"] {
            guard let volume = Double(value), volume.isFinite, (0...1).contains(volume) else {
                throw UsageError("The value '\(value)' is invalid for '--volume <0-1>': use a number from 0 (mute) to 1, e.g. 0.5.")
            }
            settings.audioVolume = volume
        }
        if parsed.has("mute") { settings.audioVolume = 0 }
        if let value = parsed.options["variation"] {
            let variations: [String: PlaybackVariation] = [
                "none": PlaybackVariation.none, "loop": .loop, "bounce": .bounce, "long-exposure": .longExposure,
            ]
            guard let variation = variations[value.lowercased()] else {
                throw UsageError("The value '\(value)' is invalid for '--variation loop|bounce|long-exposure|none'.")
            }
            settings.playbackVariation = variation
        }
        if let value = parsed.options["filter"] {
            guard let filter = LivePhotoFilter(rawValue: value.lowercased()) else {
                throw UsageError("The value '\(value)' is invalid for '--filter <name>': use \(LivePhotoFilter.names.joined(separator: " or ")).")
            }
            settings.filter = filter
        }
        return settings
    }
}
