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
/// check, after at most the frame in progress); `release(...)` frees a dropped frame reader's
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

    /// Frees `decoder` and `format` (and the packet and frame) on the release queue. `keepAlive`
    /// (the cancellation flag the format context's interrupt callback reads) lives until then.
    static func release(
        decoder: UnsafeMutablePointer<AVCodecContext>?, format: UnsafeMutablePointer<AVFormatContext>?,
        packet: UnsafeMutablePointer<AVPacket>?, frame: UnsafeMutablePointer<AVFrame>?, keepAlive: CancellationFlag
    ) {
        let contexts = ReleasedContexts(decoder: decoder, format: format, packet: packet, frame: frame)
        queue.async {
            withExtendedLifetime(keepAlive) { contexts.free() }
        }
    }

    /// Waits until every decode and decoder handed over so far has ended (its frames in flight
    /// finished, its decoder freed). Benchmarks and tests time the end of the decoding work with it.
    public static func waitUntilReleased() {
        detached.wait()
        queue.sync {}
    }
}

/// FFmpeg contexts on their way to being freed.
///
/// `@unchecked Sendable` is sound: the contexts are owned by this value alone once handed over
/// (their reader has given them up) and `free()` runs once, on the release queue.
private struct ReleasedContexts: @unchecked Sendable {
    var decoder: UnsafeMutablePointer<AVCodecContext>?
    var format: UnsafeMutablePointer<AVFormatContext>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var frame: UnsafeMutablePointer<AVFrame>?

    func free() {
        var decoder = decoder, format = format, packet = packet, frame = frame
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&decoder)
        avformat_close_input(&format)
    }
}
