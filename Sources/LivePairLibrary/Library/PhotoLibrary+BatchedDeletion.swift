extension PhotoLibrary {
    /// The most assets one transaction of `deleteAssets(withLocalIdentifiers:batchSize:)` deletes.
    public static let deletionBatchSize = 100

    /// Deletes many assets without keeping other writers waiting: the assets go in batches of at
    /// most `batchSize`, each its own `performChanges` transaction (an asset is always deleted
    /// whole, a Live Photo's still and movie together), and the files no row uses any more are
    /// removed in small groups after each batch. Between batches the write lock is left free for
    /// as long as the batch held it (`WriterPacing`), so concurrent uploads go on.
    ///
    /// Every identifier is checked first: an unknown one throws `notFound` and nothing is deleted.
    /// An asset another process deleted before its batch began is skipped. When a batch fails, the batches
    /// before it stay deleted (each is all or nothing) and the error is thrown.
    ///
    /// Returns one result for the whole deletion: every asset deleted, and the change sequence of
    /// the last batch.
    @discardableResult
    public func deleteAssets(
        withLocalIdentifiers identifiers: [String], batchSize: Int = PhotoLibrary.deletionBatchSize
    ) throws(LibraryError) -> ChangeResult {
        var unique: [String] = []
        var seen: Set<String> = []
        for identifier in identifiers where seen.insert(identifier).inserted { unique.append(identifier) }
        let existing = try readCatalog { (reader: any CatalogReader) throws(LibraryError) in
            try reader.assets(withIdentifiers: unique, includingDeleted: false)
        }
        if let missing = unique.first(where: { existing[$0] == nil }) { throw .notFound(localIdentifier: missing) }
        var total = ChangeResult()
        let size = max(1, batchSize)
        for start in stride(from: 0, to: unique.count, by: size) {
            let wanted = Array(unique[start..<min(start + size, unique.count)])
            let present = try readCatalog { (reader: any CatalogReader) throws(LibraryError) in
                try reader.assets(withIdentifiers: wanted, includingDeleted: false)
            }
            let batch = wanted.filter { present[$0] != nil }
            guard !batch.isEmpty else { continue }
            let began = ContinuousClock.now
            let result = try performChangesAndWait { context in context.deleteAssets(withLocalIdentifiers: batch) }
            total.deletedAssets += result.deletedAssets
            total.changeSequence = result.changeSequence ?? total.changeSequence
            if start + size < unique.count { WriterPacing.yieldLock(after: began) }
        }
        return total
    }
}
