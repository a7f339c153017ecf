import Dispatch
import LivePairMedia

/// The reader behind one frame-sequence iterator (RGBA or YUV): opens the movie on the first
/// `next()` and decodes one frame per call on a background queue, so Swift's cooperative threads
/// are never blocked; cancelling the awaiting task stops the decoder through its flag.
///
/// `@unchecked Sendable` is sound: the mutable state (`nextFrame`, `done`) is touched only inside
/// `step()`, and `next()` awaits each step before it can be called again (an iterator's `next` is
/// `mutating`, so one iterator is never advanced concurrently). The cancellation flag is itself
/// thread-safe.
final class OnDemandFrameState<Frame: Sendable>: @unchecked Sendable {
    /// Reads the next frame, nil after the last.
    typealias NextFrame = () throws(LoaderError) -> Frame?

    private let open: (CancellationFlag) throws(LoaderError) -> NextFrame
    private let cancellation = CancellationFlag()
    private var nextFrame: NextFrame?
    private var done = false

    /// A state that calls `open` once, on the first frame, to get the function reading frames.
    init(open: @escaping (CancellationFlag) throws(LoaderError) -> NextFrame) { self.open = open }

    /// Decodes the next frame on a background queue; task cancellation sets the flag.
    func next() async throws(LoaderError) -> Frame? {
        let flag = cancellation
        let result: Result<Frame?, LoaderError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global(qos: .userInitiated).async {
                    continuation.resume(returning: Result { () throws(LoaderError) in try self.step() })
                }
            }
        } onCancel: {
            flag.cancel()
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
            return frame
        } catch {
            done = true
            nextFrame = nil
            throw error
        }
    }
}
