extension PhotoLibrary {
    /// Removes resource files that no asset or record uses and whose last status change (creation,
    /// link) is at least `age` seconds old: what a batch stored before failing or crashing. Younger
    /// files are left, since another process may be about to commit a batch that uses them.
    /// Returns how many files were removed. This looks at every resource of the store (a whole
    /// listing of an S3 prefix): the maintenance sweep, where opening sweeps only what
    /// `ResourceStore.digestsToSweepOnOpen()` lists.
    ///
    /// Nothing is removed unless the catalog is this library's (it carries `identity`, which the
    /// store's marker carries too); a library opened read-only throws `readOnlyLibrary`.
    @discardableResult
    public func removeUnreferencedResources(olderThan age: Double) throws(LibraryError) -> Int {
        try removeUnreferencedResources(olderThan: age) { () throws(ResourceStoreError) in try store.allDigests() }
    }

    /// The sweep a read-write open runs: `removeUnreferencedResources(olderThan:)` over the part of
    /// the store that `digestsToSweepOnOpen()` lists (all of a resource directory; one shard of an
    /// S3 prefix, so an open costs one small listing however many objects the bucket holds).
    @discardableResult
    func removeUnreferencedResourcesOnOpen() throws(LibraryError) -> Int {
        try removeUnreferencedResources(olderThan: configuration.orphanGracePeriod) { () throws(ResourceStoreError) in
            try store.digestsToSweepOnOpen()
        }
    }

    private func removeUnreferencedResources(
        olderThan age: Double, among list: () throws(ResourceStoreError) -> [ContentDigest]
    ) throws(LibraryError) -> Int {
        guard configuration.access == .readWrite else { throw .readOnlyLibrary }
        guard identity != nil else { return 0 }
        let stored: [ContentDigest]
        do throws(ResourceStoreError) {
            stored = try list()
        } catch {
            throw .store(error)
        }
        guard !stored.isEmpty else { return 0 }
        let referenced = try catalog.read { (reader: any CatalogReader) throws(LibraryError) in try reader.referencedDigests() }
        let candidates = stored.filter { digest in
            guard !referenced.contains(digest) else { return false }
            guard let sinceChange = store.secondsSinceWritten(digest) else { return false }
            return sinceChange >= age
        }
        return executor.removeUnreferenced(Set(candidates), injectingFaults: false).count
    }
}
