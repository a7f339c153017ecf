import Dispatch
public import LivePairMedia

/// One movie frame as planar YUV (`yuv420p`), upright, at the requested size.
public struct PlanarMovieFrame: Sendable, Equatable {
    /// The planes, display rotation applied.
    public let image: PlanarPixelBuffer
    /// The presentation time on the movie timeline, in seconds.
    public let presentationTime: Double

    /// A frame.
    public init(image: PlanarPixelBuffer, presentationTime: Double) {
        self.image = image
        self.presentationTime = presentationTime
    }
}

/// Returns a movie's frames as planar YUV, one after the other, in presentation order. Owned
/// by one consumer.
public protocol PlanarMovieFrameReading: AnyObject {
    /// The next frame, or nil after the last one.
    func nextPlanarFrame() throws(LoaderError) -> PlanarMovieFrame?
}

extension LivePhotoFrames {
    /// The same frames delivered as planar `yuv420p` instead of RGBA: converted by libswscale
    /// straight from the decoded frames at the frame size (no RGBA step with the default
    /// decoder), upright, keeping the movie's YCbCr matrix and range (see
    /// `PlanarPixelBuffer.matrix` and `isFullRange`).
    public func yuv420p() -> LivePhotoPlanarFrames { LivePhotoPlanarFrames(frames: self) }
}

/// The frames of a Live Photo's movie as planar YUV, an async sequence like `LivePhotoFrames`
/// (each iteration opens the movie; frames are decoded on demand on a background queue;
/// cancelling the iterating task stops the decode and the next call throws `.cancelled`).
public struct LivePhotoPlanarFrames: AsyncSequence, Sendable {
    /// One frame and its presentation time.
    public typealias Element = PlanarMovieFrame
    /// Decode and cancellation errors.
    public typealias Failure = LoaderError

    let frames: LivePhotoFrames

    /// An iterator that opens the movie on its first `next()`.
    public func makeAsyncIterator() -> Iterator {
        let frames = self.frames
        return Iterator(
            state: OnDemandFrameState { flag throws(LoaderError) in
                let reader = try frames.decoder.makePlanarFrameReader(
                    path: frames.path, movie: frames.movie, size: frames.size, cancellation: flag)
                return { () throws(LoaderError) in try reader.nextPlanarFrame() }
            })
    }

    /// Decodes frames on demand, each on a background queue.
    public struct Iterator: AsyncIteratorProtocol {
        /// Decode and cancellation errors.
        public typealias Failure = LoaderError

        fileprivate let state: OnDemandFrameState<PlanarMovieFrame>

        /// The next frame, nil after the last; throws `.cancelled` when the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(LoaderError) -> PlanarMovieFrame? {
            try await state.next()
        }

        /// The next frame, nil after the last; throws `.cancelled` when the task is cancelled.
        public mutating func next() async throws(LoaderError) -> PlanarMovieFrame? {
            try await state.next()
        }
    }
}

/// Converts the RGBA frames of any `MovieFrameReading` to `yuv420p` (limited range, BT.601):
/// the fallback for decoders that have no direct planar path.
final class ConvertingPlanarFrameReader: PlanarMovieFrameReading {
    private let reader: any MovieFrameReading
    private let path: String

    init(reader: any MovieFrameReading, path: String) {
        self.reader = reader
        self.path = path
    }

    func nextPlanarFrame() throws(LoaderError) -> PlanarMovieFrame? {
        guard let frame = try reader.nextFrame() else { return nil }
        do throws(MediaError) {
            return PlanarMovieFrame(image: try frame.image.yuv420p(), presentationTime: frame.presentationTime)
        } catch {
            throw LoaderError.movie(path, error)
        }
    }
}

extension MovieDecoding {
    /// Default: the RGBA frame reader's frames converted to `yuv420p` by libswscale.
    public func makePlanarFrameReader(
        path: String, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag
    ) throws(LoaderError) -> any PlanarMovieFrameReading {
        ConvertingPlanarFrameReader(
            reader: try makeFrameReader(path: path, movie: movie, size: size, cancellation: cancellation), path: path)
    }
}
