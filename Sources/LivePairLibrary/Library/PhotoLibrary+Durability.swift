import LivePairPostgres

extension PhotoLibrary {
    /// The catalog settings that let an acknowledged commit be lost in a crash: `synchronous_commit=off`
    /// (a commit is acknowledged before its WAL is on disk) and `fsync=off` (nothing is forced to
    /// disk), as this library's connections see them. Empty for a SQLite catalog, which syncs each commit.
    public func catalogDurabilityProblems() throws(LibraryError) -> [String] {
        guard let postgres = catalog as? PostgresCatalog else { return [] }
        return try postgres.pool.withConnection(connectionFailure: LibraryError.catalogServer) {
            (connection: PostgresConnection) throws(LibraryError) -> [String] in
            var problems: [String] = []
            for setting in ["synchronous_commit", "fsync"] {
                let value: PostgresValue?
                do throws(PostgresError) {
                    value = try connection.execute("SELECT current_setting($1)", [.text(setting)]).scalar
                } catch {
                    throw .catalogServer(error)
                }
                if case let .text(text) = value, text.lowercased() == "off" { problems.append("\(setting)=off") }
            }
            return problems
        }
    }
}
