import Foundation
import LivePairCLI
import LivePairLibrary

/// Which library a command works on: `--library DIR` (the embedded directory library), or
/// `--catalog URL --store URL`, which also come from `LIVEPAIR_CATALOG` and `LIVEPAIR_STORE` when
/// not given on the command line. An `s3://` store needs `--s3-endpoint URL` (or
/// `LIVEPAIR_S3_ENDPOINT`); its credentials come from `AWS_ACCESS_KEY_ID`,
/// `AWS_SECRET_ACCESS_KEY` and `AWS_REGION`.
public struct LibrarySelection: Sendable, Equatable {
    /// The option names a library command accepts.
    public static let optionNames: Set<String> = ["library", "catalog", "store", "s3-endpoint"]
    /// The environment variable read when `--catalog` is not given.
    public static let catalogVariable = "LIVEPAIR_CATALOG"
    /// The environment variable read when `--store` is not given.
    public static let storeVariable = "LIVEPAIR_STORE"
    /// The environment variable read when `--s3-endpoint` is not given.
    public static let s3EndpointVariable = "LIVEPAIR_S3_ENDPOINT"
    /// The help lines describing the options.
    public static let helpLines = """
        --library <dir>         A directory library (SQLite catalog and resources inside).
          --catalog <url>         A catalog: postgresql://USER@/DB?host=/socket/dir (any libpq URI;
                                  PG* variables honoured) or a SQLite file (default: $LIVEPAIR_CATALOG).
          --store <url>           Where resource files go: a directory or s3://BUCKET/PREFIX
                                  (default: $LIVEPAIR_STORE).
          --s3-endpoint <url>     The S3 server of an s3:// store, http://HOST:PORT (default:
                                  $LIVEPAIR_S3_ENDPOINT; keys from AWS_ACCESS_KEY_ID,
                                  AWS_SECRET_ACCESS_KEY, AWS_REGION).
        """

    /// A directory library.
    public var directory: String?
    /// The catalog, with `--catalog`.
    public var catalog: CatalogLocation?
    /// The store, with `--store`.
    public var store: StoreLocation?
    /// The S3 server of an `s3://` store, with `--s3-endpoint`.
    public var s3Endpoint: String?

    /// The selection the options (or the environment) make; throws a usage error when there is
    /// none, or when `--library` is mixed with `--catalog`/`--store`.
    public init(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageError) {
        let catalogText = parsed.options["catalog"] ?? environment[Self.catalogVariable].flatMap { $0.isEmpty ? nil : $0 }
        let storeText = parsed.options["store"] ?? environment[Self.storeVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let directory = parsed.options["library"] {
            if parsed.options["catalog"] != nil || parsed.options["store"] != nil || parsed.options["s3-endpoint"] != nil {
                throw UsageError("Give either '--library <dir>' or '--catalog <url> --store <url>', not both.")
            }
            self.directory = directory
            return
        }
        guard let catalogText, let storeText else {
            if catalogText == nil && storeText == nil {
                throw UsageError("Missing expected option '--library <dir>' (or '--catalog <url> --store <url>').")
            }
            throw UsageError(catalogText == nil ? "Missing expected option '--catalog <url>'." : "Missing expected option '--store <url>'.")
        }
        catalog = try CatalogURL(catalogText).location
        let store = try StoreURL(storeText).location
        self.store = store
        let endpointText = parsed.options["s3-endpoint"] ?? environment[Self.s3EndpointVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard case .s3 = store else {
            if parsed.options["s3-endpoint"] != nil {
                throw UsageError("--s3-endpoint is only for an s3:// store; '\(Self.withoutPassword(storeText))' is a directory.")
            }
            return
        }
        guard let endpointText else {
            throw UsageError("Missing expected option '--s3-endpoint <url>' (or LIVEPAIR_S3_ENDPOINT) for the store '\(Self.withoutPassword(storeText))'.")
        }
        guard endpointText.hasPrefix("http://") || endpointText.hasPrefix("https://") else {
            throw UsageError("The S3 endpoint must be an http:// or https:// URL: '\(Self.withoutPassword(endpointText))'.")
        }
        s3Endpoint = endpointText
    }

    /// What to name the library in messages and reports: the directory, or the store and the
    /// catalog (a PostgreSQL URI without its password).
    public var name: String {
        if let directory { return directory }
        let catalogName: String
        switch catalog {
        case let .postgres(connectionString): catalogName = Self.withoutPassword(connectionString)
        case let .sqlite(path): catalogName = Self.withoutPassword(path)
        case nil: catalogName = "-"
        }
        switch store {
        case let .directory(path): return "\(catalogName) + \(path)"
        case let .s3(bucket, prefix): return "\(catalogName) + s3://\(bucket)/\(prefix) on \(Self.withoutPassword(s3Endpoint ?? "-"))"
        case nil: return catalogName
        }
    }

    /// `uri` with any password (user-info, `password=`, a `key=value` string's) replaced by `***`.
    static func withoutPassword(_ uri: String) -> String { ConnectionText.redacted(uri) }

    /// Opens the library as `configuration` says (open mode, access). A directory library follows
    /// `configuration.openMode` alone; a catalog is created only with `create` (`library init`),
    /// and a missing one is refused otherwise. An `s3://` store keeps fetched copies in
    /// `s3CacheDirectory` (default: `S3ResourceStore.defaultCacheDirectory()`).
    public func open(
        configuration: LibraryConfiguration = LibraryConfiguration(), create: Bool = false, s3CacheDirectory: String? = nil
    ) throws(LibraryError) -> PhotoLibrary {
        if let directory { return try PhotoLibrary.open(at: directory, configuration: configuration) }
        guard let catalog, let store else { throw .invalidRequest("no library selected") }
        return try PhotoLibrary.open(
            catalog: catalog, store: store, configuration: configuration, create: create, s3Endpoint: s3Endpoint,
            s3CacheDirectory: s3CacheDirectory)
    }
}
