import Dispatch
import Foundation
import LivePair
import LivePairMedia
import Synchronization

/// Cancellation latency: requests on the 24 MP HEIC pair and a 12 MP JPEG pair cancelled after
/// many delays, repeated `rounds` times, summarised per stage running at the cancel (median and
/// maximum); cancelled frame iterations; the poster decode alone cancelled at even fractions of
/// its duration, with the single-frame decode of issue 13 and the every-frame decode before it.
extension LoadBenchmark {
    /// Median and maximum of `values` (seconds), in milliseconds.
    static func spread(_ values: [Double]) -> String {
        let sorted = values.filter { !$0.isNaN }.sorted()
        guard let last = sorted.last else { return "no run" }
        return String(format: "p50 %6.2f ms, max %6.2f ms (%3d runs)", sorted[sorted.count / 2] * 1000, last * 1000, sorted.count)
    }

    /// Prints the cancellation figures; returns the summary lines.
    static func cancellationReport(directory: String, rounds: Int) -> [String] {
        var summary: [String] = []
        var worstObserved = 0.0
        for pair in [Self.pairs[2], Self.pairs[0]] {
            let still = directory + "/" + pair.still, movie = directory + "/" + pair.movie
            let rows = (0..<rounds).flatMap { _ in cancellationLatencies(still: still, movie: movie) }
                .filter { !$0.handler.isNaN }
            print("cancellation on \(pair.still): \(rounds) rounds of \(cancellationDelays.count) delays (0 to 400 ms), "
                + "by the stage running at the cancel: time to the cancelled call; until the request's work returned")
            var stages: [String] = []
            for row in rows where !stages.contains(row.stage) { stages.append(row.stage) }
            for stage in stages {
                let matching = rows.filter { $0.stage == stage }
                print("    " + stage.padding(toLength: 38, withPad: " ", startingAt: 0)
                    + " call \(spread(matching.map(\.handler)))   work \(spread(matching.map(\.workStopped)))")
                if stage == "poster frame" {
                    print("".padding(toLength: 38, withPad: " ", startingAt: 0)
                        + "     decode ended (frame in progress finished) \(spread(matching.map(\.released)))")
                }
                let worst = matching.map(\.workStopped).max() ?? 0
                summary.append(String(format: "cancellation, %@, %@: work stopped max %.2f ms (target < 20 ms: %@)",
                    pair.still, stage, worst * 1000, worst < 0.02 ? "met" : "NOT met"))
            }
            let frames = (0..<rounds).flatMap { _ in frameCancellationLatencies(still: still, movie: movie) }
            print("    frame iteration (cancelled after 15, 40, 80, 150 ms): loop ended \(spread(frames.map(\.iterationEnded)))")
            print("    frame reader's thread done (frame in progress returned, reader dropped) \(spread(frames.map(\.workStopped)))")
            print("    decoder released (frames in flight finished, decoder freed)       \(spread(frames.map(\.released)))")
            for delay in Set(frames.map(\.delayMilliseconds)).sorted() {
                let matching = frames.filter { $0.delayMilliseconds == delay }
                print("      after \(delay) ms (frames \(matching.map { String($0.frames) }.joined(separator: ","))): "
                    + "thread done \(spread(matching.map(\.workStopped))), released \(spread(matching.map(\.released)))")
            }
            print("")
            // The decoding work ends when the reader's decoder is released (frames in flight or read
            // ahead finished), which may be after the reader's thread let go.
            let released = frames.map(\.released).sorted()
            let readerWorst = released.last ?? 0
            summary.append(String(format: "cancellation, %@, frame reader: decoding ended p50 %.2f ms, max %.2f ms "
                + "(target < 20 ms: %@)", pair.still, (released.isEmpty ? .nan : released[released.count / 2]) * 1000,
                readerWorst * 1000, readerWorst < 0.02 ? "met" : "NOT met"))
            worstObserved = max(worstObserved, (rows.map(\.handler) + frames.map(\.iterationEnded)).max() ?? 0)
        }
        summary.append(String(format: "cancellation: observed (cancelled call, loop end) max %.3f ms (%@)",
            worstObserved * 1000, worstObserved < 0.02 ? "met" : "NOT met"))
        print("poster decode alone (VideoFrameDecoder at the poster time, 512 px), cancelled at (k + 0.5) / 20 of its "
            + "duration, \(rounds) rounds: until the call returned; until the decode ended (frame in progress finished, "
            + "decoder freed); the process's CPU time from the cancel to that end")
        for movie in ["IMG_3582.mov", "train.mov"] {
            for seeking in [VideoFrameDecoder.FrameSeeking.referencesOnly, .everyFrame] {
                let runs = posterCancellation(movie: directory + "/" + movie, seeking: seeking, rounds: rounds)
                print("    \(movie) \(seeking)".padding(toLength: 34, withPad: " ", startingAt: 0)
                    + "returned \(spread(runs.map(\.returned)))")
                print("".padding(toLength: 34, withPad: " ", startingAt: 0) + "ended    \(spread(runs.map(\.ended)))")
                print("".padding(toLength: 34, withPad: " ", startingAt: 0) + "CPU      \(spread(runs.map(\.cpu)))")
                if seeking == .referencesOnly {
                    let worst = runs.map(\.returned).max() ?? 0
                    summary.append(String(format: "cancellation, poster decode alone, %@: returned max %.2f ms (target < 20 ms: %@), "
                        + "decode ended p50 %.2f ms", movie, worst * 1000, worst < 0.02 ? "met" : "NOT met",
                        (runs.map(\.ended).sorted().dropFirst(runs.count / 2).first ?? .nan) * 1000))
                }
            }
        }
        print("")
        return summary
    }

