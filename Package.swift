// swift-tools-version: 6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 language mode (strict concurrency) plus the
/// upcoming features that keep dependencies explicit.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "LivePair",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LivePair", targets: ["LivePair"]),
        .library(name: "LivePairCore", targets: ["LivePairCore"]),
        .library(name: "LivePairFormats", targets: ["LivePairFormats"]),
        .library(name: "LivePairMedia", targets: ["LivePairMedia"]),
        .library(name: "LivePairLibrary", targets: ["LivePairLibrary"]),
        .library(name: "LivePairServer", targets: ["LivePairServer"]),
        .executable(name: "livepair", targets: ["livepair"]),
        .executable(name: "livepair-media", targets: ["livepair-media"]),
        .executable(name: "livepair-bench", targets: ["livepair-bench"]),
    ],
    targets: [
        // C libraries from Debian packages, found through pkg-config. Only the bridges import them:
        // LivePairMedia (FFmpeg, turbojpeg, libheif), LivePairSQLite (SQLite), LivePairCrypto
        // (OpenSSL's libcrypto, for SHA-256), LivePairArchive (libarchive) and LibExifReference (libexif, for tests and benchmarks).
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat libavcodec libavutil libswscale",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CExif", path: "Sources/CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(
            name: "CHeif", path: "Sources/CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(
            name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CArchive", path: "Sources/CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),

        // Pure Swift: what the bytes say. No C library.
        .target(name: "LivePairFormats", swiftSettings: strictSettings),
        // The media bridge: decoding and encoding through the C libraries.
        .target(
            name: "LivePairMedia",
            dependencies: ["LivePairFormats", "CFFmpeg", "CTurboJPEG", "CHeif"],
            swiftSettings: strictSettings),
        // libexif as a reference reader (like exiftool): the Exif cross-check tests and the Exif
        // benchmark's baseline. No shipped module links it.
        .target(name: "LibExifReference", dependencies: ["CExif"], swiftSettings: strictSettings),
        // What files mean without decoding them: identity, pairing, validation (deep decoding injected).
        // No C library, so that `livepair` starts without loading the media libraries.
        .target(name: "LivePairCore", dependencies: ["LivePairFormats"], swiftSettings: strictSettings),
        // The toolkit: LivePairCore (re-exported) plus loading, packaging and deep validation.
        .target(
            name: "LivePair", dependencies: ["LivePairCore", "LivePairFormats", "LivePairMedia"],
            swiftSettings: strictSettings),
        // The catalog bridge: SQLite statements and transactions behind a small Swift surface.
        .target(name: "LivePairSQLite", dependencies: ["CSQLite"], swiftSettings: strictSettings),
        // The server catalog bridge: libpq connections, parameterised statements, transactions, LISTEN/NOTIFY.
        .target(name: "LivePairPostgres", dependencies: ["CPostgres"], swiftSettings: strictSettings),
        // The digest bridge: SHA-256 through libcrypto (content addresses of stored resources).
        .target(name: "LivePairCrypto", dependencies: ["CCrypto"], swiftSettings: strictSettings),
        // The object-store bridge: an S3 client over libcurl (SigV4, write-once PUT, ranged GET, listing).
        .target(name: "LivePairS3", dependencies: ["CCurl", "LivePairCrypto"], swiftSettings: strictSettings),
        // Where pairs end up: the on-disk library, its catalog, change requests, fetches, ingestion.
        .target(
            name: "LivePairLibrary",
            dependencies: [
                "LivePair", "LivePairFormats", "LivePairSQLite", "LivePairPostgres", "LivePairCrypto", "LivePairLogging",
                "LivePairS3",
            ],
            swiftSettings: strictSettings),
        // The archive bridge: zip and tar.gz parts of exports streamed member by member through
        // libarchive, in place and bounded (docs/exports.md).
        .target(
            name: "LivePairArchive", dependencies: ["CArchive", "LivePairFormats", "LivePairCrypto"], swiftSettings: strictSettings),
        // A client of ingest node processes (`livepair import --files-from - --json-lines`): paths
        // in, outcome lines out. Used by the multi-node tests and `livepair-bench ingest --nodes`.
        .target(name: "LivePairNodeClient", swiftSettings: strictSettings),
        // A small swift-log-shaped facade (Logger, LogHandler, JSON lines): the library logs through it.
        .target(name: "LivePairLogging", swiftSettings: strictSettings),
        // The HTTP service (`livepair serve`): libmicrohttpd routes over the library, the ingestor and the loader.
        .target(
            name: "LivePairServer",
            dependencies: [
                "CMicroHTTPD", "LivePair", "LivePairFormats", "LivePairMedia", "LivePairLibrary", "LivePairLogging", "LivePairCrypto",
                "LivePairS3",
            ],
            swiftSettings: strictSettings),
        // The command library behind the `livepair` executable: inspect, pair, validate, help; links
        // no C library. The other commands run in `livepair-media`, which `livepair` executes.
        .target(name: "LivePairCLI", dependencies: ["LivePairCore", "LivePairFormats"], swiftSettings: strictSettings),
        // The commands that decode, encode or open a library: preview, make, restamp, convert,
        // library, import, validate --deep.
        .target(
            name: "LivePairMediaCLI",
            dependencies: [
                "LivePairCLI", "LivePair", "LivePairFormats", "LivePairMedia", "LivePairLibrary", "LivePairServer",
                "LivePairLogging", "LivePairArchive", "LivePairCrypto",
            ],
            swiftSettings: strictSettings),
        .executableTarget(name: "livepair", dependencies: ["LivePairCLI"], swiftSettings: strictSettings),
        .executableTarget(name: "livepair-media", dependencies: ["LivePairMediaCLI"], swiftSettings: strictSettings),
        .executableTarget(
            name: "livepair-bench",
            dependencies: [
                "LivePair", "LivePairFormats", "LivePairMedia", "LivePairLibrary", "LivePairCrypto", "LibExifReference",
                "LivePairPostgres", "LivePairServer",
                "LivePairCLI", "LivePairNodeClient",
            ],
            swiftSettings: strictSettings),

        // The embedding example (docs/embedding.md): an ingestion worker on the public API only,
        // built with the package so that the documented API cannot drift; ExampleIngestWorkerTests runs it.
        .executableTarget(
            name: "livepair-example-ingest", dependencies: ["LivePair", "LivePairLibrary", "LivePairMedia"], path: "Examples/IngestWorker",
            swiftSettings: strictSettings),

        .target(name: "TestPoolWidening", path: "Tests/TestPoolWidening"),
        .target(
            name: "TestSupport", dependencies: ["LivePairFormats", "LivePairS3", "TestPoolWidening"], path: "Tests/TestSupport",
            swiftSettings: strictSettings),
        .testTarget(name: "LivePairFormatsTests", dependencies: ["LivePairFormats", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "LivePairMediaTests", dependencies: ["LivePairMedia", "LibExifReference", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(name: "LivePairTests", dependencies: ["LivePair", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "LivePairCryptoTests", dependencies: ["LivePairCrypto", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "LivePairSQLiteTests", dependencies: ["LivePairSQLite"], swiftSettings: strictSettings),
        .testTarget(
            name: "LivePairArchiveTests", dependencies: ["LivePairArchive", "LivePairCrypto", "LivePairFormats", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(name: "LivePairS3Tests", dependencies: ["LivePairS3", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "LivePairPostgresTests", dependencies: ["LivePairPostgres", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "LivePairLibraryTests", dependencies: ["LivePairLibrary", "LivePair", "LivePairS3", "LivePairNodeClient", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LivePairCLITests", dependencies: ["LivePairCLI", "LivePairLibrary", "LivePairS3", "TestSupport"],
            // The text reports as printed before they went through the output buffer (TextReportBytesTests),
            // and the call-counting library SystemCallCountTests compiles and preloads.
            exclude: ["ExpectedReports", "SystemCalls"], swiftSettings: strictSettings),
        .testTarget(
            name: "LivePairServerTests",
            dependencies: ["LivePairServer", "LivePairLibrary", "LivePairLogging", "LivePairMedia", "LivePairS3", "TestSupport"],
            exclude: ["browser"], swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
