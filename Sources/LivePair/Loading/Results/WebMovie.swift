internal import LivePairMedia

/// A movie as every browser plays it: each frame upright, fitted to a size, encoded as H.264 in an
/// MP4 with the movie's audio as AAC. What a web client shows for a plain video whose original is
/// HEVC (or any codec FFmpeg decodes and a browser may not); a Live Photo's motion is written by
/// `LivePhoto.writeMotionMovie(to:)` the same way.
public enum WebMovie {
    /// Writes the movie at `moviePath` fitted into `targetSize` (`ImageManagerMaximumSize`: its own
    /// upright size; never scaled up) as H.264 + AAC MP4 at `path` (written in place: callers write
    /// to a temporary path and rename). Frames keep their presentation times, so the copy lasts as
    /// long as the original. Decodes and encodes on the calling thread, frame after frame.
    ///
    /// - Throws: `LoaderError.movieDecodeFailed` when the movie cannot be read, a frame cannot be
    ///   decoded or encoded, or the file cannot be written.
    public static func write(
        moviePath: String, targetSize: PixelSize, to path: String, decoder: any MovieDecoding = MediaMovieDecoder()
    ) throws(LoaderError) -> MotionMovieSummary {
        let cancellation = CancellationFlag()
        let movie = try decoder.readMetadata(path: moviePath, cancellation: cancellation)
        let frameSize = ImageGeometry(targetSize: targetSize, contentMode: .aspectFit).outputSize(
            sourceWidth: movie.uprightSize.width, sourceHeight: movie.uprightSize.height)
        let encoder = try MotionMovieEncoder(moviePath: moviePath, movie: movie, frameSize: frameSize, path: path)
        let reader = try decoder.makeFrameReader(path: moviePath, movie: movie, size: frameSize, cancellation: cancellation)
        while let frame = try reader.nextFrame() { try encoder.append(frame) }
        return try encoder.finish()
    }
}
