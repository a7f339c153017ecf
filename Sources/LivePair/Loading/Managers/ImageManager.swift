public import Dispatch
public import LivePairMedia

/// Requests still images and movie frames: PhotoKit's `PHImageManager.requestImage`.
///
/// Sizes are in pixels and results are upright. Identical concurrent requests share one decode;
/// with a cache (see `CachingImageManager`) final results are kept and served from memory,
/// degraded ones never.
public final class ImageManager: Sendable {
    /// The shared manager, with the LivePairMedia decoders and no cache.
    public static let `default` = ImageManager()

    /// Decodes stills.
    public let stillDecoder: any StillDecoding
    /// Decodes movie frames.
    public let movieDecoder: any MovieDecoding
    let coordinator: RequestCoordinator<PixelBuffer>
    let cache: MemoryCache<LoadKey, PixelBuffer>?

    /// A manager with the given decoders and no cache, running its decode work on `workQueue`.
    public convenience init(
        stillDecoder: any StillDecoding = MediaStillDecoder(), movieDecoder: any MovieDecoding = MediaMovieDecoder(),
        workQueue: DispatchQueue = .global(qos: .userInitiated)
    ) {
        self.init(stillDecoder: stillDecoder, movieDecoder: movieDecoder, cache: nil, workQueue: workQueue)
    }

    init(
        stillDecoder: any StillDecoding, movieDecoder: any MovieDecoding, cache: MemoryCache<LoadKey, PixelBuffer>?,
        workQueue: DispatchQueue = .global(qos: .userInitiated)
    ) {
        coordinator = RequestCoordinator(queue: workQueue)
        self.stillDecoder = stillDecoder
        self.movieDecoder = movieDecoder
        self.cache = cache
    }

    /// How many shared decode tasks this manager has started.
    public var startedTaskCount: Int { coordinator.startedTaskCount }

    /// Requests an upright image of `source` for `targetSize` (`PixelSize.maximum` for the
    /// original size) with `contentMode`.
    ///
    /// Delivery: `.opportunistic` calls the handler with a degraded image (thumbnail or
    /// DCT-scaled decode) then the final one; `.highQualityFormat` only the final one;
    /// `.fastFormat` only one image, the cheap one, as final. `options.resizeMode`,
    /// `normalizedCropRect`, `isSynchronous` (run on the calling thread, one call before
    /// returning), `progressHandler` and `degradedMinimumCoverage` are honoured; the images are
    /// RGBA whatever `pixelFormat` says (see `requestImageInPixelFormat(for:targetSize:contentMode:options:resultHandler:)`).
    /// Exactly one terminal call per request.
    @discardableResult
    public func requestImage(
        for source: ImageSource, targetSize: PixelSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions(),
        resultHandler: @escaping @Sendable (PixelBuffer?, ResultInfo) -> Void
    ) -> RequestID {
        let id = RequestID.next()
        let source = source.resolved(version: options.version)
        let geometry = options.geometry(targetSize: targetSize, contentMode: contentMode)
        let mode = options.isSynchronous && options.deliveryMode == .opportunistic ? .highQualityFormat : options.deliveryMode
        let key = LoadKey(kind: source.loadKind, paths: [source.path], geometry: geometry, deliveryMode: mode)
        let cacheKey = Self.cacheKey(key)
        let subscription = Subscription<PixelBuffer>(
            id: id, wantsPreview: mode == .opportunistic, placeholder: nil, progressHandler: options.progressHandler,
            handler: { event, info in
                switch event {
                case let .preview(image, _), let .final(image): resultHandler(image, info)
                case .failure: resultHandler(nil, info)
                }
            })
        if let cache, let cached = cache.value(for: cacheKey) {
            if options.isSynchronous { subscription.deliverNow(.final(cached)) } else { subscription.deliver(.final(cached)) }
            return id
        }
        let work = ImageLoader(
            source: source, geometry: geometry, deliveryMode: mode, stills: stillDecoder, movies: movieDecoder)
        let cache = self.cache
        let load: @Sendable (LoadContext) throws(LoaderError) -> PixelBuffer = { context throws(LoaderError) in
            let image = try work.load(context)
            cache?.insert(image, for: cacheKey, cost: image.storage.count)
            return image
        }
        if options.isSynchronous {
            let context = LoadContext(
                cancellation: CancellationFlag(), onValidated: {}, onPreview: { _, _ in },
                onProgress: { fraction in options.progressHandler?(fraction) }, previewWanted: { false })
            do throws(LoaderError) {
                subscription.deliverNow(.final(try load(context)))
            } catch {
                subscription.deliverNow(.failure(error))
            }
            return id
        }
        coordinator.submit(key: key, subscription: subscription, work: load)
        return id
    }

