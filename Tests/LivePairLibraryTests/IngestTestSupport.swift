import Foundation
import LivePair
@testable import LivePairLibrary
import TestSupport
import Testing

/// Real Live Photo pairs from `SampleMedia/live` (still, movie).
let ingestSamplePairs: [(still: String, movie: String)] = [
    ("live/IMG_3582.HEIC", "live/IMG_3582.mov"),
    ("live/IMG_4580.HEIC", "live/IMG_4580.mov"),
    ("live/train.jpg", "live/train.mov"),
    ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"),
]

/// A library in a fresh directory (and for PostgreSQL a fresh schema), with helpers to check the
/// ingestion invariants.
struct IngestFixture {
    let scratch: StorageScratchDirectory
    /// The catalog kind.
    let kind: CatalogKind
    /// The PostgreSQL connection string (nil for SQLite).
    let postgresURL: String?
    var directory: String { scratch.file("library") }

    init(_ label: String, _ kind: CatalogKind) throws {
        scratch = try StorageScratchDirectory("ingest-\(label)")
        self.kind = kind
        postgresURL = kind == .postgres ? try PostgresTestServer.freshSchemaURL() : nil
        // A PostgreSQL catalog is created explicitly (as `livepair library init` does): commands
        // run on the fixture then find it.
        if postgresURL != nil { _ = try open() }
    }

    /// Opens the library (orphans are removed at once unless a grace period is given: no other
    /// process is using it).
    func open(
        orphanGracePeriod: Double = 0, faultInjector: (@Sendable (FaultPoint) throws -> Void)? = nil
    ) throws -> PhotoLibrary {
        let configuration = LibraryConfiguration(
            durableCommits: false, orphanGracePeriod: orphanGracePeriod, faultInjector: faultInjector)
        guard let postgresURL else { return try PhotoLibrary.open(at: directory, configuration: configuration) }
        return try PhotoLibrary.open(
            catalog: .postgres(connectionString: postgresURL), store: .directory(directory + "/resources"),
            configuration: configuration, create: true)
    }

    /// The command-line options that name this library (`--library DIR`, or `--catalog URL --store DIR`).
    var commandLineOptions: [String] {
        guard let postgresURL else { return ["--library", directory] }
        return ["--catalog", postgresURL, "--store", directory + "/resources"]
    }

    func remove() { scratch.remove() }
}

/// What the library holds, without the generated identifiers: compared across orders and runs.
struct IngestSnapshot: Equatable, CustomStringConvertible {
    var assets: [String]
    var pending: [String]
    var storedDigests: [String]

    var description: String { "assets: \(assets)\npending: \(pending)\nstored: \(storedDigests.count)" }
}

enum IngestInvariants {
    /// Checks the invariants crash safety promises and returns the snapshot:
    /// every asset has resources, each resource's file is in the store with its size; a Live Photo has
    /// exactly one still and one paired movie of one owner; every pending record's file is in the store
    /// and is not also in an asset of its owner; no stored file is unused (after recovery).
    static func check(_ library: PhotoLibrary, sourceLocation: SourceLocation = #_sourceLocation) throws -> IngestSnapshot {
        let assets = try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true))
        var lines: [String] = []
        var used: Set<ContentDigest> = []
        var ownedDigests: Set<String> = []
        for index in 0..<assets.count {
            let asset = try assets.object(at: index)
            let resources = try library.assetResources(for: asset)
            #expect(!resources.isEmpty, "asset \(asset.localIdentifier) has no resources", sourceLocation: sourceLocation)
            for resource in resources {
                let path = try library.storagePath(for: resource)
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
                #expect(UInt64(size) == resource.size, "resource \(resource.digest) of \(asset.localIdentifier) missing", sourceLocation: sourceLocation)
                used.insert(resource.digest)
                ownedDigests.insert("\(asset.owner ?? "-")|\(resource.digest.hex)")
            }
            if resources.contains(where: { $0.type == .pairedVideo }) {
                #expect(resources.filter { $0.type == .photo }.count == 1, sourceLocation: sourceLocation)
                #expect(resources.filter { $0.type == .pairedVideo }.count == 1, sourceLocation: sourceLocation)
                #expect(asset.isLivePhoto, sourceLocation: sourceLocation)
            }
            let kinds = resources.map { "\($0.type.rawValue):\($0.digest.hex.prefix(12))" }.sorted().joined(separator: ",")
            lines.append("\(asset.owner ?? "-")|\(asset.contentIdentifier ?? "-")|\(asset.mediaSubtypes.rawValue)|\(kinds)")
        }
        let pending = try Ingestor(library: library).pendingUploads(olderThan: 0)
        for upload in pending {
            #expect(library.store.contains(upload.resource.digest), "pending file missing", sourceLocation: sourceLocation)
            #expect(!ownedDigests.contains("\(upload.owner)|\(upload.resource.digest.hex)"),
                "\(upload.resource.digest) both pending and in an asset", sourceLocation: sourceLocation)
            used.insert(upload.resource.digest)
        }
        // Renders and .AAE files waiting for their original keep their files too.
        for part in try Ingestor(library: library).waitingEditParts() {
            #expect(library.store.contains(part.resource.digest), "waiting edit file missing", sourceLocation: sourceLocation)
            used.insert(part.resource.digest)
        }
        let stored = try library.store.allDigests()
        #expect(Set(stored) == used, "stored files and used files differ", sourceLocation: sourceLocation)
        return IngestSnapshot(
            assets: lines.sorted(),
            pending: pending.map { "\($0.owner)|\($0.contentIdentifier)|\($0.type.rawValue)|\($0.resource.digest.hex.prefix(12))" }.sorted(),
            storedDigests: stored.map(\.hex).sorted())
    }
}

/// Runs the built `livepair` executable (found by `LivePairBinary`) with extra environment variables.
enum IngestBinary {
    static var path: String? { LivePairBinary.url?.path }

    /// Starts `livepair arguments...` with extra environment variables (`ChildProcess.start`:
    /// standard output and error kept for the failure's message: the report names each file that
    /// was rejected or failed, and why).
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Running {
        let binary = try #require(path, "the livepair executable is not built")
        return try ChildProcess.start(binary, arguments, environment: environment, keepsOutput: true)
    }

    /// Runs `livepair arguments...` to the end (`ChildProcess`, output discarded) and returns its exit status.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Int32 {
        let binary = try #require(path, "the livepair executable is not built")
        return try ChildProcess.run(binary, arguments, environment: environment, keepsOutput: false, standardError: .discarded).status
    }
}
