import Foundation

/// What a derivative job makes for its asset: the web derivatives `livepair serve` shows first.
package enum DerivativeJobKind: String, Sendable, Hashable, CaseIterable {
    /// The small degraded first image.
    case placeholder
    /// The grid still (`still.jpg` at its default size).
    case still
    /// The motion movie (`motion.mp4` at its default size), for Live Photos and videos.
    case motion

    /// The kinds an asset gets: a placeholder and a still, and the motion for a Live Photo or a video.
    package static func kinds(of asset: Asset) -> [DerivativeJobKind] {
        asset.isLivePhoto || asset.mediaType == .video ? [.placeholder, .still, .motion] : [.placeholder, .still]
    }
}

/// Where a derivative job is.
package enum DerivativeJobState: String, Sendable, Hashable, CaseIterable {
    /// Waiting for a worker.
    case queued
    /// Claimed by a node (`DerivativeJob.node`) at `claimedAt`; taken again once its lease expires.
    case running
    /// Made (or found made).
    case done
    /// Given up: `DerivativeJob.cause` says why.
    case failed
}

/// One row of the catalog's job table: one derivative of one asset, made in the background.
package struct DerivativeJob: Sendable, Hashable {
    /// The row's number (a job queued again for a changed asset gets a new one).
    package var id: Int64
    /// The asset the derivative is made from.
    package var assetIdentifier: String
    package var kind: DerivativeJobKind
    package var state: DerivativeJobState
    /// How many times a worker has claimed it.
    package var attempts: Int
    /// The node that claimed it last, and when (seconds since the reference date).
    package var node: String?
    package var claimedAt: Double?
    /// Why it failed (or why its last attempt did).
    package var cause: String?
}

/// How a claimed job ended.
package enum DerivativeJobOutcome: Sendable, Hashable {
    /// The derivative is made.
    case done
    /// It cannot be made (the source does not decode, nothing to make it from): never tried again.
    case failed(cause: String)
    /// It could not be made this time (a store or catalog failure): queued again while the job has
    /// attempts left, failed otherwise.
    case retry(cause: String)
}

/// How workers claim jobs.
package struct DerivativeJobClaim: Sendable {
    /// The worker's node (host name and process), recorded on the job.
    package var node: String
    /// Seconds after which a running job is taken to be lost (its node killed) and claimed again.
    package var leaseSeconds: Double
    /// Claims after which a job whose lease keeps expiring, or that keeps failing to be retried, is failed.
    package var maxAttempts: Int

    package init(node: String, leaseSeconds: Double = 600, maxAttempts: Int = 3) {
        self.node = node
        self.leaseSeconds = leaseSeconds
        self.maxAttempts = maxAttempts
    }

    /// This process's node name: the host name and the process ID.
    package static var thisProcess: String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
    }
}

/// The job table's statements, the same on both catalogs but for the parameter markers.
enum DerivativeJobSQL {
    static let columns = "id, asset_id, kind, state, attempts, node, claimed_at, cause"

    /// The start of the cause recorded on a job whose lease expired too often (the count follows).
    static let expiredCausePrefix = "its worker stopped before finishing (the lease expired) "

    /// The state and cause an outcome writes; `retry` is decided by the attempts left.
    static func finished(_ outcome: DerivativeJobOutcome) -> (state: String, cause: String?) {
        switch outcome {
        case .done: return (DerivativeJobState.done.rawValue, nil)
        case let .failed(cause): return (DerivativeJobState.failed.rawValue, cause)
        case let .retry(cause): return ("retry", cause)
        }
    }
}
