import Foundation
import LivePair
import LivePairFormats
import LivePairLibrary
import LivePairMedia
import Synchronization

/// Makes derivatives with the loader (`ImageManager` for stills and placeholders,
/// `LivePhotoManager` and the H.264 writer for motion) and keeps them in a `DerivativeCache`, so
/// only the first request for one decodes: the next is a file read. Every make runs on the
/// bounded `MediaWorkPool`.
struct DerivativeMaker: Sendable {
    let library: PhotoLibrary
    let cache: any DerivativeCache
    let metrics: Metrics
    let pool: MediaWorkPool
    let inFlight = InFlightKeys()
    let movieSides = MovieLongSides()

    /// The still derivative's size for `requested`: snapped to a step, `.full` from the still's size up.
    static func stillSize(_ requested: Int, asset: Asset) -> DerivativeSize {
        DerivativeSize.snapped(requested, sourceLongSide: max(asset.pixelWidth, asset.pixelHeight))
    }

    /// The motion (or a plain video's playback) derivative's size for `requested`: snapped to a step, and `.full` from the
    /// movie's own size up (its header read once, `MovieLongSides`), else from the still's (a
    /// motion photo's embedded movie). With `onlyKnown`, nil when the movie's size is not at hand
    /// without a transfer.
    func motionSize(_ requested: Int, asset: Asset, resources: [LibraryAssetResource], onlyKnown: Bool = false) -> DerivativeSize? {
        let still = max(asset.pixelWidth, asset.pixelHeight)
        guard let movie = Self.sources(resources).video, movie.type == .pairedVideo || movie.type == .video else {
            return DerivativeSize.snapped(requested, sourceLongSide: still)
        }
        if let side = movieSides.longSide(of: movie, in: library, onlyKnown: onlyKnown) {
            return DerivativeSize.snapped(requested, sourceLongSide: side)
        }
        return onlyKnown && !library.resourcesAreLocalFiles ? nil : DerivativeSize.snapped(requested, sourceLongSide: still)
    }

    /// The cached file of `derivative` for the asset with `resources`, when it is made already.
    func cachedFile(_ derivative: Derivative, resources: [LibraryAssetResource]) -> (path: String, key: String)? {
        let (photo, video) = Self.sources(resources)
        let key = derivative.key(photo: photo, video: video)
        return cache.fileWithoutWaiting(for: key).map { ($0, key) }
    }

    /// The still and the movie a derivative is made from.
    static func sources(_ resources: [LibraryAssetResource]) -> (photo: LibraryAssetResource?, video: LibraryAssetResource?) {
        (resources.first { $0.type == .photo }, resources.first { $0.type == .pairedVideo } ?? resources.first { $0.type == .video })
    }

    /// The cached file of `derivative` for the asset with `resources`, made first when needed.
    /// - Throws: 404 when the asset has nothing to make it from (no motion for a plain photo),
    ///   422 when the loader cannot decode it, 503 with `Retry-After` when the media pool's queue
    ///   is full.
    func file(_ derivative: Derivative, asset: Asset, resources: [LibraryAssetResource]) throws(HTTPError) -> (
        path: String, key: String
    ) {
        let (photo, video) = Self.sources(resources)
        let key = derivative.key(photo: photo, video: video)
        if let path = cache.file(for: key) { return (path, key) }
        return try inFlight.exclusively(key) { () throws(HTTPError) -> (path: String, key: String) in
            if let path = cache.file(for: key) { return (path, key) }  // made while this request waited
            let made: Result<String, HTTPError>
            do throws(MediaWorkPool.Full) {
                made = try pool.run { () throws(HTTPError) -> String in
                    try makeAndInsert(derivative, key: key, photo: photo, video: video, asset: asset)
                }
            } catch {
                throw HTTPError(
                    status: 503, "the server is busy making other derivatives", headers: ["Retry-After": String(error.retryAfter)])
            }
            return (try made.get(), key)
        }
    }

    /// Makes `derivative` for the asset when it is not cached and no request is making it now,
    /// as background work on the pool (waiting for a free worker, `leavingFree` more kept for
    /// requests: `MediaWorkPool.runInBackground`). Errors are returned, not thrown.
    func makeInBackground(
        _ derivative: Derivative, asset: Asset, resources: [LibraryAssetResource], leavingFree: Int = 0
    ) -> HTTPError? {
        let (photo, video) = Self.sources(resources)
        let key = derivative.key(photo: photo, video: video)
        if cache.fileWithoutWaiting(for: key) != nil { return nil }
        let failure = Mutex<HTTPError?>(nil)
        pool.runInBackground(leavingFree: leavingFree) {
            let error = inFlight.ifFree(key) { () throws(HTTPError) in
                if cache.file(for: key) != nil { return }
                _ = try makeAndInsert(derivative, key: key, photo: photo, video: video, asset: asset)
            }
            failure.withLock { $0 = error }
        }
        return failure.withLock { $0 }
    }

