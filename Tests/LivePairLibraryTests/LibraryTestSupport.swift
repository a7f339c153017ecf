import Foundation
import LivePair
@testable import LivePairLibrary
import TestSupport
import Testing

/// The sample Live Photo pairs (still, movie) used by the library tests.
enum SamplePairs {
    static let iPhone15 = ("live/IMG_3582.HEIC", "live/IMG_3582.mov")
    static let iPhone15Second = ("live/IMG_4580.HEIC", "live/IMG_4580.mov")
    static let photosLibrary = ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov")
    static let train = ("live/train.jpg", "live/train.mov")
    static let all = [iPhone15, iPhone15Second, photosLibrary, train]
}

/// A new empty directory in the test process's scratch folder (removed when the process ends).
func makeTemporaryDirectory(_ label: String = "library") throws -> String {
    try TestScratch.folder(label)
}

/// The catalogs the library suite runs against: every library test runs once on each.
enum CatalogKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The embedded default: a directory with `catalog.sqlite` and `resources/`.
    case sqlite
    /// A fresh schema on the test process's PostgreSQL server, with a resource directory.
    case postgres

    var testDescription: String { rawValue }

    /// The kinds a parameterized library test runs with in this test process: both, or only the
    /// embedded kind when the library tests run again with their resources on S3
    /// (`LIVEPAIR_TEST_STORE=s3`, scripts/test.sh's library-on-s3): a PostgreSQL library keeps its
    /// resources in a directory in that run too (`newLocations`), so its cases would repeat the
    /// first run's exactly.
    static var underTest: [CatalogKind] { S3StoreTestSupport.librariesUseS3 ? [.sqlite] : allCases }

    /// Where a new, empty library of this kind goes: a fresh directory, and for PostgreSQL a fresh schema.
    func newLocations() throws -> (catalog: CatalogLocation, store: StoreLocation) {
        let directory = try makeTemporaryDirectory()
        switch self {
        case .sqlite:
            return (.sqlite(path: directory + "/" + PhotoLibrary.catalogFileName), .directory(directory + "/" + PhotoLibrary.resourcesDirectoryName))
        case .postgres:
            return (.postgres(connectionString: try PostgresTestServer.freshSchemaURL()), .directory(directory + "/resources"))
        }
    }
}

/// Opens a library: a new one of `kind` (the embedded kind through `open(at:)`, as applications
/// do), or another instance of `other` (two connections, as two processes or nodes would have).
/// Orphans are swept at once on open. With `LIVEPAIR_TEST_STORE=s3` a directory library keeps its
/// resources in a bucket of its own on the test SeaweedFS server (the catalog stays in the directory).
func makeLibrary(
    _ kind: CatalogKind, sharing other: PhotoLibrary? = nil, configuration: LibraryConfiguration? = nil,
    faultInjector: (@Sendable (FaultPoint) throws -> Void)? = nil
) throws -> PhotoLibrary {
    let configuration = configuration ?? LibraryConfiguration(orphanGracePeriod: 0, faultInjector: faultInjector)
    if let other {
        if case .s3 = other.storeLocation { return try openDirectoryLibrary(at: other.directory, configuration: configuration) }
        return try PhotoLibrary.open(catalog: other.catalogLocation, store: other.storeLocation, configuration: configuration)
    }
    if kind == .sqlite { return try openDirectoryLibrary(at: try makeTemporaryDirectory(), configuration: configuration) }
    let locations = try kind.newLocations()
    return try PhotoLibrary.open(catalog: locations.catalog, store: locations.store, configuration: configuration, create: true)
}

/// Opens (creating when needed) the directory library at `directory`, for the tests of a
/// directory library's own rules; orphans are swept at once on open.
func makeLibrary(at directory: String) throws -> PhotoLibrary {
    try openDirectoryLibrary(at: directory, configuration: LibraryConfiguration(orphanGracePeriod: 0))
}

/// Opens the directory library at `path`, with its resources on S3 under `LIVEPAIR_TEST_STORE=s3`
/// (the catalog stays in the directory; `PhotoLibrary.open(at:store:)` applies the same opening and
/// identity rules). An S3 open sweeps one shard of the store for orphans, so there the whole store
/// is swept after opening (the maintenance sweep), as opening a resource directory does.
func openDirectoryLibrary(at path: String, configuration: LibraryConfiguration) throws -> PhotoLibrary {
    guard S3StoreTestSupport.librariesUseS3 else { return try PhotoLibrary.open(at: path, configuration: configuration) }
    let store = try S3StoreTestSupport.store(forLibraryAt: path)
    let library = try PhotoLibrary.open(at: path, store: store, configuration: configuration)
    if configuration.access == .readWrite { try library.removeUnreferencedResources(olderThan: configuration.orphanGracePeriod) }
    return library
}

