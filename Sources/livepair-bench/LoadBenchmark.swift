import Dispatch
import Foundation
import LivePair
import LivePairFormats
import LivePairMedia
import Synchronization

/// Times the loader on every real pair in `SampleMedia/live` at 512x512: the degraded result,
/// the final result (still and poster) and all frames, against baselines measured in the same
/// run (the project's full-size still decode, `ffmpeg` and `heif-convert` on the still, `ffmpeg`
/// scaling every movie frame), then the latency of cancellation (a request at many delays, and a
/// frame iteration) on the 24 MP HEIC pair and a 12 MP JPEG pair.
struct LoadBenchmark {
    let options: BenchmarkOptions

    /// The real pairs, relative to `SampleMedia/live`.
    static let pairs: [(still: String, movie: String)] = [
        ("train.jpg", "train.mov"),
        ("51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"),
        ("IMG_3582.HEIC", "IMG_3582.mov"),
        ("IMG_4580.HEIC", "IMG_4580.mov"),
        ("IMG_3582_edited.heic", "IMG_3582_edited.mov"),
    ]

    static let target = PixelSize(width: 512, height: 512)

    func run() throws -> Int32 {
        let directory = options.samples + "/live"
        // LIVEPAIR_BENCH_CANCEL_ONLY=1 skips the per-pair timings (to iterate on cancellation).
        let cancellationOnly = ProcessInfo.processInfo.environment["LIVEPAIR_BENCH_CANCEL_ONLY"] != nil
        // LIVEPAIR_BENCH_DECODE_ONLY=1 prints the single-frame decode against the every-frame decode alone.
        let decodeOnly = ProcessInfo.processInfo.environment["LIVEPAIR_BENCH_DECODE_ONLY"] != nil
        // LIVEPAIR_BENCH_FRAMES_ONLY=1 prints all frames against ffmpeg (wall and CPU time) alone;
        // =NAME only for the movies whose name contains NAME.
        if let only = ProcessInfo.processInfo.environment["LIVEPAIR_BENCH_FRAMES_ONLY"] {
            let summary = Self.framesReport(directory: directory, rounds: options.rounds, only: only == "1" ? nil : only)
            print("summary")
            for line in summary { print("  " + line) }
            return 0
        }
        let rounds = options.rounds
        print("load: \(Self.pairs.count) real pairs at \(Self.target), best of \(rounds) rounds each, "
            + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
        print("(loader times from the request call; external tools timed as whole processes, startup included)\n")
        // ffmpeg's own start-up (loading its libraries, one 16x16 frame), to read its times net of it.
        let startup = Self.bestTool(
            "/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=s=16x16:d=0.04", "-f", "null", "-"], rounds)
        let startupSeconds = startup.seconds ?? 0
        print("ffmpeg start-up (lavfi 16x16, one frame): \(Self.describe(startup))\n")
        var summary: [String] = []
        for pair in Self.pairs where !cancellationOnly && !decodeOnly {
            let still = directory + "/" + pair.still, movie = directory + "/" + pair.movie
            let loads = (0..<rounds).map { _ in Self.loadOnce(still: still, movie: movie) }
            if let failure = loads.compactMap(\.error).first {
                print("\(pair.still): the loader failed: \(failure)\n")
                summary.append("\(pair.still): loader failed")
                continue
            }
            let degraded = loads.compactMap(\.degraded).min() ?? .nan
            let final = loads.compactMap(\.final).min() ?? .nan
            let frames = loads.compactMap(\.frames).min() ?? .nan
            let shape = loads.first?.shape ?? ""
            let small = (0..<rounds).compactMap { _ in Self.degradedOnly(still: still, movie: movie, target: Self.smallTarget) }.min()
            let validation = (0..<rounds).compactMap { _ in
                Self.degradedOnly(still: still, movie: movie, target: Self.target, placeholder: Self.callerPlaceholder)
            }.min()
            let fullDecode = (0..<rounds).map { _ in Self.fullStillDecode(still) }
            let fullSeconds = fullDecode.compactMap(\.seconds).min()
            let isJPEG = !pair.still.lowercased().hasSuffix(".heic")
            // The previous default policy (coverage 0.75: no 160x120 Exif thumbnail, no movie
            // frame), measured in the same run as the baseline of the first image.
            let previousPolicy = (0..<rounds).compactMap { _ in
                Self.degradedOnly(still: still, movie: movie, target: Self.target, coverage: Self.previousCoverage)
            }.min()
            // JPEGs: the 1/8 DCT decode alone (no loader).
            let eighthAlone = isJPEG ? (0..<rounds).compactMap { _ in Self.eighthDecode(still) }.min() : nil
            let ffmpegStill = Self.bestTool("/usr/bin/ffmpeg", ["-v", "error", "-i", still, "-f", "null", "-"], rounds)
            let heif = pair.still.lowercased().hasSuffix(".heic")
                ? Self.bestTool("/usr/bin/heif-convert", [still, "/tmp/livepair-bench-load.png"], rounds) : nil
            let ffmpegMovie = Self.bestTool(
                "/usr/bin/ffmpeg", ["-v", "error", "-i", movie, "-vf", "scale=512:-2", "-f", "null", "-"], rounds)

            print("\(pair.still) + \(pair.movie)")
            print("  \(shape)")
            let degradedSource = loads.first?.degradedSource ?? "?"
            let isMovieFrame = degradedSource.hasPrefix("movie-")
            let targetRatio = isMovieFrame ? 3.0 : 10.0
            let firstImageRatio = final / degraded
            print("  degraded result: \(degradedSource) (decoder's still source: \(Self.degradedSource(still)))")
            print("  loader (512x512, aspect fit)          time      ratio")
            print("    degraded result (placeholder)  \(Self.ms(degraded))  "
                + String(format: "final / degraded = %.1fx (target >= %.0fx)", firstImageRatio, targetRatio)
                + (fullSeconds.map { String(format: ", full still decode / degraded = %.1fx", $0 / degraded) } ?? ""))
            print("    final result (still + poster)  \(Self.ms(final))")
            if let previousPolicy {
                print("    (baseline: degraded with coverage \(Self.previousCoverage), the previous default: "
                    + "\(Self.ms(previousPolicy)), final / it = "
                    + String(format: "%.1fx; source %@)", final / previousPolicy, Self.degradedSource(still, coverage: Self.previousCoverage)))
            }
            print("    (degraded at 256x256           \(small.map(Self.ms) ?? "  failed")  "
                + (fullSeconds.flatMap { full in small.map { String(format: "full still decode / degraded = %.1fx)", full / $0) } } ?? ")"))
            print("    (validation only: caller's placeholder delivered \(validation.map(Self.ms) ?? "failed"))")
            if let eighthAlone {
                print("    (1/8 DCT decode alone      \(Self.ms(eighthAlone))  "
                    + (fullSeconds.map { String(format: "full still decode / it = %.1fx: the ceiling for a DCT-scaled placeholder)", $0 / eighthAlone) } ?? ")"))
            }
            print("    all frames (iterate .frames)   \(Self.ms(frames))  "
                + (ffmpegMovie.seconds.map { String(format: "frames / ffmpeg = %.2fx (target <= 1.2x)", frames / $0) } ?? ""))
            print("  baselines")
            print("    full still decode, LivePair    \(fullSeconds.map(Self.ms) ?? "    failed")  \(fullDecode.first?.detail ?? "")")
            print("    ffmpeg still -f null           \(Self.describe(ffmpegStill))")
            if let heif {
                print("    heif-convert still -> png      \(Self.describe(heif))")
            } else {
                print("    heif-convert still -> png           n/a  (not a HEIF file)")
            }
            print("    ffmpeg movie scale=512:-2      \(Self.describe(ffmpegMovie))  "
                + (ffmpegMovie.seconds.map {
                    String(format: "net of start-up %.1f ms: frames / ffmpeg = %.2fx", ($0 - startupSeconds) * 1000, frames / ($0 - startupSeconds))
                } ?? ""))
            print("")
            let stillRatio = fullSeconds.map { $0 / degraded } ?? .nan
            let frameRatio = ffmpegMovie.seconds.map { frames / $0 } ?? .nan
            let netRatio = ffmpegMovie.seconds.map { frames / ($0 - startupSeconds) } ?? .nan
            summary.append(String(
                format: "%@: first image (%@) %.1fx sooner than the final (target %.0fx: %@); "
                    + "degraded %.1fx faster than full decode, frames %.2fx ffmpeg (%@), %.2fx net of start-up (%@)",
                pair.still, degradedSource, firstImageRatio, targetRatio, firstImageRatio >= targetRatio ? "met" : "NOT met",
                stillRatio, frameRatio, frameRatio <= 1.2 ? "met" : "NOT met",
                netRatio, netRatio <= 1.2 ? "met" : "NOT met"))
        }

        if !cancellationOnly && !decodeOnly {
            summary += Self.framesReport(directory: directory, rounds: rounds)
            summary += Self.motionPhotoFirstImages(samples: options.samples, rounds: rounds)
        }
        if !cancellationOnly {
            summary += Self.posterDecodeSpeed(directory: directory, rounds: rounds, startupSeconds: startupSeconds)
        }
        if !decodeOnly {
            summary += Self.cancellationReport(directory: directory, rounds: rounds)
        }
        print("summary")
        for line in summary { print("  " + line) }
        return 0
    }

