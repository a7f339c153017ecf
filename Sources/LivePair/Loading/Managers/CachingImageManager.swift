public import LivePairMedia
import Synchronization

/// An image manager that prepares images ahead of time and keeps final results in a memory
/// cache bounded in bytes with least-recently-used eviction: PhotoKit's `PHCachingImageManager`.
///
/// Degraded results are never cached. Requests whose final image is cached get it at once, in
/// one (non-degraded) call.
public final class CachingImageManager: Sendable {
    /// The manager doing the decodes, sharing this manager's cache.
    public let imageManager: ImageManager
    private let cache: MemoryCache<LoadKey, PixelBuffer>
    private let preparing = Mutex<[LoadKey: RequestID]>([:])

    /// A caching manager keeping at most `costLimit` bytes of pixels (default 64 MiB).
    public init(
        costLimit: Int = 64 << 20, stillDecoder: any StillDecoding = MediaStillDecoder(),
        movieDecoder: any MovieDecoding = MediaMovieDecoder()
    ) {
        cache = MemoryCache(costLimit: costLimit)
        imageManager = ImageManager(stillDecoder: stillDecoder, movieDecoder: movieDecoder, cache: cache)
    }

    /// The cache's byte limit.
    public var costLimit: Int { cache.costLimit }
    /// Bytes of pixels cached now.
    public var cachedBytes: Int { cache.totalCost }
    /// Images cached now.
    public var cachedImageCount: Int { cache.count }

    /// Starts preparing images of `sources` for `targetSize` and `contentMode` (high quality),
    /// so that later identical requests are served from memory.
    public func startCaching(
        for sources: [ImageSource], targetSize: PixelSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions()
    ) {
        var prepared = options
        prepared.deliveryMode = .highQualityFormat
        prepared.isSynchronous = false
        prepared.progressHandler = nil
        for source in sources {
            let key = Self.key(source, targetSize, contentMode, prepared)
            guard cache.value(for: key) == nil, preparing.withLock({ $0[key] == nil }) else { continue }
            let id = imageManager.requestImage(
                for: source, targetSize: targetSize, contentMode: contentMode, options: prepared
            ) { [weak self] _, info in
                self?.preparing.withLock { requests in
                    if requests[key] == info.requestID { requests[key] = nil }
                }
            }
            preparing.withLock { requests in
                if imageManager.coordinator.isActive(id) { requests[key] = id }
            }
        }
    }

    /// Stops preparing images of `sources` at this size and drops the ones already cached.
    public func stopCaching(
        for sources: [ImageSource], targetSize: PixelSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions()
    ) {
        var prepared = options
        prepared.deliveryMode = .highQualityFormat
        for source in sources {
            let key = Self.key(source, targetSize, contentMode, prepared)
            if let id = preparing.withLock({ $0.removeValue(forKey: key) }) { imageManager.cancelRequest(id) }
            cache.removeValue(for: key)
        }
    }

    /// Stops all preparation and empties the cache.
    public func stopCachingImagesForAllAssets() {
        let ids = preparing.withLock { requests in
            defer { requests.removeAll() }
            return Array(requests.values)
        }
        for id in ids { imageManager.cancelRequest(id) }
        cache.removeAll()
    }

    /// `ImageManager.requestImage`, served from the cache when the final image is there.
    @discardableResult
    public func requestImage(
        for source: ImageSource, targetSize: PixelSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions(),
        resultHandler: @escaping @Sendable (PixelBuffer?, ResultInfo) -> Void
    ) -> RequestID {
        imageManager.requestImage(
            for: source, targetSize: targetSize, contentMode: contentMode, options: options, resultHandler: resultHandler)
    }

    /// `ImageManager.requestImageInPixelFormat(for:targetSize:contentMode:options:resultHandler:)` (the pixel
    /// format of `options`), served from the cache when the final image is there.
    @discardableResult
    public func requestImageInPixelFormat(
        for source: ImageSource, targetSize: PixelSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions(),
        resultHandler: @escaping @Sendable (RequestedImage?, ResultInfo) -> Void
    ) -> RequestID {
        imageManager.requestImageInPixelFormat(
            for: source, targetSize: targetSize, contentMode: contentMode, options: options, resultHandler: resultHandler)
    }

    /// Cancels request `id`.
    public func cancelRequest(_ id: RequestID) { imageManager.cancelRequest(id) }

    /// True when the final image for this request is cached.
    public func isCached(
        _ source: ImageSource, targetSize: PixelSize, contentMode: ContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions()
    ) -> Bool {
        cache.value(for: Self.key(source, targetSize, contentMode, options)) != nil
    }

    private static func key(
        _ source: ImageSource, _ targetSize: PixelSize, _ contentMode: ContentMode, _ options: ImageRequestOptions
    ) -> LoadKey {
        let source = source.resolved(version: options.version)
        let geometry = options.geometry(targetSize: targetSize, contentMode: contentMode)
        return ImageManager.cacheKey(
            LoadKey(kind: source.loadKind, paths: [source.path], geometry: geometry, deliveryMode: options.deliveryMode))
    }
}
