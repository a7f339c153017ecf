import Synchronization

/// How many HTTP requests a client has sent, by kind: in `S3Client.requestCounts` every attempt
/// counts, retries included; `S3Client.firstAttemptCounts` leaves the retries out.
/// For tests and benchmarks that prove which round trips a workload makes (an ingest that must
/// not fetch back what it has just uploaded, say).
public struct S3RequestCounts: Sendable, Equatable, CustomStringConvertible {
    /// GETs of a whole object (the identity marker, a cached copy's fetch).
    public var wholeGets = 0
    /// GETs of a byte range (`Range:`).
    public var rangedGets = 0
    /// HEADs.
    public var heads = 0
    /// PUTs of objects (bucket creation included).
    public var puts = 0
    /// DELETEs.
    public var deletes = 0
    /// Listing pages.
    public var lists = 0
    /// The objects those listing pages named (what a listing costs grows with it).
    public var listedObjects = 0

    /// Counts of zero.
    public init(
        wholeGets: Int = 0, rangedGets: Int = 0, heads: Int = 0, puts: Int = 0, deletes: Int = 0, lists: Int = 0,
        listedObjects: Int = 0
    ) {
        self.wholeGets = wholeGets
        self.rangedGets = rangedGets
        self.heads = heads
        self.puts = puts
        self.deletes = deletes
        self.lists = lists
        self.listedObjects = listedObjects
    }

    /// The requests sent since `earlier` (a snapshot taken before).
    public func since(_ earlier: S3RequestCounts) -> S3RequestCounts {
        S3RequestCounts(
            wholeGets: wholeGets - earlier.wholeGets, rangedGets: rangedGets - earlier.rangedGets, heads: heads - earlier.heads,
            puts: puts - earlier.puts, deletes: deletes - earlier.deletes, lists: lists - earlier.lists,
            listedObjects: listedObjects - earlier.listedObjects)
    }

    public var description: String {
        "GET \(wholeGets) whole + \(rangedGets) ranged, HEAD \(heads), PUT \(puts), DELETE \(deletes), LIST \(lists) (\(listedObjects) objects)"
    }

    /// Counts one request.
    mutating func count(method: String, ranged: Bool, listing: Bool) {
        switch method {
        case "GET" where listing: lists += 1
        case "GET": if ranged { rangedGets += 1 } else { wholeGets += 1 }
        case "HEAD": heads += 1
        case "PUT": puts += 1
        case "DELETE": deletes += 1
        default: break
        }
    }
}

/// The client's running counts: every attempt, and apart the attempts that repeated a failed one.
final class S3RequestCounter: Sendable {
    private let counts = Mutex((all: S3RequestCounts(), retries: S3RequestCounts()))

    /// Counts one attempt; `retry` when it repeats a failed attempt of the same request.
    func count(method: String, ranged: Bool, listing: Bool, retry: Bool) {
        counts.withLock {
            $0.all.count(method: method, ranged: ranged, listing: listing)
            if retry { $0.retries.count(method: method, ranged: ranged, listing: listing) }
        }
    }

    /// Counts the objects one answered listing page named.
    func countListed(objects: Int) { counts.withLock { $0.all.listedObjects += objects } }

    /// Every attempt.
    var snapshot: S3RequestCounts { counts.withLock { $0.all } }

    /// The attempts that were not retries: one per request the client's callers made.
    var firstAttempts: S3RequestCounts { counts.withLock { $0.all.since($0.retries) } }
}
