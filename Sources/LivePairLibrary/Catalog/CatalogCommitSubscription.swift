/// A running watch on another process's commits (see `Catalog.observeCommits`).
protocol CatalogCommitSubscription: Sendable {
    /// Stops watching; no call of the handler starts once the watch noticed (a fraction of a second).
    func cancel()
}

extension Catalog {
    /// No push: observers poll the change log (`PhotoLibrary.pollForChanges`).
    func observeCommits(_ onCommit: @escaping @Sendable () -> Void) -> (any CatalogCommitSubscription)? { nil }
}