/// Imports one Live Photo (copies) and returns the outcome.
@discardableResult
func importPair(
    _ pair: (String, String), into library: PhotoLibrary, owner: String? = nil, creationDate: Date? = nil,
    move: Bool = false
) throws -> ChangeResult.AssetOutcome {
    let result = try library.performChangesAndWait { _ in
        let request = AssetCreationRequest.creationRequestForAsset()
        request.owner = owner
        request.creationDate = creationDate
        let options = AssetResourceCreationOptions(shouldMoveFile: move)
        request.addResource(with: .photo, path: pair.0.hasPrefix("/") ? pair.0 : SampleMedia.path(pair.0), options: options)
        request.addResource(with: .pairedVideo, path: pair.1.hasPrefix("/") ? pair.1 : SampleMedia.path(pair.1), options: options)
    }
    return try #require(result.assets.first)
}

/// Everything observable about a library: assets (hidden included), resources, albums with their
/// members, and the digests in the store.
struct LibrarySnapshot: Equatable {
    var assets: [Asset]
    var resources: [LibraryAssetResource]
    var collections: [String: [String]]
    var storedDigests: [String]
    var changeSequence: Int64

    init(_ library: PhotoLibrary) throws {
        let fetched = try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true))
        assets = Array(fetched)
        resources = try assets.flatMap { try library.assetResources(for: $0) }
        var collections: [String: [String]] = [:]
        for collection in try library.fetchAssetCollections() {
            collections[collection.localIdentifier] =
                try library.fetchAssets(in: collection, options: FetchOptions(includeHiddenAssets: true)).localIdentifiers
        }
        self.collections = collections
        storedDigests = try library.store.allDigests().map(\.hex).sorted()
        changeSequence = try library.currentChangeSequence()
    }
}

/// Collects the changes an observer receives.
final class RecordingObserver: LibraryChangeObserver, @unchecked Sendable {
    // Sendable: `changes` is guarded by `lock`.
    private let lock = NSLock()
    private var received: [LibraryChange] = []

    func photoLibraryDidChange(_ change: LibraryChange) { lock.withLock { received.append(change) } }

    var changes: [LibraryChange] { lock.withLock { received } }

    func reset() { lock.withLock { received.removeAll() } }
}

/// A date `seconds` after 2024-01-01 00:00 UTC.
func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_704_067_200 + seconds) }

/// An error thrown by injected faults.
struct InjectedFault: Error {}

/// The command-line options that name `library`: `--library DIR`, or `--catalog URL --store DIR`,
/// or with its resources on S3 `--catalog URL|FILE --store s3://BUCKET/PREFIX --s3-endpoint URL`.
func commandLineOptions(for library: PhotoLibrary) throws -> [String] {
    switch (library.catalogLocation, library.storeLocation) {
    case let (.postgres(connectionString), .directory(store)): return ["--catalog", connectionString, "--store", store]
    case let (.postgres(connectionString), .s3):
        return ["--catalog", connectionString, "--store", library.storeLocation.description]
            + ["--s3-endpoint", try SeaweedFSTestServer.shared().endpoint]
    case let (.sqlite(path), .s3):
        return ["--catalog", path, "--store", library.storeLocation.description]
            + ["--s3-endpoint", try SeaweedFSTestServer.shared().endpoint]
    case (.sqlite, .directory): return ["--library", library.directory]
    }
}

/// The environment a `livepair` process needs beside `commandLineOptions(for:)`: the test S3
/// server's keys when the library's resources are on S3.
func commandLineEnvironment(for library: PhotoLibrary) throws -> [String: String] {
    guard case .s3 = library.storeLocation else { return [:] }
    let server = try SeaweedFSTestServer.shared()
    return [
        "AWS_ACCESS_KEY_ID": server.accessKeyID, "AWS_SECRET_ACCESS_KEY": server.secretAccessKey, "AWS_REGION": server.region,
        "LIVEPAIR_S3_CACHE": library.directory + ".s3-cache",
    ]
}
