/// One page of assets with what a listing shows of each, read in one catalog snapshot with a
/// fixed number of statements whatever the page's size: the page (one keyset statement with
/// `LIMIT`), the count of every asset the options select, the page's resources and its
/// derivative jobs.
package struct AssetPage: Sendable {
    /// The page, in the options' order.
    package var assets: [Asset]
    /// Each asset's resources, in the order they were added.
    package var resources: [String: [LibraryAssetResource]]
    /// Each asset's derivative jobs, oldest first (assets without jobs are absent).
    package var derivativeJobs: [String: [DerivativeJob]]
    /// How many assets the options select, on every page (`after` not counted).
    package var total: Int
    /// True when assets follow the page.
    package var hasMore: Bool
}

extension PhotoLibrary {
    /// The page of `limit` assets that `options` selects after `position` (keyset paging in
    /// date-taken order: `AssetPredicate.follows`), or from `offset` on: four statements in one
    /// snapshot (the page with `LIMIT limit + 1`, the count, the resources, the jobs).
    package func assetPage(
        with options: FetchOptions, after position: DateTakenPosition?, offset: Int, limit: Int
    ) throws(LibraryError) -> AssetPage {
        noticeChanges()
        var paged = options
        if let position { paged.predicate = .and([options.predicate ?? .and([]), .follows(position)]) }
        paged.fetchLimit = limit + 1
        return try catalog.read { (reader: any CatalogReader) throws(LibraryError) -> AssetPage in
            let rows = try reader.assets(matching: AssetQuery(scope: .all, options: paged), offset: offset)
            let assets = Array(rows.prefix(limit))
            let identifiers = assets.map(\.localIdentifier)
            return AssetPage(
                assets: assets, resources: try reader.resources(ofAssets: identifiers),
                derivativeJobs: try reader.derivativeJobs(ofAssets: identifiers),
                total: try reader.assetCount(matching: AssetQuery(scope: .all, options: options)), hasMore: rows.count > limit)
        }
    }

    /// The payloads of the records of `namespace` with these keys (those that exist), by key: one
    /// statement. For values derived once from stored bytes and kept in the catalog (the web
    /// service's edit summaries, keyed by the adjustment data's digest).
    package func recordPayloads(namespace: String, keys: [String]) throws(LibraryError) -> [String: [UInt8]] {
        let records = try catalog.read { (reader: any CatalogReader) throws(LibraryError) in try reader.records(namespace: namespace, keys: keys) }
        return Dictionary(records.map { ($0.key, $0.payload) }, uniquingKeysWith: { first, _ in first })
    }

    /// Keeps `payload` as the record `key` of `namespace` (replacing one there). The record names
    /// no stored file, so it keeps none from being swept.
    package func putRecordPayload(_ payload: [UInt8], namespace: String, key: String) throws(LibraryError) {
        try catalog.write({ (writer: any CatalogWriter) throws(LibraryError) in
            try writer.putRecord(CatalogRecord(namespace: namespace, key: key, payload: payload))
        }, beforeCommit: {})
    }
}
