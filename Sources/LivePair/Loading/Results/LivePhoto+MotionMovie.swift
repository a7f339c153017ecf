import Dispatch
public import LivePairMedia
import Synchronization

/// What `LivePhoto.writeMotionMovie(to:)` wrote.
public struct MotionMovieSummary: Sendable {
    /// Frames encoded.
    public let frameCount: Int
    /// The encoded size (even numbers).
    public let width: Int
    /// The encoded height.
    public let height: Int
    /// How the audio went in (nil: the movie has none).
    public let audio: TranscodeResult.AudioHandling?
}

extension LivePhoto {
    /// Encodes every frame of the Live Photo's movie at its frame size as H.264 into an MP4 at
    /// `path` (written in place: callers write to a temporary path and rename), with the movie's
    /// audio (AAC copied, anything else encoded to AAC). The web's motion: browsers play H.264,
    /// not HEVC. Blocks the calling thread until done; call it from a thread, not an async task.
    ///
    /// - Throws: `LoaderError.movieDecodeFailed` when a frame cannot be decoded or encoded.
    public func writeMotionMovie(to path: String) throws(LoaderError) -> MotionMovieSummary {
        let outcome = Mutex<Result<MotionMovieSummary, LoaderError>>(.failure(.cancelled))
        // The movie's audio, when it has some (a motion photo's: the embedded movie's bytes).
        let embedded = EmbeddedMovie(reference: videoPath)
        let audioSource = movie.hasAudio ? embedded?.containerPath ?? videoPath : nil
        let audioRange = embedded.map { $0.offset..<$0.offset + $0.length }
        let done = DispatchSemaphore(value: 0)
        Task.detached { [self] in
            defer { done.signal() }
            do throws(LoaderError) {
                let writer: H264MovieWriter
                do throws(MediaError) {
                    writer = try H264MovieWriter(
                        path: path, width: frameSize.width, height: frameSize.height, audioFrom: audioSource,
                        audioRange: audioRange)
                } catch {
                    throw LoaderError.movieDecodeFailed(path: path, error)
                }
                for try await frame in frames {
                    do throws(MediaError) {
                        try writer.append(frame.image, presentationTime: frame.presentationTime)
                    } catch {
                        throw LoaderError.movieDecodeFailed(path: path, error)
                    }
                }
                do throws(MediaError) {
                    try writer.finish()
                } catch {
                    throw LoaderError.movieDecodeFailed(path: path, error)
                }
                let summary = MotionMovieSummary(
                    frameCount: writer.frameCount, width: writer.width, height: writer.height, audio: writer.audioHandling)
                outcome.withLock { $0 = .success(summary) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
        }
        done.wait()
        return try outcome.withLock { $0 }.get()
    }
}
