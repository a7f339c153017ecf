import Dispatch
import LivePairMedia

/// The reader behind one frame-sequence iterator (RGBA or YUV): opens the movie on the first
/// `next()` and decodes one frame per call on a serial background queue of its own, so Swift's
/// cooperative threads are never blocked.
///
/// Cancelling the awaiting task sets the decoder's flag and ends `next()` at once with
/// `.cancelled`: the caller does not wait for the frame already inside libavcodec (a 1440p HEVC
/// frame takes 10 to 30 ms and cannot be interrupted). That frame finishes on the queue, is
/// dropped, and the reader is closed there, freeing the decoder; a later `next()` runs behind it
/// on the same queue and finds the sequence ended.
///
/// `@unchecked Sendable` is sound: the mutable state (`nextFrame`, `done`) is touched only inside
/// `step()`, and every `step()` runs on the one serial `queue`. The flag is itself thread-safe.
final class OnDemandFrameState<Frame: Sendable>: @unchecked Sendable {
    /// Reads the next frame, nil after the last.
    typealias NextFrame = () throws(LoaderError) -> Frame?

    private let open: (CancellationFlag) throws(LoaderError) -> NextFrame
    private let cancellation = CancellationFlag()
    private let queue = DispatchQueue(label: "livepair.frames", qos: .userInitiated)
    private var nextFrame: NextFrame?
    private var done = false

    /// A state that calls `open` once, on the first frame, to get the function reading frames.
    init(open: @escaping (CancellationFlag) throws(LoaderError) -> NextFrame) { self.open = open }

    /// Decodes the next frame on the state's queue; task cancellation sets the flag and ends the
    /// wait at once.
    func next() async throws(LoaderError) -> Frame? {
        let flag = cancellation
        let outcome = FirstResult<Result<Frame?, LoaderError>>()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                outcome.install(continuation)
                queue.async { outcome.offer(Result { () throws(LoaderError) in try self.step() }) }
            }
        } onCancel: {
            flag.cancel()
            outcome.offer(.failure(.cancelled))
        }
        return try result.get()
    }

    private func step() throws(LoaderError) -> Frame? {
        guard !done else { return nil }
        do throws(LoaderError) {
            if cancellation.isCancelled { throw .cancelled }
            if nextFrame == nil { nextFrame = try open(cancellation) }
            guard let frame = try nextFrame?() else {
                done = true
                nextFrame = nil
                return nil
            }
            // Cancelled while this frame was decoding: nobody waits for it; close the reader now.
            if cancellation.isCancelled { throw .cancelled }
            return frame
        } catch {
            done = true
            nextFrame = nil
            throw error
        }
    }
}