    /// One cancelled poster decode, in seconds from the cancel.
    struct PosterCancellation {
        /// Until `decodeFrame` returned.
        var returned: Double
        /// Until the decode itself ended (`DecoderRelease.waitUntilReleased`).
        var ended: Double
        /// The process's CPU time from the cancel to the decode's end.
        var cpu: Double
    }

    /// The process's CPU time (all threads), in seconds.
    static func processCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The poster decode of `movie` alone, cancelled at 20 even fractions of its duration in each
    /// round (runs that finished before the cancel left out).
    static func posterCancellation(movie: String, seeking: VideoFrameDecoder.FrameSeeking, rounds: Int)
        -> [PosterCancellation]
    {
        guard let metadata = try? MediaMovieDecoder().readMetadata(path: movie, cancellation: CancellationFlag()) else {
            return []
        }
        let decoder = VideoFrameDecoder(maximumDimension: 512, seeking: seeking)
        let durations = (0..<3).compactMap { _ in
            try? ResourceUsage.time { _ = try decoder.decodeFrame(path: movie, at: metadata.posterTime) }
        }
        guard let duration = durations.min() else { return [] }
        var runs: [PosterCancellation] = []
        for _ in 0..<rounds {
            for step in 0..<20 {
                let flag = CancellationFlag()
                let endedAt = Mutex<UInt64>(0)
                let finished = DispatchSemaphore(value: 0)
                DispatchQueue.global(qos: .userInitiated).async {
                    _ = try? decoder.decodeFrame(path: movie, at: metadata.posterTime, cancellation: flag)
                    endedAt.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
                    finished.signal()
                }
                usleep(useconds_t(duration * (Double(step) + 0.5) / 20 * 1e6))
                let cancelAt = DispatchTime.now().uptimeNanoseconds
                let cpuAtCancel = processCPUTime()
                flag.cancel()
                finished.wait()
                DecoderRelease.waitUntilReleased()
                let allEnded = DispatchTime.now().uptimeNanoseconds
                let cpu = processCPUTime() - cpuAtCancel
                let ended = endedAt.withLock { $0 }
                guard ended > cancelAt else { continue }
                runs.append(PosterCancellation(
                    returned: Double(ended - cancelAt) / 1e9, ended: Double(allEnded - cancelAt) / 1e9, cpu: cpu))
            }
        }
        return runs
    }

    struct CancellationRow {
        var delayMilliseconds: Int
        /// From `cancelRequest` to the cancelled handler call.
        var handler: Double
        /// From `cancelRequest` to the return of the request's work (all stages, rendering included).
        var workStopped: Double
        /// From `cancelRequest` to the end of the decodes handed to `DecoderRelease` (the frame in
        /// progress finished in the background).
        var released: Double
        var stage: String
    }

    /// The delays after which requests are cancelled: every stage of a 512 px load is hit.
    static let cancellationDelays = [0, 2, 5, 10, 15, 20, 30, 40, 50, 60, 75, 90, 110, 130, 160, 200, 250, 300, 400]

