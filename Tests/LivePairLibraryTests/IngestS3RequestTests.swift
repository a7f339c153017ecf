import Foundation
import LivePair
import LivePairFormats
@testable import LivePairLibrary
import LivePairS3
import TestSupport
import Testing

/// The requests an ingest makes of the object store, counted by the S3 client on the real
/// SeaweedFS test server: two nodes (two libraries on one PostgreSQL catalog and one S3 store,
/// each with its own cache folder) take the halves of each Live Photo, the first half (still or
/// movie) on one, the other half on the other. Nothing the nodes have just uploaded is fetched back: the arriving half
/// is identified from its upload still on the node's disk, the partner from ranged reads of its
/// object; no whole object is fetched and the caches stay empty. The assets are the ones a
/// directory library makes from the same files.
@Suite struct IngestS3RequestTests {
    /// The size of the ranged reads of `S3ObjectByteSource`.
    static let window = UInt64(S3ObjectByteSource.windowSize)

    @Test(arguments: [false, true]) func halvesOnTwoNodesFetchNothingBack(movieFirst: Bool) throws {
        let bucket = try MultiNodeBucket()
        defer { bucket.drop() }
        let catalog = try PostgresTestServer.freshSchemaURL()
        let caches = [try makeTemporaryDirectory("cache-a"), try makeTemporaryDirectory("cache-b")]
        let nodes = try caches.map { cache in
            try PhotoLibrary.open(
                catalog: .postgres(connectionString: catalog), store: .s3(bucket: bucket.bucket, prefix: MultiNodeBucket.prefix),
                configuration: LibraryConfiguration(orphanGracePeriod: 3600), create: true, s3Endpoint: bucket.endpoint,
                s3CacheDirectory: cache)
        }
        let clients = try nodes.map { try #require($0.resourceStore as? S3ResourceStore).client }
        let before = clients.map(\.firstAttemptCounts)
        let ingestors = nodes.map { Ingestor(library: $0) }
        var assets: [String: String] = [:]
        var partnerWindows = 0
        for (still, movie) in ingestSamplePairs {
            let identifier = try #require(SampleMedia.entry(still)?.contentIdentifier)
            let (first, second) = movieFirst ? (movie, still) : (still, movie)
            #expect(try ingestors[0].ingest(fileAt: SampleMedia.path(first), owner: "o") == .pending(contentIdentifier: identifier))
            let outcome = try ingestors[1].ingest(fileAt: SampleMedia.path(second), owner: "o")
            let asset: String = try #require(outcome.localIdentifier, "\(second) links the pair: \(outcome)")
            assets[still] = asset
            partnerWindows += try Self.rangedGets(identifying: SampleMedia.path(first))
        }
        let pairs = ingestSamplePairs.count
        let firsts = clients[0].firstAttemptCounts.since(before[0])
        let seconds = clients[1].firstAttemptCounts.since(before[1])
        // The first half's node: one PUT per upload (write-once), and one HEAD: the check under
        // the catalog's lock (the group's flush trusts the PUT's answer). Nothing is read.
        #expect(firsts == S3RequestCounts(heads: pairs, puts: pairs), "\(firsts)")
        // The second half's node: one PUT; HEADs under the lock for its upload and the partner,
        // once each (the preparation and the final check before the rows reuse the answers); the
        // partner is identified by ranged reads: the windows its identification's reads need
        // (a still: its first and last 256 KiB; a movie: its head, its `moov` at the end, and the
        // still-image-time sample in `mdat` unless a window already holds it). No whole GET: its
        // own upload is read from its file.
        #expect(seconds == S3RequestCounts(rangedGets: partnerWindows, heads: 2 * pairs, puts: pairs), "\(seconds)")
        #expect(partnerWindows == (movieFirst ? 11 : 8), "the samples' layout: \(partnerWindows) windows")
        for cache in caches {
            #expect(try FileManager.default.contentsOfDirectory(atPath: cache) == [], "nothing fetched into \(cache)")
        }

        // The same assets as a directory library makes from the same files, read from whole files.
        let reference = try PhotoLibrary.open(at: try makeTemporaryDirectory("reference"))
        let referenceIngestor = Ingestor(library: reference)
        for (still, movie) in ingestSamplePairs {
            _ = try referenceIngestor.ingest(fileAt: SampleMedia.path(still), owner: "o")
            let outcome = try referenceIngestor.ingest(fileAt: SampleMedia.path(movie), owner: "o")
            let expected = try Self.description(of: try #require(outcome.localIdentifier), in: reference)
            let found = try Self.description(of: try #require(assets[still]), in: nodes[0])
            #expect(found == expected, "\(still)")
        }
    }

    /// What an ingested asset says, without its identifiers and dates of addition.
    static func description(of identifier: String, in library: PhotoLibrary) throws -> String {
        let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
        let resources = try library.assetResources(for: asset).map { "\($0.type) \($0.digest.hex) \($0.uniformTypeIdentifier ?? "-")" }
        return [
            "\(asset.mediaType) \(asset.mediaSubtypes) \(asset.pixelWidth)x\(asset.pixelHeight) \(asset.duration)",
            "\(asset.creationDate.map { "\($0.timeIntervalSince1970)" } ?? "-") \(String(describing: asset.location))",
            "\(asset.contentIdentifier ?? "-") \(asset.stillImageTime.map { "\($0)" } ?? "-")",
            asset.findings.map { "\($0.code) \($0.path) \($0.message)" }.joined(separator: "; "),
        ].joined(separator: "\n") + "\n" + resources.sorted().joined(separator: "\n")
    }

    /// How many ranged GETs identifying the file at `path` through `S3ObjectByteSource` takes:
    /// identification's reads of the file, replayed against that source's rule (a read outside the
    /// window it holds fetches a new one of at least `window` bytes from the read, or ending at
    /// the end when it would pass it).
    static func rangedGets(identifying path: String) throws -> Int {
        let source = RecordingByteSource(try FileByteSource(path: path))
        _ = ResourceIdentifier().identify(source: source, path: path)
        var held: Range<UInt64>?
        var gets = 0
        for read in source.reads where !read.isEmpty {
            if let held, held.contains(read.lowerBound), read.upperBound <= held.upperBound { continue }
            gets += 1
            let length = max(read.upperBound - read.lowerBound, window)
            let start = read.lowerBound + length > source.size ? source.size - min(source.size, length) : read.lowerBound
            held = start..<min(source.size, start + length)
        }
        return gets
    }
}

/// A byte source that records the ranges read from it.
private final class RecordingByteSource: ByteSource, @unchecked Sendable {
    // Sendable: used on one thread.
    private let base: any ByteSource
    private(set) var reads: [Range<UInt64>] = []
    var size: UInt64 { base.size }
    var name: String { base.name }

    init(_ base: any ByteSource) { self.base = base }

    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        let bytes = try base.read(at: offset, count: count)
        reads.append(offset..<offset + UInt64(bytes.count))
        return bytes
    }
}
