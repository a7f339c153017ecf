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
        .library(name: "LivePairFormats", targets: ["LivePairFormats"]),
        .library(name: "LivePairMedia", targets: ["LivePairMedia"]),
        .library(name: "LivePairLibrary", targets: ["LivePairLibrary"]),
        .executable(name: "livepair", targets: ["livepair"]),
        .executable(name: "livepair-bench", targets: ["livepair-bench"]),
    ],
    targets: [
        // C libraries from Debian packages, found through pkg-config. Only the bridges import them:
        // LivePairMedia (FFmpeg, turbojpeg, libexif, libheif), LivePairSQLite (SQLite) and
        // LivePairCrypto (OpenSSL's libcrypto, for SHA-256).
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

        // Pure Swift: what the bytes say. No C library.
        .target(name: "LivePairFormats", swiftSettings: strictSettings),
        // The media bridge: decoding and encoding through the C libraries.
        .target(
            name: "LivePairMedia",
            dependencies: ["LivePairFormats", "CFFmpeg", "CTurboJPEG", "CExif", "CHeif"],
            swiftSettings: strictSettings),
        // The toolkit: identity, pairing, validation, loading, library.
        .target(name: "LivePair", dependencies: ["LivePairFormats", "LivePairMedia"], swiftSettings: strictSettings),
        // The catalog bridge: SQLite statements and transactions behind a small Swift surface.
        .target(name: "LivePairSQLite", dependencies: ["CSQLite"], swiftSettings: strictSettings),
        // The server catalog bridge: libpq connections, parameterised statements, transactions, LISTEN/NOTIFY.
        .target(name: "LivePairPostgres", dependencies: ["CPostgres"], swiftSettings: strictSettings),
        // The digest bridge: SHA-256 through libcrypto (content addresses of stored resources).
        .target(name: "LivePairCrypto", dependencies: ["CCrypto"], swiftSettings: strictSettings),
        // Where pairs end up: the on-disk library, its catalog, change requests, fetches, ingestion.
        .target(
            name: "LivePairLibrary", dependencies: ["LivePair", "LivePairFormats", "LivePairSQLite", "LivePairPostgres", "LivePairCrypto"],
            swiftSettings: strictSettings),
        // The command library behind the `livepair` executable.
        .target(name: "LivePairCLI", dependencies: ["LivePair", "LivePairLibrary"], swiftSettings: strictSettings),
        .executableTarget(name: "livepair", dependencies: ["LivePairCLI"], swiftSettings: strictSettings),
        .executableTarget(
            name: "livepair-bench",
            dependencies: ["LivePair", "LivePairFormats", "LivePairMedia", "LivePairLibrary", "LivePairCrypto", "LivePairPostgres"],
            swiftSettings: strictSettings),

        .target(name: "TestSupport", dependencies: ["LivePairFormats"], path: "Tests/TestSupport", swiftSettings: strictSettings),
        .testTarget(name: "LivePairFormatsTests", dependencies: ["LivePairFormats", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "LivePairMediaTests", dependencies: ["LivePairMedia", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "LivePairTests", dependencies: ["LivePair", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "LivePairCryptoTests", dependencies: ["LivePairCrypto", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "LivePairSQLiteTests", dependencies: ["LivePairSQLite"], swiftSettings: strictSettings),
        .testTarget(
            name: "LivePairPostgresTests", dependencies: ["LivePairPostgres", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "LivePairLibraryTests", dependencies: ["LivePairLibrary", "LivePair", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(name: "LivePairCLITests", dependencies: ["LivePairCLI", "TestSupport"], swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
