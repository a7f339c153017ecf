import LivePairMedia

/// The work of one Live Photo load, stage by stage, checking cancellation between stages:
/// validate the pair (or the motion photo), decode the placeholder (when wanted), decode the
/// still, read the movie's metadata, decode the poster frame. A motion photo's movie is its
/// embedded video, named by an `EmbeddedMovie` reference.
///
/// The opportunistic placeholder is the fastest image the files already hold: the still's
/// embedded image (HEIC `thmb` item, JPEG Exif thumbnail) at its own size; for a still that
/// holds none, the movie's frame at the still time, which is the poster frame the Live Photo
/// needs anyway (decoded first, then reused).
struct LivePhotoLoader: Sendable {
    let paths: [String]
    let geometry: ImageGeometry
    let deliveryMode: DeliveryMode
    let stills: any StillDecoding
    let movies: any MovieDecoding
    let check: PairCheck

    func load(_ context: LoadContext) throws(LoaderError) -> LivePhoto {
        try context.checkCancellation()
        let halves = try check.halves(paths)
        let findings = check.errors(halves)
        guard findings.isEmpty else { throw .invalidPair(findings: findings) }
        let photoPath = halves.photoPath, videoPath = halves.videoPath
        context.validated()
        context.progress(0.1)
        try context.checkCancellation()

        var cheap: PixelBuffer?
        var cheapIsFullQuality = false
        var early: (movie: MovieMetadata, poster: MovieFrame?)?
        if deliveryMode == .opportunistic && context.wantsPreview {
            if let embedded = try stills.decodeEmbeddedPreview(
                path: photoPath, geometry: geometry, cancellation: context.cancellation)
            {
                try context.checkCancellation()
                let image = try render(embedded, path: photoPath, cancellation: context.cancellation)
                context.preview(image, source: embedded.source)
                cheap = image
                cheapIsFullQuality = embedded.isFullQuality
            } else {
                let movie = try movies.readMetadata(path: videoPath, cancellation: context.cancellation)
                try context.checkCancellation()
                if let keyTime = movie.keyFrameTime(nearest: movie.posterTime),
                    movie.frameIndex(nearest: keyTime) != movie.frameIndex(nearest: movie.posterTime)
                {
                    // The key frame nearest the still time decodes alone, without the frames up to
                    // the poster. Asked a little after it (under half a frame), so that it is the
                    // nearest frame whatever the rounding of the time to the stream's ticks.
                    let next = movie.frameTimes.first { $0 > keyTime + 1e-6 }
                    let key = try movies.decodeFrame(
                        path: videoPath, at: keyTime + (next.map { ($0 - keyTime) * 0.4 } ?? 0.001), movie: movie,
                        size: movieFrameSize(of: movie), cancellation: context.cancellation)
                    try context.checkCancellation()
                    context.preview(
                        try render(key.image, path: videoPath, cancellation: context.cancellation), source: .movieKeyFrame)
                    early = (movie, nil)
                } else {
                    let poster = try decodePoster(videoPath, movie: movie, cancellation: context.cancellation)
                    try context.checkCancellation()
                    context.preview(
                        try render(poster.image, path: videoPath, cancellation: context.cancellation), source: .movieFrame)
                    early = (movie, poster)
                }
            }
        } else if deliveryMode == .fastFormat {
            let preview = try stills.decodePreview(path: photoPath, geometry: geometry, cancellation: context.cancellation)
            try context.checkCancellation()
            let image = try render(preview, path: photoPath, cancellation: context.cancellation)
            cheap = image
            cheapIsFullQuality = preview.isFullQuality
        }
        context.progress(0.3)
        try context.checkCancellation()

        let still: PixelBuffer
        if let cheap, deliveryMode == .fastFormat || cheapIsFullQuality {
            // Fast delivery, or no cheaper source existed: the preview is the final still.
            still = cheap
        } else {
            let raw = try stills.decodeFull(path: photoPath, geometry: geometry, cancellation: context.cancellation)
            try context.checkCancellation()
            still = try render(raw, path: photoPath, cancellation: context.cancellation)
        }
        context.progress(0.6)
        try context.checkCancellation()

        let movie: MovieMetadata, poster: MovieFrame
        if let early, let earlyPoster = early.poster {
            (movie, poster) = (early.movie, earlyPoster)
        } else if let early {
            movie = early.movie
            poster = try decodePoster(videoPath, movie: movie, cancellation: context.cancellation)
        } else {
            movie = try movies.readMetadata(path: videoPath, cancellation: context.cancellation)
            try context.checkCancellation()
            poster = try decodePoster(videoPath, movie: movie, cancellation: context.cancellation)
        }
        try context.checkCancellation()
        let frameSize = movieFrameSize(of: movie)
        context.progress(1)
        return LivePhoto(
            photoPath: photoPath, videoPath: videoPath, still: still, movie: movie,
            posterFrameIndex: movie.frameIndex(nearest: poster.presentationTime), poster: poster, frameSize: frameSize,
            frames: LivePhotoFrames(path: videoPath, movie: movie, size: frameSize, decoder: movies))
    }

    /// The size movie frames are decoded at: the target size with the content mode, no crop.
    private func movieFrameSize(of movie: MovieMetadata) -> PixelSize {
        ImageGeometry(targetSize: geometry.targetSize, contentMode: geometry.contentMode).outputSize(
            sourceWidth: movie.uprightSize.width, sourceHeight: movie.uprightSize.height)
    }

    /// The frame at the movie's still-image time, at `movieFrameSize(of:)`.
    private func decodePoster(_ videoPath: String, movie: MovieMetadata, cancellation: CancellationFlag)
        throws(LoaderError) -> MovieFrame
    {
        try movies.decodeFrame(
            path: videoPath, at: movie.posterTime, movie: movie, size: movieFrameSize(of: movie),
            cancellation: cancellation)
    }

    private func render(_ preview: PreviewImage, path: String, cancellation: CancellationFlag) throws(LoaderError)
        -> PixelBuffer
    {
        do throws(MediaError) { return try geometry.render(preview, cancellation: cancellation) } catch {
            throw LoaderError.still(path, error)
        }
    }

    private func render(_ image: PixelBuffer, path: String, cancellation: CancellationFlag) throws(LoaderError) -> PixelBuffer {
        do throws(MediaError) { return try geometry.render(image, cancellation: cancellation) } catch {
            throw LoaderError.still(path, error)
        }
    }
}
