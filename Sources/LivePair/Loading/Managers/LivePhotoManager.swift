public import Dispatch
public import LivePairMedia

/// Loads Live Photos from a still and a movie: PhotoKit's
/// `PHLivePhoto.request(withResourceFileURLs:placeholderImage:targetSize:contentMode:resultHandler:)`
/// for Linux and servers.
///
/// The manager only coordinates: it validates the pair, starts (or joins) a shared load task,
/// and routes each task's events to the requests subscribed to it. See docs/loading.md.
public final class LivePhotoManager: Sendable {
    /// The shared manager, with the LivePairMedia decoders.
    public static let `default` = LivePhotoManager()

    /// Decodes stills (placeholders and full stills).
    public let stillDecoder: any StillDecoding
    /// Reads movie metadata and decodes frames.
    public let movieDecoder: any MovieDecoding
    /// Checks the pair before anything is decoded.
    public let validator: Validator
    let coordinator: RequestCoordinator<LivePhoto>

    /// A manager with the given decoders (tests inject counting or blocking fakes), running its
    /// decode work on `workQueue` (tests may pass a suspended queue to hold work back).
    public init(
        stillDecoder: any StillDecoding = MediaStillDecoder(), movieDecoder: any MovieDecoding = MediaMovieDecoder(),
        validator: Validator = Validator(), workQueue: DispatchQueue = .global(qos: .userInitiated)
    ) {
        coordinator = RequestCoordinator(queue: workQueue)
        self.stillDecoder = stillDecoder
        self.movieDecoder = movieDecoder
        self.validator = validator
    }

    /// How many shared load tasks this manager has started (identical concurrent requests share one).
    public var startedTaskCount: Int { coordinator.startedTaskCount }

    /// Requests the Live Photo made of the still and the movie at `resourceFileURLs` (file paths
    /// or `file://` URLs, in any order; with an edit's render and `.AAE` among them,
    /// `options.version` chooses the files read: the render's for `.current`, see
    /// `ImageRequestOptions.version`), or of a single motion photo (a Google or Samsung still
    /// with its movie embedded: the still is the primary image, the movie the embedded video,
    /// named by an `EmbeddedMovie` reference; the still-image time is the motion photo's
    /// presentation timestamp, else the middle of the movie).
    ///
    /// The pair (or the motion photo) is validated first: an error finding ends the request with
    /// `LoaderError.invalidPair`. With `.opportunistic` delivery the handler is then called with
    /// a degraded result (`placeholder` when given, else the cheapest decode of the still), and
    /// finally exactly once with the `LivePhoto`; `.highQualityFormat` calls it only with the
    /// final result; `.fastFormat` only once, with a final Live Photo whose still is the cheap
    /// decode. A request gets exactly one terminal call (final, failed or cancelled) and nothing
    /// after it. With `options.isSynchronous` the work runs on the calling thread and the handler
    /// is called once before this returns; otherwise it is called on a background queue.
    ///
    /// - Returns: the request's id, for `cancelRequest(_:)`.
    @discardableResult
    public func requestLivePhoto(
        resourceFileURLs: [String], placeholder: PixelBuffer? = nil, targetSize: PixelSize,
        contentMode: ContentMode = .aspectFit, options: ImageRequestOptions = ImageRequestOptions(),
        resultHandler: @escaping @Sendable (LivePhotoEvent?, ResultInfo) -> Void
    ) -> RequestID {
        let id = RequestID.next()
        let paths = VersionedFiles.select(resourceFileURLs.map(Self.path(fromURL:)), version: options.version)
        let geometry = options.geometry(targetSize: targetSize, contentMode: contentMode)
        let mode = options.isSynchronous && options.deliveryMode == .opportunistic ? .highQualityFormat : options.deliveryMode
        let handler: @Sendable (LoadEvent<LivePhoto>, ResultInfo) -> Void = { event, info in
            switch event {
            case let .preview(image, _): resultHandler(.degraded(image), info)
            case let .final(livePhoto): resultHandler(.final(livePhoto), info)
            case .failure: resultHandler(nil, info)
            }
        }
        let subscription = Subscription<LivePhoto>(
            id: id, wantsPreview: mode == .opportunistic && placeholder == nil,
            placeholder: mode == .opportunistic ? placeholder : nil, progressHandler: options.progressHandler,
            handler: handler)
        let loader = LivePhotoLoader(
            paths: paths, geometry: geometry, deliveryMode: mode, stills: stillDecoder, movies: movieDecoder,
            check: PairCheck(validator: validator))
        if options.isSynchronous {
            let context = LoadContext(
                cancellation: CancellationFlag(), onValidated: {}, onPreview: { _, _ in },
                onProgress: { fraction in options.progressHandler?(fraction) }, previewWanted: { false })
            do throws(LoaderError) {
                subscription.deliverNow(.final(try loader.load(context)))
            } catch {
                subscription.deliverNow(.failure(error))
            }
            return id
        }
        let key = LoadKey(kind: .livePhoto, paths: paths, geometry: geometry, deliveryMode: mode)
        coordinator.submit(key: key, subscription: subscription) { context throws(LoaderError) in
            try loader.load(context)
        }
        return id
    }

    /// Cancels request `id`: its handler gets one cancelled call (`info.isCancelled`,
    /// `LoaderError.cancelled`) unless it already had its terminal call. The shared decode stops
    /// when no request is left on it. Idempotent; safe from any thread.
    public func cancelRequest(_ id: RequestID) { coordinator.cancel(id) }

    /// The path of a file URL (`file:///a/b` becomes `/a/b`); other strings are returned unchanged.
    static func path(fromURL url: String) -> String {
        guard url.hasPrefix("file://") else { return url }
        var path = String(url.dropFirst("file://".count))
        if path.hasPrefix("localhost/") { path.removeFirst("localhost".count) }
        return path.removingPercentEncoding()
    }
}

extension String {
    /// The string with `%XX` escapes decoded (invalid escapes are kept as written).
    fileprivate func removingPercentEncoding() -> String {
        var bytes: [UInt8] = []
        var iterator = Array(utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
