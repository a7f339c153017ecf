public import LivePairMedia

extension LivePhotoManager {
    /// The Live Photo request as an async sequence: `.degraded` (with opportunistic delivery)
    /// then `.final`, after which the sequence ends. A failed request throws its `LoaderError`
    /// (`.invalidPair`, decode failures). Cancelling the consuming task, or dropping the
    /// sequence, cancels the request.
    public func livePhotoEvents(
        resourceFileURLs: [String], placeholder: PixelBuffer? = nil, targetSize: PixelSize,
        contentMode: ContentMode = .aspectFit, options: ImageRequestOptions = ImageRequestOptions()
    ) -> AsyncThrowingStream<LivePhotoEvent, any Error> {
        var asynchronous = options
        asynchronous.isSynchronous = false
        let (stream, continuation) = AsyncThrowingStream<LivePhotoEvent, any Error>.makeStream()
        let id = requestLivePhoto(
            resourceFileURLs: resourceFileURLs, placeholder: placeholder, targetSize: targetSize,
            contentMode: contentMode, options: asynchronous
        ) { event, info in
            if let event {
                continuation.yield(event)
                if case .final = event { continuation.finish() }
            } else {
                continuation.finish(throwing: info.error ?? LoaderError.cancelled)
            }
        }
        continuation.onTermination = { [self] termination in
            if case .cancelled = termination { cancelRequest(id) }
        }
        return stream
    }
}
