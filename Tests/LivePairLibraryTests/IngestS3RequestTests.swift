import Foundation
import LivePair
import LivePairFormats
@testable import LivePairLibrary
import LivePairS3
import TestSupport
import Testing

/// The requests an ingest makes of the object store, counted by the S3 client on the real
/// SeaweedFS test server: two nodes (two libraries on one PostgreSQL catalog and one S3 store,
/// each with its own cache folder) take the halves of each Live Photo, the still on one, the
/// movie on the other. Nothing the nodes have just uploaded is fetched back: the arriving half
/// is identified from its upload still on the node's disk, the partner from ranged reads of its
/// object; no whole object is fetched and the caches stay empty. The assets are the ones a
/// directory library makes from the same files.
@Suite struct IngestS3RequestTests {
    /// The size of the ranged reads of `S3ObjectByteSource`.
    static let window = UInt64(S3ObjectByteSource.windowSize)

    @Test func halvesOnTwoNodesFetchNothingBack() throws {
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
        let before = clients.map(\.requestCounts)
        let ingestors = nodes.map { Ingestor(library: $0) }
        var assets: [String: String] = [:]
        for (still, movie) in ingestSamplePairs {
            let identifier = try #require(SampleMedia.entry(still)?.contentIdentifier)
            #expect(try ingestors[0].ingest(fileAt: SampleMedia.path(still), owner: "o") == .pending(contentIdentifier: identifier))
            let outcome = try ingestors[1].ingest(fileAt: SampleMedia.path(movie), owner: "o")
            let asset: String = try #require(outcome.localIdentifier, "\(movie) links the pair: \(outcome)")
            assets[still] = asset
        }
        let pairs = ingestSamplePairs.count
        let stills = clients[0].requestCounts.since(before[0])
        let movies = clients[1].requestCounts.since(before[1])
        // The still's node: one PUT per upload (write-once), and one HEAD: the check under the
        // catalog's lock (the group's flush trusts the PUT's answer). Nothing is read.
        #expect(stills == S3RequestCounts(heads: pairs, puts: pairs), "\(stills)")
        // The movie's node: one PUT; HEADs under the lock for the movie and its partner, once
        // each (the preparation and the final check before the rows reuse the answers); the
        // partner still is identified by ranged reads: two windows each, the first and the last
        // (every read its identification makes lies in one or the other: the headers, and the
        // trailer checks at the end; checked below). No whole GET.
        #expect(movies == S3RequestCounts(rangedGets: 2 * pairs, heads: 2 * pairs, puts: pairs), "\(movies)")
        for (still, _) in ingestSamplePairs {
            let reads = try Self.identificationReads(SampleMedia.path(still))
            let size = try FileByteSource(path: SampleMedia.path(still)).size
            #expect(size > 2 * Self.window)
            #expect(reads.allSatisfy { $0.upperBound <= Self.window || $0.lowerBound >= size - Self.window }, "\(still): \(reads)")
            #expect(reads.contains { $0.lowerBound == 0 } && reads.contains { $0.upperBound == size }, "\(still): \(reads)")
        }
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

    /// The byte ranges identification reads of the file at `path`, in order.
    static func identificationReads(_ path: String) throws -> [Range<UInt64>] {
        let source = RecordingByteSource(try FileByteSource(path: path))
        _ = ResourceIdentifier().identify(source: source, path: path)
        return source.reads
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
