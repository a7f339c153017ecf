internal import CFFmpeg
import Dispatch

/// Decodes a `SequentialFrameReader`'s next frame on a queue of its own while the caller
/// converts the current one.
///
/// A slice-threaded decoder (used when a picture splits across the cores: HEVC wavefronts)
/// decodes inside the caller's `avcodec_send_packet` and leaves nothing in flight, so a cancel
/// waits for one picture at most (split over the cores); but on its own it would leave the
/// cores idle while the caller converts and scales the frame. Decoding one frame ahead gives
/// back that overlap, which frame threads otherwise provide at the cost of several frames in
/// flight.
///
/// `@unchecked Sendable` is sound: `start` hands the decode state and the frame to the queue,
/// and the owner touches neither again before `finish` or `waitUntilIdle` has waited on the
/// semaphore the queue signals; `isPending` is read and written by the owner alone.
final class FrameReadAhead: @unchecked Sendable {
    private let queue = DispatchQueue(label: "livepair.frames.read-ahead", qos: .userInitiated)
    private let ready = DispatchSemaphore(value: 0)
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var outcome: Result<Bool, MediaError>?
    /// True from `start` until the decode was waited for.
    private(set) var isPending = false

    init() throws(MediaError) {
        frame = av_frame_alloc()
        guard frame != nil else { throw .decodeFailed(code: livepair_averror(ENOMEM), message: "av_frame_alloc") }
    }

    deinit { av_frame_free(&frame) }

    /// Starts decoding the next frame of `state` on the queue.
    func start(_ state: SequentialDecodeState) {
        guard !isPending, frame != nil else { return }
        isPending = true
        queue.async {
            self.outcome = Result { () throws(MediaError) -> Bool in
                guard let frame = self.frame else { return false }
                return try state.decodeNext(into: frame)
            }
            self.ready.signal()
        }
    }

    /// Waits for the decode `start` began; with a frame, moves it into `destination` and returns
    /// true; false after the last frame.
    ///
    /// - Throws: what the decode threw.
    func finish(into destination: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> Bool {
        guard isPending, let frame else { return false }
        ready.wait()
        isPending = false
        let result = outcome ?? .success(false)
        outcome = nil
        guard try result.get() else { return false }
        av_frame_move_ref(destination, frame)
        return true
    }

    /// Waits for a decode in progress and drops its frame.
    func waitUntilIdle() {
        guard isPending else { return }
        ready.wait()
        isPending = false
        outcome = nil
        av_frame_unref(frame)
    }
}