    // MARK: The loader

    /// One request's times, in seconds from the request call (frames: from the start of iteration).
    struct LoadTimes: Sendable {
        var degraded: Double?
        /// `ResultInfo.degradedSource` and the degraded image's size.
        var degradedSource: String?
        var final: Double?
        var frames: Double?
        var shape = ""
        var error: String?
    }

    /// One opportunistic request on a fresh manager (nothing shared or cached between rounds),
    /// then one iteration of every frame.
    static func loadOnce(still: String, movie: String) -> LoadTimes { loadOnce([still, movie]) }

    /// One opportunistic request for `resources` (a pair, or one motion photo), as above.
    static func loadOnce(_ resources: [String]) -> LoadTimes {
        let manager = LivePhotoManager()
        let start = DispatchTime.now().uptimeNanoseconds
        let state = Mutex<(times: LoadTimes, livePhoto: LivePhoto?)>((LoadTimes(), nil))
        let done = DispatchSemaphore(value: 0)
        manager.requestLivePhoto(resourceFileURLs: resources, targetSize: target) { event, info in
            let elapsed = seconds(since: start)
            state.withLock { state in
                switch event {
                case let .degraded(image)?:
                    state.times.degraded = elapsed
                    state.times.degradedSource = "\(info.degradedSource.map(String.init(describing:)) ?? "?") "
                        + "\(image.width)x\(image.height)"
                case let .final(livePhoto)?:
                    state.times.final = elapsed
                    state.livePhoto = livePhoto
                case nil: state.times.error = "\(info.error ?? .cancelled)"
                }
            }
            if info.isTerminal { done.signal() }
        }
        done.wait()
        var (times, livePhoto) = state.withLock { $0 }
        guard let livePhoto else { return times }
        let frameStart = DispatchTime.now().uptimeNanoseconds
        let counted = Mutex<(count: Int, error: String?)>((0, nil))
        let framesDone = DispatchSemaphore(value: 0)
        Task.detached {
            defer { framesDone.signal() }
            do throws(LoaderError) {
                for try await _ in livePhoto.frames { counted.withLock { $0.count += 1 } }
            } catch {
                counted.withLock { $0.error = "\(error)" }
            }
        }
        framesDone.wait()
        let frames = counted.withLock { $0 }
        times.frames = seconds(since: frameStart)
        if let error = frames.error { times.error = error }
        times.shape = "still \(livePhoto.still.width)x\(livePhoto.still.height), \(frames.count) frames at "
            + "\(livePhoto.frameSize) (\(livePhoto.movie.codec), \(livePhoto.movie.codedSize) coded, "
            + "rotation \(livePhoto.movie.rotationDegrees))"
        return times
    }

