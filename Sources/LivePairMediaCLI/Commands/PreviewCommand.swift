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
        "livepair preview <photo> <video> | <motion-photo> [--size <w>x<h>] [--mode fit|fill] --output <dir>"
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Validates the pair first (an invalid pair is reported with its findings), then requests it
        with opportunistic delivery: the degraded placeholder (the HEIC thumbnail or reduced
        tiles, or the JPEG's Exif thumbnail or DCT-scaled decode), then the full result (the still and the movie's
        frame at the still-image time), and encodes the movie's frames at the target size as
        H.264 (motion.mp4, the movie's timing, with the movie's audio as AAC: copied when it is
        AAC, else encoded). A Google or Samsung motion photo, given alone, is loaded the same way:
        its still is the primary image, its movie the embedded video. Files are written atomically.

        USAGE: \(usage)

        ARGUMENTS:
          <photo>                 The still (HEIC or JPEG).
          <video>                 The paired movie (QuickTime).
          <motion-photo>          Instead of both: a motion photo (JPEG or HEIC with its video).

        OPTIONS:
          --size <w>x<h>          Target size in pixels (default: 512x512).
          --mode fit|fill         Content mode (default: fit).
          --output <dir>          Folder for placeholder.jpg, still.jpg, poster.jpg and motion.mp4
                                  (created if needed).
          -h, --help              Show help information.

        EXIT STATUS:
          0 success, 1 invalid pair or failed decode, 64 usage error.
        """

    /// Runs `preview`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, flags: [], options: ["size", "mode", "output"])
        } catch {
            return usageFailure(error, streams: streams)
        }
        if parsed.has("help") {
            streams.print(help)
            return .success
        }
        guard (1...2).contains(parsed.positionals.count) else {
            return usageFailure(
                UsageError("Expected '<photo> <video>' or one '<motion-photo>'."), streams: streams)
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
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            streams.printError("Error: cannot create \(output): \(error.localizedDescription)")
            return .failure
        }
        return load(
            resources: parsed.positionals, size: PixelSize(width: width, height: height), contentMode: contentMode,
            output: output, streams: streams)
    }

    /// What the handler saw, collected across its calls.
    private struct Outcome: Sendable {
        var placeholder: (PixelBuffer, Duration)?
        var final: (LivePhoto, Duration)?
        var error: LoaderError?
    }

    private static func load(
        resources: [String], size: PixelSize, contentMode: ContentMode, output: String, streams: OutputStreams
    ) -> ExitCode {
        let start = ContinuousClock.now
        let outcome = Mutex(Outcome())
        let done = DispatchSemaphore(value: 0)
        LivePhotoManager.default.requestLivePhoto(
            resourceFileURLs: resources, targetSize: size, contentMode: contentMode
        ) { event, info in
            let elapsed = ContinuousClock.now - start
            outcome.withLock { outcome in
                switch event {
                case let .degraded(image)?: outcome.placeholder = (image, elapsed)
                case let .final(livePhoto)?: outcome.final = (livePhoto, elapsed)
                case nil: outcome.error = info.error ?? .cancelled
                }
            }
            if info.isTerminal { done.signal() }
        }
        done.wait()
        let result = outcome.withLock { $0 }
        var failed = false
        if let (image, elapsed) = result.placeholder {
            failed = !write(image, name: "placeholder.jpg", output: output, detail: "degraded", elapsed, streams) || failed
        }
        if let (livePhoto, elapsed) = result.final {
            failed = !write(livePhoto.still, name: "still.jpg", output: output, detail: "final still", elapsed, streams) || failed
            let frame = "poster, frame \(livePhoto.posterFrameIndex) at \(format(livePhoto.poster.presentationTime)) s"
            failed = !write(livePhoto.poster.image, name: "poster.jpg", output: output, detail: frame, elapsed, streams) || failed
            failed = !writeMotion(livePhoto, output: output, start: start, streams) || failed
            streams.print(
                "movie: \(format(livePhoto.movie.duration)) s, \(livePhoto.movie.frameTimes.count) frames, "
                    + "\(livePhoto.frameSize) upright, \(livePhoto.movie.codec)"
                    + (livePhoto.movie.hasAudio ? " with audio" : ""))
        }
        if let error = result.error {
            if case let .invalidPair(findings) = error {
                streams.printError("Error: the pair is invalid:")
                for finding in findings { streams.printError("  \(finding.code): \(finding.message)") }
            } else {
                streams.printError("Error: \(error)")
            }
            return .failure
        }
        return failed ? .failure : .success
    }

    private static func write(
        _ image: PixelBuffer, name: String, output: String, detail: String, _ elapsed: Duration, _ streams: OutputStreams
    ) -> Bool {
        let path = output.hasSuffix("/") ? output + name : output + "/" + name
        do {
            let bytes = try image.jpegData(quality: 90)
            try AtomicFileWriter.write(bytes, to: path)
        } catch {
            streams.printError("Error: cannot write \(path): \(error)")
            return false
        }
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        streams.print("\(name)  \(image.width)x\(image.height)  \(detail)  \(format(milliseconds)) ms")
        return true
    }

    /// Encodes every frame of the Live Photo's movie at its frame size as H.264 into
    /// `motion.mp4`, with the movie's audio (AAC copied, anything else encoded to AAC), through a
    /// temporary file renamed into place.
    private static func writeMotion(
        _ livePhoto: LivePhoto, output: String, start: ContinuousClock.Instant, _ streams: OutputStreams
    ) -> Bool {
        let path = output.hasSuffix("/") ? output + "motion.mp4" : output + "/motion.mp4"
        let temporary = path + ".tmp-\(getpid())"
        let summary: MotionMovieSummary
        do throws(LoaderError) {
            summary = try livePhoto.writeMotionMovie(to: temporary)
        } catch {
            unlink(temporary)
            streams.printError("Error: cannot write \(path): \(error)")
            return false
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            streams.printError("Error: cannot write \(path): rename failed")
            return false
        }
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let audio: String
        switch summary.audio {
        case .copiedAAC?: audio = ", AAC audio (copied)"
        case .encodedAAC?: audio = ", AAC audio (encoded)"
        case nil: audio = ", no audio"
        }
        streams.print(
            "motion.mp4  \(livePhoto.frameSize.width / 2 * 2)x\(livePhoto.frameSize.height / 2 * 2)  "
                + "H.264, \(summary.frameCount) frames\(audio)  \(format(milliseconds)) ms")
        return true
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
