import Dispatch
import Foundation
import LivePair
import LivePairCLI
import LivePairFormats
import LivePairMedia
import Synchronization

/// `livepair preview PHOTO VIDEO --size WxH [--mode fit|fill] --output DIR` (or `preview
/// MOTION_PHOTO ...`): loads a Live Photo the way a client would (degraded placeholder first,
/// then the full result) and writes what it got, with the time to each result.
public enum PreviewCommand: Command {
    /// The subcommand name.
    public static let name = "preview"
    /// One line saying what it does.
    public static let abstract = MediaCommandCatalog.preview
    /// The usage line.
    public static let usage =
        "livepair preview <photo> <video> [<edit-file>...] | <motion-photo> [--version current|unadjusted|original] "
        + "[--size <w>x<h>] [--mode fit|fill] --output <dir> [--overwrite] [--json]"
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Validates the pair first (an invalid pair is reported with its findings), then requests it
        with opportunistic delivery: the degraded placeholder (the fastest image the files hold,
        at its own size: the HEIC thumbnail, the JPEG's Exif thumbnail, else the movie's frame at
        the still time), then the full result (the still and the movie's
        frame at the still-image time), and encodes the movie's frames at the target size as
        H.264 (motion.mp4, the movie's timing, with the movie's audio as AAC: copied when it is
        AAC, else encoded). A Google or Samsung motion photo, given alone, is loaded the same way:
        its still is the primary image, its movie the embedded video. Files are written atomically;
        existing outputs are refused unless --overwrite; a failure removes what the run wrote (and
        the folder, when the run created it).

        USAGE: \(usage)

        ARGUMENTS:
          <photo>                 The still (HEIC or JPEG).
          <video>                 The paired movie (QuickTime).
          <edit-file>             The render of an edit of the pair (IMG_E1234.HEIC, IMG_E1234.MOV,
                                  IMG_1234_edited.*, IMG_1234-adjusted.*) and its .AAE, named as
                                  Photos exports them; --version chooses what is read.
          <motion-photo>          Instead of both: a motion photo (JPEG or HEIC with its video).

        OPTIONS:
          --version current|unadjusted|original
                                  With an edit's files given: current (the default) reads the
                                  render where there is one, unadjusted and original the original.
          --size <w>x<h>          Target size in pixels (default: 512x512).
          --mode fit|fill         Content mode (default: fit).
          --output <dir>          Folder for placeholder.jpg, still.jpg, poster.jpg and motion.mp4
                                  (created if needed).
          --overwrite             Replace existing outputs.
          --json                  Print the results as JSON (schema: see the documentation).
          -h, --help              Show help information.