    /// Makes `derivative` into a temporary file (removed on failure) and moves it into the cache.
    private func makeAndInsert(
        _ derivative: Derivative, key: String, photo: LibraryAssetResource?, video: LibraryAssetResource?, asset: Asset
    ) throws(HTTPError) -> String {
        let temporary = cache.temporaryPath(for: key)
        do throws(HTTPError) {
            try make(derivative, photo: photo, video: video, asset: asset, into: temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        metrics.derivativeMade()
        return try cache.insert(temporary, for: key)
    }

    private func make(
        _ derivative: Derivative, photo: LibraryAssetResource?, video: LibraryAssetResource?, asset: Asset, into path: String
    ) throws(HTTPError) {
        switch derivative {
        case .placeholder:
            let box = Derivative.placeholderSize
            try writeImage(photo: photo, video: video, size: PixelSize(width: box, height: box), mode: .fastFormat, to: path)
        case let .still(size):
            try writeImage(photo: photo, video: video, size: size.targetSize, mode: .highQualityFormat, to: path)
        case let .motion(size):
            let paths: [String]
            if let photo, let video, video.type == .pairedVideo {
                paths = [try library.storedFile(for: photo), try library.storedFile(for: video)]
            } else if let photo, asset.isLivePhoto {
                paths = [try library.storedFile(for: photo)]  // a motion photo: its embedded movie
            } else {
                throw .notFound("this asset has no motion")
            }
            try writeMotion(paths: paths, size: size.targetSize, to: path)
        case let .playback(size):
            guard !asset.isLivePhoto, let video, video.type == .video else { throw .notFound("this asset is not a video") }
            let moviePath = try library.storedFile(for: video)
            do throws(LoaderError) {
                _ = try WebMovie.write(moviePath: moviePath, targetSize: size.targetSize, to: path)
            } catch {
                throw HTTPError(status: 422, "the video cannot be made playable: \(error.code)")
            }
        }
    }

    private func writeImage(
        photo: LibraryAssetResource?, video: LibraryAssetResource?, size: PixelSize, mode: DeliveryMode, to path: String
    ) throws(HTTPError) {
        let source: ImageSource
        if let photo {
            source = .still(path: try library.storedFile(for: photo))
        } else if let video {
            source = .movieFrame(path: try library.storedFile(for: video), time: nil)
        } else {
            throw .notFound("this asset has no image")
        }
        let result = Mutex<Result<PixelBuffer, LoaderError>>(.failure(.cancelled))
        ImageManager.default.requestImage(
            for: source, targetSize: size, contentMode: .aspectFit,
            options: ImageRequestOptions(deliveryMode: mode, isSynchronous: true)
        ) { image, info in
            result.withLock { $0 = image.map { .success($0) } ?? .failure(info.error ?? .cancelled) }
        }
        let image: PixelBuffer
        do throws(LoaderError) {
            image = try result.withLock { $0 }.get()
        } catch {
            // A still the loader does not decode (PNG, WebP, ...: whatever its name says) is decoded
            // by its content with FFmpeg, as `make` does.
            guard case .unsupportedFormat = error, case let .still(stillPath) = source,
                let decoded = Self.decodedByContent(stillPath, fitting: size)
            else { throw HTTPError(status: 422, "the image cannot be decoded: \(error.code)") }
            image = decoded
        }
        // A still's colour profile goes with it (a Display P3 HEIC's JPEG is Display P3 too).
        var profile: [UInt8]?
        if case let .still(stillPath) = source { profile = StillColourProfile.iccProfile(ofStillAt: stillPath) }
        let bytes: [UInt8]
        do throws(MediaError) {
            bytes = try StillImageEncoder.jpeg(image, quality: 85, iccProfile: profile)
        } catch {
            throw .internal("the image cannot be encoded", cause: error)
        }
        do throws(FormatError) {
            try AtomicFileWriter.write(bytes, to: path)
        } catch {
            throw .internal("cannot write a derivative", cause: error)
        }
    }

    /// The still at `path` decoded by FFmpeg from its content and scaled to fit `size` (never up;
    /// the maximum size keeps it whole), or nil.
    static func decodedByContent(_ path: String, fitting size: PixelSize) -> PixelBuffer? {
        do throws(MediaError) {
            let image = try StillImageReader.decode(path: path)
            guard !size.isMaximum else { return image }
            let scale = min(1, Double(size.width) / Double(image.width), Double(size.height) / Double(image.height))
            guard scale < 1 else { return image }
            return try image.scaled(
                toWidth: max(1, Int((Double(image.width) * scale).rounded())), height: max(1, Int((Double(image.height) * scale).rounded())))
        } catch {
            return nil
        }
    }

    private func writeMotion(paths: [String], size: PixelSize, to path: String) throws(HTTPError) {
        let result = Mutex<Result<LivePhoto, LoaderError>>(.failure(.cancelled))
        LivePhotoManager.default.requestLivePhoto(
            resourceFileURLs: paths, targetSize: size, contentMode: .aspectFit,
            options: ImageRequestOptions(deliveryMode: .fastFormat, isSynchronous: true)
        ) { event, info in
            result.withLock { result in
                if case let .final(livePhoto)? = event { result = .success(livePhoto) } else { result = .failure(info.error ?? .cancelled) }
            }
        }
        do throws(LoaderError) {
            let livePhoto = try result.withLock { $0 }.get()
            _ = try livePhoto.writeMotionMovie(to: path)
        } catch {
            throw HTTPError(status: 422, "the motion cannot be made: \(error.code)")
        }
    }
}
