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

/// Where a library's resource files live.
public enum StoreLocation: Sendable, Hashable {
    /// A content-addressed directory on a local (or shared) file system.
    case directory(path: String)
}
