internal import CFFmpeg
import Dispatch
import Synchronization

/// Lets cancelled decoding work end at once while the frame FFmpeg is decoding finishes in the
/// background: FFmpeg 5.1 cannot abort a frame in progress (a 1920x1440 HEVC key frame is 40 to
/// 50 ms of one core), and freeing a frame-threaded decoder waits for every frame its threads are
/// decoding (with three frame threads on two cores, up to about 30 ms).
///
/// Two hand-overs: `run(cancellation:_:)` runs a single-frame decode on a background thread and
/// stops waiting for it at the cancel (the decode checks the same flag and stops at its next
/// check, after at most the frame in progress); `release(_:)` frees a dropped frame reader's
/// decoder on a queue of its own.
public enum DecoderRelease {
    private static let queue = DispatchQueue(label: "livepair.decoder-release", qos: .utility)
    private static let detached = DispatchGroup()

    /// Runs `work` on a background thread and returns its outcome; once `cancellation` is set
    /// (looked at every millisecond), throws `.cancelled` at once and leaves `work` to finish on
    /// its own (it must check the same flag).
    static func run<T: Sendable>(
        cancellation: CancellationFlag, _ work: @escaping @Sendable () throws(MediaError) -> T
    ) throws(MediaError) -> T {
        if cancellation.isCancelled { throw .cancelled }
        let outcome = Mutex<Result<T, MediaError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        detached.enter()
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { () throws(MediaError) -> T in try work() }
            outcome.withLock { $0 = result }
            done.signal()
            detached.leave()
        }
        while done.wait(timeout: .now() + .milliseconds(1)) == .timedOut {
            if cancellation.isCancelled { throw .cancelled }
        }
        guard let result = outcome.withLock({ $0 }) else { throw .cancelled }
        return try result.get()
    }

    /// Runs `free` on the release queue: it waits for the frames a dropped reader's decoder
    /// holds in flight (or its frame being read ahead), then frees the reader's FFmpeg contexts.
    static func release(_ free: @escaping @Sendable () -> Void) {
        queue.async(execute: free)
    }

    /// Waits until every decode and decoder handed over so far has ended (its frames in flight
    /// finished, its decoder freed). Benchmarks and tests time the end of the decoding work with it.
    public static func waitUntilReleased() {
        detached.wait()
        queue.sync {}
    }

    /// Waits until every frame reader handed over so far has been freed (its frames in flight or
    /// read ahead finished), without waiting for single-frame decodes.
    public static func waitUntilReadersReleased() {
        queue.sync {}
    }
}
