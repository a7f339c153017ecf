import Dispatch
import Foundation
import LivePair
import LivePairMedia

/// The first image of the motion photos (the Live Photo pairs are measured in `run()`), and the
/// single-frame decode of issue 13 (key frame at or before the frame, non-reference frames
/// skipped, slice threads) against the every-frame decode before it, in the same run.
extension LoadBenchmark {
    /// The motion photos in `SampleMedia/motion`.
    static let motionPhotos = [
        "motion/motionphoto.heic", "motion/photo-sg22-ultra.heic", "motion/samsung-one-ui-6.heic",
        "motion/PXL_20200710_061629144.MP.jpg",
    ]

    /// Prints final / degraded for every motion photo (best of `rounds`); returns the summary lines.
    static func motionPhotoFirstImages(samples: String, rounds: Int) -> [String] {
        print("motion photos: first image at 512x512 (best of \(rounds) rounds)")
        var summary: [String] = []
        for file in motionPhotos {
            let loads = (0..<rounds).map { _ in loadOnce([samples + "/" + file]) }
            if let failure = loads.compactMap(\.error).first {
                print("  \(file): the loader failed: \(failure)")
                summary.append("\(file): loader failed")
                continue
            }
            let degraded = loads.compactMap(\.degraded).min() ?? .nan
            let final = loads.compactMap(\.final).min() ?? .nan
            let source = loads.first?.degradedSource ?? "?"
            let target = source.hasPrefix("movie-") ? 3.0 : 10.0
            print("  \(file)".padding(toLength: 40, withPad: " ", startingAt: 0)
                + "degraded \(ms(degraded)) (\(source)), final \(ms(final)): "
                + String(format: "final / degraded = %.1fx (target >= %.0fx)", final / degraded, target))
            summary.append(String(format: "%@: first image (%@) %.1fx sooner than the final (target %.0fx: %@)",
                file, source, final / degraded, target, final / degraded >= target ? "met" : "NOT met"))
        }
        print("")
        return summary
    }

    /// Prints the poster decode (frame at the still time) and the key-frame decode (the first
    /// image of a still without an embedded one) of every real pair's movie, with both seeking
    /// strategies, best of `rounds`; returns the summary lines.
    static func posterDecodeSpeed(directory: String, rounds: Int, startupSeconds: Double) -> [String] {
        print("single-frame decode at 512 px (VideoFrameDecoder, best of \(rounds)): key frame at or before the frame, "
            + "non-reference frames skipped, slice threads, against every frame from FFmpeg's seek point with frame threads")
        var summary: [String] = []
        for pair in pairs {
            let movie = directory + "/" + pair.movie
            guard let metadata = try? MediaMovieDecoder().readMetadata(path: movie, cancellation: CancellationFlag()) else {
                print("  \(pair.movie): cannot read the metadata")
                continue
            }
            var times = [("poster", metadata.posterTime)]
            if let key = metadata.keyFrameTime(nearest: metadata.posterTime), key != metadata.posterTime {
                times.append(("nearest key frame", key))
            }
            for (label, time) in times {
                let fast = best(rounds) { try VideoFrameDecoder(maximumDimension: 512).decodeFrame(path: movie, at: time) }
                let every = best(rounds) {
                    try VideoFrameDecoder(maximumDimension: 512, seeking: .everyFrame).decodeFrame(path: movie, at: time)
                }
                let same = fast.frame?.presentationTime == every.frame?.presentationTime
                    && fast.frame?.image == every.frame?.image
                // ffmpeg asked for the same frame (input seeking, then decoding up to it), as a process.
                let ffmpeg = bestTool("/usr/bin/ffmpeg", [
                    "-v", "error", "-ss", String(format: "%.4f", time), "-i", movie, "-frames:v", "1",
                    "-vf", "scale=512:-2", "-f", "null", "-",
                ], rounds)
                print("  \(pair.movie) \(label) at \(String(format: "%.3f", time)) s:".padding(toLength: 62, withPad: " ", startingAt: 0)
                    + "\(ms(fast.seconds)) against \(ms(every.seconds)) = "
                    + String(format: "%.1fx sooner; same frame and pixels: %@", every.seconds / fast.seconds, same ? "yes" : "NO"))
                print("".padding(toLength: 62, withPad: " ", startingAt: 0) + "ffmpeg -ss \(describe(ffmpeg))"
                    + (ffmpeg.seconds.map { String(format: ", net of start-up %.1f ms", ($0 - startupSeconds) * 1000) } ?? ""))
                summary.append(String(format: "%@ %@: single-frame decode %.1fx sooner than every frame (%@)",
                    pair.movie, label, every.seconds / fast.seconds, same ? "same frame" : "DIFFERENT FRAME"))
            }
        }
        print("")
        return summary
    }

    /// The best time of `rounds` runs of `decode`, and its frame.
    static func best(_ rounds: Int, _ decode: () throws -> DecodedVideoFrame) -> (seconds: Double, frame: DecodedVideoFrame?) {
        var bestSeconds = Double.nan
        var frame: DecodedVideoFrame?
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            guard let decoded = try? decode() else { continue }
            let elapsed = seconds(since: start)
            if bestSeconds.isNaN || elapsed < bestSeconds { bestSeconds = elapsed }
            frame = decoded
        }
        return (bestSeconds, frame)
    }
}
