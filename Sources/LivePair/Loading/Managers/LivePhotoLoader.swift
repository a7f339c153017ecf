import LivePairMedia

/// The work of one Live Photo load, stage by stage, checking cancellation between stages:
/// validate the pair (or the motion photo), decode the placeholder (when wanted), decode the
/// still, read the movie's metadata, decode the poster frame. A motion photo's movie is its
/// embedded video, named by an `EmbeddedMovie` reference.
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
        if deliveryMode == .fastFormat || (deliveryMode == .opportunistic && context.wantsPreview) {
            let preview = try stills.decodePreview(path: photoPath, geometry: geometry, cancellation: context.cancellation)
            try context.checkCancellation()
            let image: PixelBuffer
            do throws(MediaError) {
                image = try geometry.render(preview, cancellation: context.cancellation)
            } catch {
                throw LoaderError.still(photoPath, error)
            }
            if deliveryMode == .opportunistic { context.preview(image) }
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

        let movie = try movies.readMetadata(path: videoPath, cancellation: context.cancellation)
        try context.checkCancellation()
        let frameGeometry = ImageGeometry(targetSize: geometry.targetSize, contentMode: geometry.contentMode)
        let frameSize = frameGeometry.outputSize(
            sourceWidth: movie.uprightSize.width, sourceHeight: movie.uprightSize.height)
        let poster = try movies.decodeFrame(
            path: videoPath, at: movie.posterTime, movie: movie, size: frameSize, cancellation: context.cancellation)
        try context.checkCancellation()
        context.progress(1)
        return LivePhoto(
            photoPath: photoPath, videoPath: videoPath, still: still, movie: movie,
            posterFrameIndex: movie.frameIndex(nearest: poster.presentationTime), poster: poster, frameSize: frameSize,
            frames: LivePhotoFrames(path: videoPath, movie: movie, size: frameSize, decoder: movies))
    }

    private func render(_ image: PixelBuffer, path: String, cancellation: CancellationFlag) throws(LoaderError) -> PixelBuffer {
        do throws(MediaError) { return try geometry.render(image, cancellation: cancellation) } catch {
            throw LoaderError.still(path, error)
        }
    }
}
