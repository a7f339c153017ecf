public import LivePairMedia

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
    /// not HEVC. Decodes and encodes on the calling thread, frame after frame (no task of its
    /// own: it cannot wait on Swift concurrency's threads); from async code, use the async
    /// overload.
    ///
    /// - Throws: `LoaderError.movieDecodeFailed` when a frame cannot be decoded or encoded.
    public func writeMotionMovie(to path: String) throws(LoaderError) -> MotionMovieSummary {
        let encoder = try MotionMovieEncoder(self, path: path)
        let reader = try frames.decoder.makeFrameReader(
            path: frames.path, movie: frames.movie, size: frames.size, cancellation: CancellationFlag())
        while let frame = try reader.nextFrame() { try encoder.append(frame) }
        return try encoder.finish()
    }

    /// `writeMotionMovie(to:)` for async code: the frames are decoded on a background queue as
    /// they are asked for (`frames`), each encoded as it comes; cancelling the task stops it
    /// (`LoaderError.cancelled`; the partial file is the caller's to remove).
    public func writeMotionMovie(to path: String) async throws(LoaderError) -> MotionMovieSummary {
        let encoder = try MotionMovieEncoder(self, path: path)
        for try await frame in frames { try encoder.append(frame) }
        return try encoder.finish()
    }
}

/// The H.264 writer of a web movie (a Live Photo's motion, a plain video's playable copy), fed
/// one frame at a time.
struct MotionMovieEncoder {
    let writer: H264MovieWriter
    let path: String

    /// A writer at `path` for `livePhoto`'s frame size, with its movie's audio when it has some (a
    /// motion photo's: the embedded movie's bytes).
    init(_ livePhoto: LivePhoto, path: String) throws(LoaderError) {
        try self.init(moviePath: livePhoto.videoPath, movie: livePhoto.movie, frameSize: livePhoto.frameSize, path: path)
    }

    /// A writer at `path` for frames of `frameSize` decoded from the movie at `moviePath` (an
    /// `EmbeddedMovie` reference for a motion photo's), with its audio when `movie` has some.
    init(moviePath: String, movie: MovieMetadata, frameSize: PixelSize, path: String) throws(LoaderError) {
        let embedded = EmbeddedMovie(reference: moviePath)
        let audioSource = movie.hasAudio ? embedded?.containerPath ?? moviePath : nil
        do throws(MediaError) {
            writer = try H264MovieWriter(
                path: path, width: frameSize.width, height: frameSize.height, audioFrom: audioSource,
                audioRange: embedded.map { $0.offset..<$0.offset + $0.length })
        } catch {
            throw LoaderError.movieDecodeFailed(path: path, error)
        }
        self.path = path
    }

    func append(_ frame: MovieFrame) throws(LoaderError) {
        do throws(MediaError) {
            try writer.append(frame.image, presentationTime: frame.presentationTime)
        } catch {
            throw LoaderError.movieDecodeFailed(path: path, error)
        }
    }

    func finish() throws(LoaderError) -> MotionMovieSummary {
        do throws(MediaError) {
            try writer.finish()
        } catch {
            throw LoaderError.movieDecodeFailed(path: path, error)
        }
        return MotionMovieSummary(frameCount: writer.frameCount, width: writer.width, height: writer.height, audio: writer.audioHandling)
    }
}
