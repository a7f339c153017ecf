/// Where a library's catalog lives.
public enum CatalogLocation: Sendable, Hashable {
    /// A SQLite database file (the embedded default; `PhotoLibrary.open(at:)` puts it in the
    /// library directory).
    case sqlite(path: String)
    /// A PostgreSQL database shared by several nodes: any libpq URI or key=value string
    /// (`postgresql://USER@/DB?host=/socket/dir`); `PGHOST`, `PGUSER`, `PGPASSWORD`, ... fill in
    /// what it leaves out. The catalog's tables live in the connection's current schema.
    case postgres(connectionString: String)
}

extension StoreLocation {
    /// Where `store` keeps its files: its bucket and prefix, or its directory; `fallback` for a
    /// store of another kind.
    init(of store: any ResourceStore, fallback: StoreLocation) {
        if let objects = store as? S3ResourceStore {
            self = .s3(bucket: objects.bucket, prefix: objects.prefix)
        } else if let files = store as? DirectoryStore {
            self = .directory(files.directory)
        } else {
            self = fallback
        }
    }
}
