extension PhotoLibrary {
    /// Removes resource files that no asset or record uses and whose last status change (creation,
    /// link) is at least `age` seconds old: what a batch stored before failing or crashing. Younger
    /// files are left, since another process may be about to commit a batch that uses them.
    /// Returns how many files were removed.
    @discardableResult
    public func removeUnreferencedResources(olderThan age: Double) throws(LibraryError) -> Int {
        let stored: [ContentDigest]
        do throws(ResourceStoreError) {
            stored = try store.allDigests()
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
        executor.removeUnreferenced(Set(candidates), injectingFaults: false)
        return candidates.filter { !store.contains($0) }.count
    }
}