    /// A smaller target, which the HEIC `thmb` item and JPEG 1/8 DCT scaling cover.
    static let smallTarget = PixelSize(width: 256, height: 256)

    /// A tiny caller-given placeholder: with it the degraded call comes right after validation.
    static let callerPlaceholder = try? PixelBuffer(width: 1, height: 1, format: .rgba8, storage: [0, 0, 0, 255])

    /// Seconds from the request call to the degraded result, after which the request is cancelled.
    static func degradedOnly(
        still: String, movie: String, target: PixelSize, placeholder: PixelBuffer? = nil,
        coverage: Double = ImageRequestOptions.defaultDegradedMinimumCoverage
    ) -> Double? {
        let manager = LivePhotoManager()
        let start = DispatchTime.now().uptimeNanoseconds
        let degradedAt = Mutex<Double?>(nil)
        let first = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let id = manager.requestLivePhoto(
            resourceFileURLs: [still, movie], placeholder: placeholder, targetSize: target,
            options: ImageRequestOptions(degradedMinimumCoverage: coverage)
        ) { event, info in
            if event?.isDegraded == true {
                degradedAt.withLock { $0 = seconds(since: start) }
                first.signal()
            }
            if info.isTerminal {
                first.signal()
                done.signal()
            }
        }
        first.wait()
        manager.cancelRequest(id)
        done.wait()
        usleep(150_000)  // let the cancelled work drain before the next measurement
        return degradedAt.withLock { $0 }
    }

