import Foundation
import LivePair
import LivePairLibrary
import Synchronization

/// The derivatives made before anyone asks for them: each asset's placeholder, grid still
/// (`still.jpg` at its default size) and motion movie (`motion.mp4` at its default size; a plain
/// video's `playback.mp4`), made
/// as background work on a `MediaWorkPool` into the same cache `livepair serve` reads.
public struct LibraryDerivatives: Sendable {
    private let maker: DerivativeMaker
    private let library: PhotoLibrary
    private let pool: MediaWorkPool

    /// Derivatives of `library`'s assets into `cache`, made on `pool`.
    public init(library: PhotoLibrary, cache: any DerivativeCache, pool: MediaWorkPool) {
        maker = DerivativeMaker(library: library, cache: cache, metrics: Metrics(), pool: pool)
        self.library = library
        self.pool = pool
    }

    /// Claims the library's queued derivative jobs as node `claim.node` and makes them on every
    /// thread of the pool until none is left, calling `finished` after each job.
    package func drainJobs(claim: DerivativeJobClaim, finished: @escaping @Sendable (DerivativeJob, DerivativeJobOutcome) -> Void) {
        DerivativeJobWorker(library: library, maker: maker, claim: claim, leavingFree: 0).drain(workers: pool.workers, finished: finished)
    }

    /// The kinds made for an asset: what the web page shows first (the grid's still, the
    /// placeholder under it, the motion played on hover), at the routes' default sizes.
    func kinds(of asset: Asset, resources: [LibraryAssetResource]) -> [Derivative] {
        DerivativeJobKind.kinds(of: asset).map { Self.derivative($0, of: asset, resources: resources, maker: maker) }
    }

    /// The derivative a job of `kind` makes for `asset` with `resources`, at the routes' default
    /// sizes (the motion's clamped to its movie's size, as the route clamps it).
    static func derivative(
        _ kind: DerivativeJobKind, of asset: Asset, resources: [LibraryAssetResource], maker: DerivativeMaker
    ) -> Derivative {
        switch kind {
        case .placeholder: return .placeholder
        case .still: return .still(DerivativeMaker.stillSize(1024, asset: asset))
        case .motion:
            let size = maker.motionSize(720, asset: asset, resources: resources)
                ?? DerivativeSize.snapped(720, sourceLongSide: max(asset.pixelWidth, asset.pixelHeight))
            // A plain video's motion job makes its playable copy.
            return isPlainVideo(asset) ? .playback(size) : .motion(size)
        }
    }

    /// A video that is not a Live Photo: its motion job makes `playback.mp4`.
    static func isPlainVideo(_ asset: Asset) -> Bool { asset.mediaType == .video && !asset.isLivePhoto }

    /// Whether every derivative of `asset`'s current version (an edited asset's render) is
    /// cached already.
    public func isComplete(_ asset: Asset, resources: [LibraryAssetResource]) -> Bool {
        let shown = resources.shown(as: .current)
        return kinds(of: asset, resources: shown).allSatisfy { maker.cachedFile($0, resources: shown) != nil }
    }

    /// Makes the missing derivatives of `asset`'s current version (waiting for a free media
    /// thread for each); returns the messages of those that could not be made.
    public func make(_ asset: Asset, resources: [LibraryAssetResource]) -> [String] {
        let shown = resources.shown(as: .current)
        return kinds(of: asset, resources: shown).compactMap { maker.makeInBackground($0, asset: asset, resources: shown)?.message }
    }
}
