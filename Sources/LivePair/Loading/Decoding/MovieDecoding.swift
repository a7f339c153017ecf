public import LivePairMedia

/// One movie frame, upright, at the requested size.
public struct MovieFrame: Sendable, Equatable {
    /// The pixels (RGBA), display rotation applied.
    public let image: PixelBuffer
    /// The presentation time on the movie timeline, in seconds.
    public let presentationTime: Double

    /// A frame.
    public init(image: PixelBuffer, presentationTime: Double) {
        self.image = image
        self.presentationTime = presentationTime
    }
}

/// Returns a movie's frames one after the other, in presentation order. Owned by one consumer.
public protocol MovieFrameReading: AnyObject {
    /// The next frame, or nil after the last one.
    func nextFrame() throws(LoaderError) -> MovieFrame?
}

/// Reads movie metadata and decodes movie frames for the loader. Implementations must be
/// thread-safe and should stop promptly once `cancellation` is set.
public protocol MovieDecoding: Sendable {
    /// What the movie at `path` is: timing, still-image time, audio, identifier, size, rotation.
    func readMetadata(path: String, cancellation: CancellationFlag) throws(LoaderError) -> MovieMetadata

    /// The frame shown at `time` (the nearest one), upright, scaled to exactly `size`.
    func decodeFrame(
        path: String, at time: Double, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag
    ) throws(LoaderError) -> MovieFrame

    /// A reader returning every frame upright at exactly `size`, decoded on demand.
    func makeFrameReader(path: String, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag)
        throws(LoaderError) -> any MovieFrameReading

    /// A reader returning every frame upright at exactly `size` as planar `yuv420p`, decoded on
    /// demand. The default converts `makeFrameReader`'s RGBA frames.
    func makePlanarFrameReader(path: String, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag)
        throws(LoaderError) -> any PlanarMovieFrameReading
}