    /// Which source the still decoder picks for the degraded result at the target size, and its size.
    static func degradedSource(_ still: String, coverage: Double = ImageRequestOptions.defaultDegradedMinimumCoverage)
        -> String
    {
        do {
            let preview = try MediaStillDecoder().decodePreview(
                path: still, geometry: ImageGeometry(targetSize: target, degradedMinimumCoverage: coverage),
                cancellation: CancellationFlag())
            return "\(preview.source), \(preview.image.width)x\(preview.image.height) upright"
                + (preview.fullSize.map { " (full \($0))" } ?? "")
        } catch {
            return "failed: \(error)"
        }
    }

    /// The default coverage before the first-image policy (issue 13): 0.75, which refused a
    /// JPEG's 160x120 Exif thumbnail at 512 px (it covers 0.31).
    static let previousCoverage = 0.75

    /// libjpeg-turbo's 1/8 DCT-scaled decode of the still alone (as the full decode: strips in
    /// parallel when the file has them), file read included.
    static func eighthDecode(_ path: String) -> Double? {
        let start = DispatchTime.now().uptimeNanoseconds
        guard let data = FileManager.default.contents(atPath: path),
            (try? JPEGImageDecoder().decode([UInt8](data), scale: .eighth, cancellation: CancellationFlag())) != nil
        else { return nil }
        return seconds(since: start)
    }

    // MARK: Baselines

    /// The project's own full-size decode of the still, as the loader runs it: `HEICImageDecoder`
    /// on the primary item's recipe (all grid tiles in parallel), or `JPEGImageDecoder` at full
    /// scale (restart strips in parallel when the file has them).
    static func fullStillDecode(_ path: String) -> (seconds: Double?, detail: String) {
        var detail = ""
        var jpegBytes: [UInt8]?
        do {
            let elapsed = try ResourceUsage.time {
                let source = try FileByteSource(path: path)
                let lower = path.lowercased()
                if lower.hasSuffix(".heic") {
                    let file = try HEIFFile(source: source)
                    guard let primary = file.primaryItem else { throw LoadBenchmarkError.noPrimaryItem }
                    let recipe = try file.imageRecipe(for: primary.id, from: source)
                    let image = try HEICImageDecoder().decode(recipe, cancellation: CancellationFlag())
                    detail = "HEICImageDecoder, \(image.width)x\(image.height), \(recipe.columns)x\(recipe.rows) tiles"
                } else {
                    let bytes = try source.read(at: 0, count: Int(source.size))
                    let image = try JPEGImageDecoder().decode(bytes, scale: .full, cancellation: CancellationFlag())
                    detail = "JPEGImageDecoder, \(image.width)x\(image.height)"
                    jpegBytes = bytes
                }
            }
            // Outside the timed part: counting the strips splits the file once more.
            if let jpegBytes, case let strips = JPEGImageDecoder.restartStripCount(jpegBytes), strips > 1 {
                detail += ", \(strips) strips"
            }
            return (elapsed, detail)
        } catch {
            return (nil, "\(error)")
        }
    }

    /// An external tool's best time over `rounds` runs, or why it failed.
    struct ToolRun {
        var seconds: Double?
        var failure: String?
    }

    static func bestTool(_ executable: String, _ arguments: [String], _ rounds: Int) -> ToolRun {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            return ToolRun(seconds: nil, failure: "not installed")
        }
        var best: Double?
        for _ in 0..<rounds {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            let start = DispatchTime.now().uptimeNanoseconds
            do { try process.run() } catch { return ToolRun(seconds: nil, failure: "\(error)") }
            let message = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let elapsed = seconds(since: start)
            guard process.terminationStatus == 0 else {
                let text = String(decoding: message, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
                return ToolRun(seconds: nil, failure: "cannot open (exit \(process.terminationStatus): \(text.prefix(90)))")
            }
            best = min(best ?? elapsed, elapsed)
        }
        return ToolRun(seconds: best, failure: nil)
    }

    // MARK: Formatting

    static func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    static func ms(_ seconds: Double) -> String { String(format: "%8.1f ms", seconds * 1000) }

    static func describe(_ run: ToolRun) -> String {
        if let seconds = run.seconds { return ms(seconds) }
        return "       --  " + (run.failure ?? "failed")
    }
}

enum LoadBenchmarkError: Error {
    case noPrimaryItem
}