    /// Requests an image like `requestImage(for:targetSize:contentMode:options:resultHandler:)`,
    /// delivered in `options.pixelFormat`: RGBA8, or planar YUV 4:2:0 (`yuv420p`, limited range,
    /// BT.601) converted by libswscale from the upright, sized result. Degraded and final calls,
    /// cancellation and coalescing are the same (requests that differ only in pixel format
    /// share one decode). `requestImage` always delivers RGBA.
    @discardableResult
    public func requestImageInPixelFormat(
        for source: ImageSource, targetSize: PixelSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions(),
        resultHandler: @escaping @Sendable (RequestedImage?, ResultInfo) -> Void
    ) -> RequestID {
        let format = options.pixelFormat
        let path = source.path
        return requestImage(for: source, targetSize: targetSize, contentMode: contentMode, options: options) {
            image, info in
            guard let image else { return resultHandler(nil, info) }
            do throws(MediaError) {
                resultHandler(try RequestedImage.converting(image, to: format), info)
            } catch {
                // A degraded image that cannot be converted is skipped; a final one fails the request.
                guard !info.isDegraded else { return }
                resultHandler(
                    nil,
                    ResultInfo(
                        requestID: info.requestID, isDegraded: false, isCancelled: false,
                        error: LoaderError.still(path, error)))
            }
        }
    }

    /// Cancels request `id` (one cancelled call unless it already ended). Idempotent; any thread.
    public func cancelRequest(_ id: RequestID) { coordinator.cancel(id) }

    /// The key final results are cached under: opportunistic and high-quality requests produce
    /// the same final image, so they share it; fast-format results are kept apart.
    static func cacheKey(_ key: LoadKey) -> LoadKey {
        LoadKey(
            kind: key.kind, paths: key.paths, geometry: key.geometry,
            deliveryMode: key.deliveryMode == .fastFormat ? .fastFormat : .highQualityFormat)
    }
}

/// The work of one image load: preview (when wanted) and final decode, or a movie frame.
struct ImageLoader: Sendable {
    let source: ImageSource
    let geometry: ImageGeometry
    let deliveryMode: DeliveryMode
    let stills: any StillDecoding
    let movies: any MovieDecoding

    func load(_ context: LoadContext) throws(LoaderError) -> PixelBuffer {
        try context.checkCancellation()
        context.progress(0)
        switch source {
        case let .still(path):
            if deliveryMode == .fastFormat || (deliveryMode == .opportunistic && context.wantsPreview) {
                let preview = try stills.decodePreview(path: path, geometry: geometry, cancellation: context.cancellation)
                let image: PixelBuffer
                do throws(MediaError) {
                    image = try geometry.render(preview, cancellation: context.cancellation)
                } catch {
                    throw LoaderError.still(path, error)
                }
                if deliveryMode == .fastFormat || preview.isFullQuality {
                    // Fast delivery, or no cheaper source existed: this is the final image.
                    if deliveryMode == .opportunistic { context.preview(image, source: preview.source) }
                    context.progress(1)
                    return image
                }
                context.preview(image, source: preview.source)
            }
            context.progress(0.5)
            try context.checkCancellation()
            let image = try render(
                try stills.decodeFull(path: path, geometry: geometry, cancellation: context.cancellation), path,
                context.cancellation)
            context.progress(1)
            return image
        case let .movieFrame(path, time):
            let movie = try movies.readMetadata(path: path, cancellation: context.cancellation)
            context.progress(0.3)
            try context.checkCancellation()
            let upright = movie.uprightSize
            let size = geometry.crop != nil || geometry.wantsOriginalSize
                ? upright : geometry.outputSize(sourceWidth: upright.width, sourceHeight: upright.height)
            let frame = try movies.decodeFrame(
                path: path, at: time ?? movie.posterTime, movie: movie, size: size, cancellation: context.cancellation)
            let image = try render(frame.image, path, context.cancellation)
            context.progress(1)
            return image
        case .asset:
            // Requests resolve an asset's files before loading; read its current version.
            return try ImageLoader(
                source: source.resolved(version: .current), geometry: geometry, deliveryMode: deliveryMode, stills: stills,
                movies: movies
            ).load(context)
        }
    }

    private func render(_ image: PixelBuffer, _ path: String, _ cancellation: CancellationFlag) throws(LoaderError)
        -> PixelBuffer
    {
        do throws(MediaError) { return try geometry.render(image, cancellation: cancellation) } catch {
            throw LoaderError.still(path, error)
        }
    }
}
