import LivePairCore
import LivePairFormats
import LivePairLibrary
import Synchronization

/// The longer side of movies, read from their headers once (for an S3 store, with ranged GETs)
/// and kept in memory by digest, so a motion derivative's size is clamped to the movie's own
/// size: a Live Photo's movie (1920x1440) is much smaller than its still (5712x4284).
final class MovieLongSides: Sendable {
    private let known = Mutex<[ContentDigest: Int]>([:])
    /// Movies remembered at most (then forgotten all at once; each is read again when asked).
    static let limit = 100_000

    /// The longer side in pixels of `movie`, nil when its header does not say (or cannot be read).
    /// With `onlyKnown`, nil unless it was read before or the store's files are local (no transfer).
    func longSide(of movie: LibraryAssetResource, in library: PhotoLibrary, onlyKnown: Bool = false) -> Int? {
        if let side = known.withLock({ $0[movie.digest] }) { return side }
        guard !onlyKnown || library.resourcesAreLocalFiles, let source = try? library.byteSource(for: movie) else { return nil }
        let identity = ResourceIdentifier().identify(source: source, path: movie.originalFilename ?? "movie.mov")
        guard identity.format.isMovie, let width = identity.width, let height = identity.height, width > 0, height > 0 else {
            return nil
        }
        let side = max(width, height)
        known.withLock { known in
            if known.count >= Self.limit { known.removeAll() }
            known[movie.digest] = side
        }
        return side
    }
}