        EXIT STATUS:
          0 success, 1 invalid pair or failed decode, 64 usage error.
        """

    /// Runs `preview`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, flags: ["overwrite", "json"], options: ["size", "mode", "output", "version"])
        } catch {
            return usageFailure(error, streams: streams)
        }
        if parsed.has("help") {
            streams.print(HelpText.wrapped(help))
            return .success
        }
        guard (1...5).contains(parsed.positionals.count) else {
            return usageFailure(
                UsageError("Expected '<photo> <video>' (with at most three files of its edit) or one '<motion-photo>'."),
                streams: streams)
        }
        let versionText = parsed.options["version"] ?? AssetVersion.current.rawValue
        guard let version = AssetVersion(rawValue: versionText) else {
            return usageFailure(
                UsageError("The value '\(versionText)' is invalid for '--version current|unadjusted|original'."), streams: streams)
        }
        guard let output = parsed.options["output"] else {
            return usageFailure(UsageError("Missing expected option '--output <dir>'."), streams: streams)
        }
        let sizeText = parsed.options["size"] ?? "512x512"
        let parts = sizeText.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0,
            width <= 16_384, height <= 16_384
        else {
            return usageFailure(
                UsageError("The value '\(sizeText)' is invalid for '--size <w>x<h>': use for example 512x512."),
                streams: streams)
        }
        let contentMode: ContentMode
        switch parsed.options["mode"] ?? "fit" {
        case "fit": contentMode = .aspectFit
        case "fill": contentMode = .aspectFill
        case let other:
            return usageFailure(
                UsageError("The value '\(other)' is invalid for '--mode fit|fill'."), streams: streams)
        }
        let outputs = PreviewOutputs(directory: output)
        InterruptCleanup.shared.install()
        if !parsed.has("overwrite"), let existing = outputs.existing.first {
            streams.printError(
                "Error: \(TerminalText.path(existing)) exists: use --overwrite to replace it (nothing was written).")
            return .failure
        }
        do {
            try outputs.prepare()
        } catch {
            streams.printError("Error: cannot create \(TerminalText.path(output)): \(error.localizedDescription)")
            return .failure
        }
        let cleanup = InterruptCleanup.shared.add { outputs.removeWritten() }
        let status = load(
            resources: parsed.positionals, version: version, size: PixelSize(width: width, height: height),
            contentMode: contentMode, outputs: outputs, json: parsed.has("json"), streams: streams)
        InterruptCleanup.shared.remove(cleanup)
        if status != .success { outputs.removeWritten() }
        return status
    }

    /// What the handler saw, collected across its calls.
    private struct Outcome: Sendable {
        var placeholder: (PixelBuffer, PreviewSource?, Duration)?
        var final: (LivePhoto, Duration)?
        var error: LoaderError?
    }

    private static func load(
        resources: [String], version: AssetVersion, size: PixelSize, contentMode: ContentMode, outputs: PreviewOutputs,
        json: Bool,
        streams: OutputStreams
    ) -> ExitCode {
        let start = ContinuousClock.now
        let outcome = Mutex(Outcome())
        let done = DispatchSemaphore(value: 0)
        LivePhotoManager.default.requestLivePhoto(
            resourceFileURLs: resources, targetSize: size, contentMode: contentMode,
            options: ImageRequestOptions(version: version)
        ) { event, info in
            let elapsed = ContinuousClock.now - start
            outcome.withLock { outcome in
                switch event {
                case let .degraded(image)?: outcome.placeholder = (image, info.degradedSource, elapsed)
                case let .final(livePhoto)?: outcome.final = (livePhoto, elapsed)
                case nil: outcome.error = info.error ?? .cancelled
                }
            }
            if info.isTerminal { done.signal() }
        }
        done.wait()
        let result = outcome.withLock { $0 }
        var results: [PreviewResult] = []
        var failed = false
        func record(_ written: PreviewResult?) {
            guard let written else { return failed = true }
            results.append(written)
            if !json { streams.print(written.line) }
        }
        if let (image, source, elapsed) = result.placeholder {
            record(write(
                image, name: "placeholder.jpg", outputs: outputs, degraded: true,
                source: source.map(String.init(describing:)) ?? "placeholder", elapsed, streams))
        }
        if let (livePhoto, elapsed) = result.final {
            record(write(
                livePhoto.still, name: "still.jpg", outputs: outputs, degraded: false, source: "still", elapsed, streams,
                iccProfile: StillColourProfile.iccProfile(ofStillAt: livePhoto.photoPath)))
            record(write(
                livePhoto.poster.image, name: "poster.jpg", outputs: outputs, degraded: false,
                source: "movie-frame \(livePhoto.posterFrameIndex) at \(format(livePhoto.poster.presentationTime)) s",
                elapsed, streams))
            record(writeMotion(livePhoto, outputs: outputs, start: start, streams))
            if !json {
                streams.print(
                    "movie: \(format(livePhoto.movie.duration)) s, "
                        + Wording.count(livePhoto.movie.frameTimes.count, "frame") + ", "
                        + "\(livePhoto.frameSize) upright, \(livePhoto.movie.codec)"
                        + (livePhoto.movie.hasAudio ? " with audio" : ""))
            }
        }
        if let error = result.error {
            if case let .invalidPair(findings) = error {
                streams.printError("Error: the pair is invalid:")
                for finding in findings { streams.printError("  \(finding.code): \(TerminalText.escaped(finding.message))") }
            } else {
                streams.printError("Error: " + TerminalText.escaped("\(error)"))
            }
            return .failure
        }
        if failed { return .failure }
        if json { streams.print(PreviewResult.json(results)) }
        return .success
    }

    private static func write(
        _ image: PixelBuffer, name: String, outputs: PreviewOutputs, degraded: Bool, source: String,
        _ elapsed: Duration, _ streams: OutputStreams, iccProfile: [UInt8]? = nil
    ) -> PreviewResult? {
        let path = outputs.path(name)
        do {
            let bytes = try StillImageEncoder.jpeg(image, quality: 90, iccProfile: iccProfile)
            try AtomicFileWriter.write(bytes, to: path)
            outputs.wrote(path)
        } catch {
            streams.printError("Error: cannot write " + TerminalText.message(about: path, "\(error)"))
            return nil
        }
        return PreviewResult(
            file: name, degraded: degraded, width: image.width, height: image.height,
            milliseconds: milliseconds(elapsed), source: source)
    }

    private static func milliseconds(_ elapsed: Duration) -> Double {
        Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// Encodes every frame of the Live Photo's movie at its frame size as H.264 into
    /// `motion.mp4`, with the movie's audio (AAC copied, anything else encoded to AAC), through a
    /// temporary file renamed into place.
    private static func writeMotion(
        _ livePhoto: LivePhoto, outputs: PreviewOutputs, start: ContinuousClock.Instant, _ streams: OutputStreams
    ) -> PreviewResult? {
        let path = outputs.path("motion.mp4")
        let temporary = path + ".tmp-\(getpid())"
        outputs.writing(temporary)
        let summary: MotionMovieSummary
        do throws(LoaderError) {
            summary = try livePhoto.writeMotionMovie(to: temporary)
        } catch {
            FileSystemPath.unlink(temporary)
            streams.printError("Error: cannot write " + TerminalText.message(about: path, "\(error)"))
            return nil
        }
        guard FileSystemPath.rename(temporary, path) == 0 else {
            FileSystemPath.unlink(temporary)
            streams.printError("Error: cannot write \(TerminalText.path(path)): rename failed")
            return nil
        }
        outputs.wrote(path)
        let elapsed = ContinuousClock.now - start
        let audio: String
        switch summary.audio {
        case .copiedAAC?: audio = ", AAC audio (copied)"
        case .encodedAAC?: audio = ", AAC audio (encoded)"
        case nil: audio = ", no audio"
        }
        return PreviewResult(
            file: "motion.mp4", degraded: false, width: livePhoto.frameSize.width / 2 * 2,
            height: livePhoto.frameSize.height / 2 * 2, milliseconds: milliseconds(elapsed),
            source: "H.264, " + Wording.count(summary.frameCount, "frame") + audio)
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
