import LivePairFormats
import LivePairMedia

/// Decodes one movie frame, upright, at full size: the still of a Live Photo made from a movie.
struct FrameGrabber {
    let limits: ParseLimits

    /// The frame of the movie at `path` presented at `seconds`, with the track's display rotation applied.
    func uprightFrame(of path: String, at seconds: Double) throws(PackagingError) -> PixelBuffer {
        let decoder = MediaMovieDecoder(limits: limits)
        let cancellation = CancellationFlag()
        do throws(LoaderError) {
            let movie = try decoder.readMetadata(path: path, cancellation: cancellation)
            return try decoder.decodeFrame(
                path: path, at: seconds, movie: movie, size: movie.uprightSize, cancellation: cancellation
            ).image
        } catch {
            throw .unsupportedVideo(path: path, reason: "its frame at \(seconds) s could not be decoded: \(error.description)")
        }
    }
}
