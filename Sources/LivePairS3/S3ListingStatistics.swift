import Synchronization

/// What a client's listings have cost so far: the ListObjectsV2 requests it sent and the object
/// summaries they returned (a listing is the S3 request whose cost grows with the bucket).
public struct S3ListingStatistics: Equatable, Sendable {
    /// The list requests answered (one per page).
    public var requests = 0
    /// The objects those pages listed.
    public var objects = 0
}

/// The counters behind `S3Client.listingStatistics`.
final class S3ListingCounters: Sendable {
    private let requests = Atomic<Int>(0)
    private let objects = Atomic<Int>(0)

    /// Counts one answered page of `objectCount` objects.
    func count(pageOf objectCount: Int) {
        requests.add(1, ordering: .relaxed)
        objects.add(objectCount, ordering: .relaxed)
    }

    var statistics: S3ListingStatistics {
        S3ListingStatistics(requests: requests.load(ordering: .relaxed), objects: objects.load(ordering: .relaxed))
    }
}
