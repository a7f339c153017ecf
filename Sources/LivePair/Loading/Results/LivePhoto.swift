import Dispatch
public import LivePairMedia

/// The full motion result of a Live Photo request (PhotoKit's `PHLivePhoto`, with its pixels).
///
/// The still and the poster are decoded; the movie's frames are decoded on demand when `frames`
/// is iterated, at `frameSize`, upright.
public struct LivePhoto: Sendable {
    /// The still's path.
    public let photoPath: String
    /// The movie's path.
    public let videoPath: String
    /// The still, upright, at the target size with the content mode.
    public let still: PixelBuffer
    /// What the movie is: duration, frame rate, still-image time, audio, identifier.
    public let movie: MovieMetadata
    /// The index in `movie.frameTimes` of the poster frame (the frame at the still-image time).
    public let posterFrameIndex: Int
    /// The poster frame, upright, at `frameSize`.
    public let poster: MovieFrame
    /// The size of every movie frame delivered (upright).
    public let frameSize: PixelSize
    /// The movie's frames, decoded on demand.
    public let frames: LivePhotoFrames

    /// A Live Photo value.
    public init(
        photoPath: String, videoPath: String, still: PixelBuffer, movie: MovieMetadata, posterFrameIndex: Int,
        poster: MovieFrame, frameSize: PixelSize, frames: LivePhotoFrames
    ) {
        self.photoPath = photoPath
        self.videoPath = videoPath
        self.still = still
        self.movie = movie
        self.posterFrameIndex = posterFrameIndex
        self.poster = poster
        self.frameSize = frameSize
        self.frames = frames
    }

    /// The content identifier the pair shares (the movie's).
    public var contentIdentifier: ContentIdentifier? { movie.contentIdentifier }
}

/// The frames of a Live Photo's movie as an async sequence: each iteration opens the movie and
/// decodes frame after frame as they are asked for. Cancelling the iterating task stops the
/// decode (the next call throws `LoaderError.cancelled`).
public struct LivePhotoFrames: AsyncSequence, Sendable {
    /// One frame and its presentation time.
    public typealias Element = MovieFrame
    /// Decode and cancellation errors.
    public typealias Failure = LoaderError

    let path: String
    let movie: MovieMetadata
    let size: PixelSize
    let decoder: any MovieDecoding

    /// Frames of the movie at `path`, decoded by `decoder` at `size`.
    public init(path: String, movie: MovieMetadata, size: PixelSize, decoder: any MovieDecoding) {
        self.path = path
        self.movie = movie
        self.size = size
        self.decoder = decoder
    }

    /// An iterator that opens the movie on its first `next()`.
    public func makeAsyncIterator() -> Iterator { Iterator(frames: self) }

    /// Decodes frames on demand, each on a background queue so that a slow decode never blocks
    /// Swift concurrency's cooperative threads.
    public struct Iterator: AsyncIteratorProtocol {
        /// Decode and cancellation errors.
        public typealias Failure = LoaderError

        private let state: FrameReaderState

        init(frames: LivePhotoFrames) { state = FrameReaderState(frames: frames) }

        /// The next frame, nil after the last; throws `.cancelled` when the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(LoaderError) -> MovieFrame? {
            try await state.next()
        }

        /// The next frame, nil after the last; throws `.cancelled` when the task is cancelled.
        public mutating func next() async throws(LoaderError) -> MovieFrame? {
            try await state.next()
        }
    }
}

/// The reader behind one `LivePhotoFrames.Iterator`.
///
/// `@unchecked Sendable` is sound: the mutable state (`reader`, `done`) is touched only inside
/// `step()`, and `next()` awaits each step before it can be called again (the iterator's `next`
/// is `mutating`, so one iterator is never advanced concurrently). The steps run one after the
/// other on a background queue; the cancellation flag is itself thread-safe.
final class FrameReaderState: @unchecked Sendable {
    private let frames: LivePhotoFrames
    private let cancellation = CancellationFlag()
    private var reader: (any MovieFrameReading)?
    private var done = false

    init(frames: LivePhotoFrames) { self.frames = frames }

    /// Decodes the next frame on a background queue; task cancellation sets the flag.
    func next() async throws(LoaderError) -> MovieFrame? {
        let flag = cancellation
        let result: Result<MovieFrame?, LoaderError> = await withTaskCancellationHandler {
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

    private func step() throws(LoaderError) -> MovieFrame? {
        guard !done else { return nil }
        do throws(LoaderError) {
            if cancellation.isCancelled { throw .cancelled }
            if reader == nil {
                reader = try frames.decoder.makeFrameReader(
                    path: frames.path, movie: frames.movie, size: frames.size, cancellation: cancellation)
            }
            guard let frame = try reader?.nextFrame() else {
                done = true
                reader = nil
                return nil
            }
            return frame
        } catch {
            done = true
            reader = nil
            throw error
        }
    }
}
