import Dispatch
public import LivePairMedia

/// The full motion result of a Live Photo request (PhotoKit's `PHLivePhoto`, with its pixels).
///
/// The still and the poster are decoded; the movie's frames are decoded on demand when `frames`
/// is iterated, at `frameSize`, upright.
public struct LivePhoto: Sendable {
    /// The still's path.
    public let photoPath: String
    /// The movie's path; for a motion photo, an `EmbeddedMovie` reference to its embedded video.
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

        private let state: OnDemandFrameState<MovieFrame>

        init(frames: LivePhotoFrames) {
            state = OnDemandFrameState { flag throws(LoaderError) in
                let reader = try frames.decoder.makeFrameReader(
                    path: frames.path, movie: frames.movie, size: frames.size, cancellation: flag)
                return { () throws(LoaderError) in try reader.nextFrame() }
            }
        }

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
