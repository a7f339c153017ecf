import Foundation
import LivePairCLI
import LivePairLibrary

/// A `--store` value: where a library's resource files live. A local directory (a path or a
/// `file://` URL) or `s3://BUCKET/PREFIX` (objects on an S3-compatible server, with
/// `--s3-endpoint`); other schemes are refused by name.
public struct StoreURL: Sendable, Equatable {
    /// The store location the library opens.
    public let location: StoreLocation

    /// Parses `text`; throws a usage error naming what is not understood.
    public init(_ text: String) throws(UsageError) {
        if text.isEmpty { throw UsageError("The store must not be empty.") }
        if text.hasPrefix("file://") {
            let path = String(text.dropFirst("file://".count))
            guard path.hasPrefix("/") else { throw UsageError("A file:// store needs an absolute path: '\(text)'.") }
            location = .directory(path)
            return
        }
        if text.hasPrefix("s3://") {
            do throws(StoreLocationError) {
                location = try StoreLocation(text)
            } catch {
                throw UsageError("Invalid store: \(ConnectionText.redacted(error.description)).")
            }
            return
        }
        if let colon = text.range(of: "://") {
            let scheme = text[..<colon.lowerBound]
            throw UsageError(
                "Unsupported store '\(ConnectionText.redacted(text))': the scheme '\(scheme)' is not supported (use s3://BUCKET/PREFIX or a directory).")
        }
        location = .directory(text)
    }
}

/// A `--catalog` value: a PostgreSQL connection URI (`postgresql://` or `postgres://`, any libpq
/// URI), a libpq `key=value` connection string (`host=/run/pg dbname=photos`), or a SQLite
/// catalog file (`sqlite:///path` or a path).
public struct CatalogURL: Sendable, Equatable {
    /// The catalog location the library opens.
    public let location: CatalogLocation

    /// Parses `text`; throws a usage error naming what is not understood.
    public init(_ text: String) throws(UsageError) {
        if text.isEmpty { throw UsageError("The catalog must not be empty.") }
        if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") || ConnectionText.isKeywordValueConnectionString(text) {
            location = .postgres(connectionString: text)
        } else if text.hasPrefix("sqlite://") {
            location = .sqlite(path: String(text.dropFirst("sqlite://".count)))
        } else if text.contains("://") {
            throw UsageError("Unsupported catalog '\(ConnectionText.redacted(text))': use postgresql://... or a SQLite file path.")
        } else {
            location = .sqlite(path: text)
        }
    }
}