    /// Starts a request, cancels it after each delay and measures the time to the cancelled call
    /// and the time until the request's work returned: the work runs on a serial queue of its
    /// own, so `sync` on that queue returns when the work item (every stage, the scaling of the
    /// still included) has ended. The decoders are wrapped to name the stage running at the cancel.
    static func cancellationLatencies(still: String, movie: String) -> [CancellationRow] {
        var rows: [CancellationRow] = []
        for delay in cancellationDelays {
            let probe = WorkProbe()
            let queue = DispatchQueue(label: "livepair-bench.load.cancellation")
            let manager = LivePhotoManager(
                stillDecoder: ProbedStillDecoder(probe: probe), movieDecoder: ProbedMovieDecoder(probe: probe),
                workQueue: queue)
            let handlerAt = Mutex<UInt64?>(nil)
            let done = DispatchSemaphore(value: 0)
            let id = manager.requestLivePhoto(resourceFileURLs: [still, movie], targetSize: target) { event, info in
                if info.isCancelled { handlerAt.withLock { $0 = DispatchTime.now().uptimeNanoseconds } }
                if info.isTerminal { done.signal() }
            }
            usleep(useconds_t(delay * 1000))
            let stage = probe.currentStage
            let cancelTime = DispatchTime.now().uptimeNanoseconds
            manager.cancelRequest(id)
            queue.sync {}
            let stopped = DispatchTime.now().uptimeNanoseconds
            DecoderRelease.waitUntilReleased()
            let released = DispatchTime.now().uptimeNanoseconds
            done.wait()
            let handler = handlerAt.withLock { $0 }.map { $0 > cancelTime ? Double($0 - cancelTime) / 1e9 : 0 } ?? .nan
            rows.append(CancellationRow(
                delayMilliseconds: delay, handler: handler, workStopped: Double(stopped - cancelTime) / 1e9,
                released: Double(released - cancelTime) / 1e9,
                stage: handlerAt.withLock { $0 } == nil ? "finished before the cancel" : stage))
        }
        return rows
    }

    /// One cancelled frame iteration.
    struct FrameCancellationRow {
        var delayMilliseconds: Int
        /// From the task's cancellation to the end of its `for try await` loop.
        var iterationEnded: Double
        /// From the task's cancellation to the reader's close (the frame in flight finished, the
        /// decoder and its threads freed).
        var workStopped: Double
        /// From the task's cancellation to the end of the decoder's release (`DecoderRelease`).
        var released: Double
        var frames: Int
    }

    /// Loads the pair, iterates its frames in a task and cancels the task after each delay:
    /// the time until the iteration ended, and until the reader was closed.
    static func frameCancellationLatencies(still: String, movie: String) -> [FrameCancellationRow] {
        let box = Mutex<LivePhoto?>(nil)
        let closes = ReaderCloseProbe()
        LivePhotoManager(movieDecoder: ProbedMovieDecoder(probe: WorkProbe(), closes: closes)).requestLivePhoto(
            resourceFileURLs: [still, movie], targetSize: target,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat, isSynchronous: true)
        ) { event, _ in
            if case let .final(livePhoto)? = event { box.withLock { $0 = livePhoto } }
        }
        guard let livePhoto = box.withLock({ $0 }) else { return [] }
        var rows: [FrameCancellationRow] = []
        for delay in [15, 40, 80, 150] {
            closes.reset()
            let count = Mutex(0)
            let ended = DispatchSemaphore(value: 0)
            let task = Task.detached {
                defer { ended.signal() }
                do throws(LoaderError) {
                    for try await _ in livePhoto.frames { count.withLock { $0 += 1 } }
                } catch {}
            }
            usleep(useconds_t(delay * 1000))
            let cancelTime = DispatchTime.now().uptimeNanoseconds
            task.cancel()
            ended.wait()
            let endTime = DispatchTime.now().uptimeNanoseconds
            // No activity since the reset: the reader had been opened and closed before (all frames read).
            let idleTime = closes.waitUntilIdle() ?? cancelTime
            DecoderRelease.waitUntilReleased()
            let releasedTime = DispatchTime.now().uptimeNanoseconds
            rows.append(FrameCancellationRow(
                delayMilliseconds: delay, iterationEnded: Double(endTime - cancelTime) / 1e9,
                workStopped: Double(max(idleTime, cancelTime) - cancelTime) / 1e9,
                released: Double(releasedTime - cancelTime) / 1e9,
                frames: count.withLock { $0 }))
        }
        return rows
    }
}
