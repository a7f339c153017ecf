import Dispatch
import Foundation
import LivePair
import LivePairMedia
import Synchronization

/// All frames of each pair's movie through the loader against `ffmpeg -vf scale=512:-2 -f null`,
/// in wall time and in CPU time (the ratio that holds on a loaded machine), in the same run
/// (`LIVEPAIR_BENCH_FRAMES_ONLY=1`; also the driver to profile the frame path, for example
/// under `valgrind --tool=callgrind`, with `--rounds 1`).
extension LoadBenchmark {
    /// One iteration of every frame: wall and process CPU time, and the frame count.
    struct FrameIteration {
        var seconds: Double
        var cpu: Double
        var count: Int
    }

    /// Iterates every frame of `livePhoto` once, on a detached task, as `loadOnce` does.
    static func iterateFrames(_ livePhoto: LivePhoto) -> FrameIteration {
        let cpuStart = processCPUTime()
        let start = DispatchTime.now().uptimeNanoseconds
        let counted = Mutex(0)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            defer { done.signal() }
            do throws(LoaderError) {
                for try await _ in livePhoto.frames { counted.withLock { $0 += 1 } }
            } catch {}
        }
        done.wait()
        // The release queue frees decoders in the background: count their CPU too.
        DecoderRelease.waitUntilReleased()
        return FrameIteration(seconds: seconds(since: start), cpu: processCPUTime() - cpuStart, count: counted.withLock { $0 })
    }

    /// Prints, per pair, the best wall and CPU time of every frame through the loader and through
    /// ffmpeg (whole process, and net of its start-up); returns the summary lines. `only` keeps
    /// the movies whose name contains it.
    static func framesReport(directory: String, rounds: Int, only: String? = nil) -> [String] {
        let startup = (0..<rounds).compactMap {
            _ in try? ProcessTimer.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=s=16x16:d=0.04", "-f", "null", "-"])
        }
        let startupWall = startup.map(\.seconds).min() ?? 0, startupCPU = startup.map(\.cpu).min() ?? 0
        print(String(format: "all frames (loader) against ffmpeg scale=512:-2 -f null, best of %d; ffmpeg start-up %.1f ms "
            + "wall, %.1f ms CPU", rounds, startupWall * 1000, startupCPU * 1000))
        var summary: [String] = []
        for pair in pairs where only.map(pair.movie.contains) ?? true {
            let still = directory + "/" + pair.still, movie = directory + "/" + pair.movie
            let box = Mutex<LivePhoto?>(nil)
            LivePhotoManager().requestLivePhoto(
                resourceFileURLs: [still, movie], targetSize: target,
                options: ImageRequestOptions(deliveryMode: .highQualityFormat, isSynchronous: true)
            ) { event, _ in
                if case let .final(livePhoto)? = event { box.withLock { $0 = livePhoto } }
            }
            guard let livePhoto = box.withLock({ $0 }) else {
                print("  \(pair.movie): the loader failed")
                continue
            }
            var ours: [FrameIteration] = []
            var theirs: [(seconds: Double, cpu: Double)] = []
            for _ in 0..<rounds {
                ours.append(iterateFrames(livePhoto))
                if let run = try? ProcessTimer.run(
                    "/usr/bin/ffmpeg", ["-v", "error", "-i", movie, "-vf", "scale=512:-2", "-f", "null", "-"]) {
                    theirs.append((run.seconds, run.cpu))
                }
            }
            let wall = ours.map(\.seconds).min() ?? .nan, cpu = ours.map(\.cpu).min() ?? .nan
            let ffmpegWall = theirs.map(\.seconds).min() ?? .nan, ffmpegCPU = theirs.map(\.cpu).min() ?? .nan
            let netWall = ffmpegWall - startupWall, netCPU = ffmpegCPU - startupCPU
            print(String(format: "  %@ (%d frames): loader %.1f ms wall, %.1f ms CPU; ffmpeg %.1f ms wall (net %.1f), "
                + "%.1f ms CPU (net %.1f); wall %.2fx (net %.2fx), CPU %.2fx (net %.2fx)",
                pair.movie, ours.first?.count ?? 0, wall * 1000, cpu * 1000, ffmpegWall * 1000, netWall * 1000,
                ffmpegCPU * 1000, netCPU * 1000, wall / ffmpegWall, wall / netWall, cpu / ffmpegCPU, cpu / netCPU))
            summary.append(String(format: "%@: all frames %.2fx ffmpeg net of start-up (target 1.2x: %@), CPU %.2fx net",
                pair.movie, wall / netWall, wall / netWall <= 1.2 ? "met" : "NOT met", cpu / netCPU))
        }
        print("")
        return summary
    }
}
