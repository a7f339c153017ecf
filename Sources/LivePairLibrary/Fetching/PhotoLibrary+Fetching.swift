extension PhotoLibrary {
    /// The assets `options` select from the whole library (hidden ones only with
    /// `includeHiddenAssets`), in the options' order or the order they were added.
    public func fetchAssets(with options: FetchOptions = FetchOptions()) throws(LibraryError) -> FetchResult<Asset> {
        noticeChanges()
        return try fetch(AssetQuery(scope: .all, options: options))
    }

    /// The assets with these identifiers, in the order given unless `options` sorts them. Without
    /// options, hidden assets are included.
    public func fetchAssets(
        withLocalIdentifiers identifiers: [String], options: FetchOptions? = nil
    ) throws(LibraryError) -> FetchResult<Asset> {
        noticeChanges()
        return try fetch(
            AssetQuery(scope: .identifiers(identifiers), options: options ?? FetchOptions(includeHiddenAssets: true)))
    }

    /// The assets of `collection`, in album order unless `options` sorts them.
    public func fetchAssets(
        in collection: AssetCollection, options: FetchOptions = FetchOptions()
    ) throws(LibraryError) -> FetchResult<Asset> {
        noticeChanges()
        return try fetch(AssetQuery(scope: .collection(collection.localIdentifier), options: options))
    }

    /// Every album, in creation order.
    public func fetchAssetCollections() throws(LibraryError) -> FetchResult<AssetCollection> {
        noticeChanges()
        return try fetch(.all)
    }

    /// The albums with these identifiers, in the order given.
    public func fetchAssetCollections(withLocalIdentifiers identifiers: [String]) throws(LibraryError) -> FetchResult<AssetCollection> {
        noticeChanges()
        return try fetch(.identifiers(identifiers))
    }

    /// The albums titled exactly `title`.
    public func fetchAssetCollections(withTitle title: String) throws(LibraryError) -> FetchResult<AssetCollection> {
        noticeChanges()
        return try fetch(.title(title))
    }

    /// The albums that contain `asset`.
    public func fetchAssetCollections(containing asset: Asset) throws(LibraryError) -> FetchResult<AssetCollection> {
        noticeChanges()
        return try fetch(.containing(assetIdentifier: asset.localIdentifier))
    }

    /// Runs an asset query: identifiers and the first page in one snapshot.
    func fetch(_ query: AssetQuery) throws(LibraryError) -> FetchResult<Asset> {
        let catalog = self.catalog
        let loader: FetchResultStorage<Asset>.Loader = { (identifiers: [String]) throws(LibraryError) -> [String: Asset] in
            try catalog.read { (reader: any CatalogReader) throws(LibraryError) in
                try reader.assets(withIdentifiers: identifiers, includingDeleted: true)
            }
        }
        let (identifiers, firstPage) = try catalog.read {
            (reader: any CatalogReader) throws(LibraryError) -> ([String], [Asset]?) in
            let identifiers = try reader.assetIdentifiers(matching: query)
            guard !identifiers.isEmpty else { return (identifiers, nil) }
            let page = try FetchResultStorage<Asset>.loadPage(0, of: identifiers) {
                (wanted: [String]) throws(LibraryError) -> [String: Asset] in
                try reader.assets(withIdentifiers: wanted, includingDeleted: true)
            }
            return (identifiers, page)
        }
        return FetchResult(
            localIdentifiers: identifiers,
            storage: FetchResultStorage(identifiers: identifiers, loadedPages: firstPage.map { [0: $0] } ?? [:], loader: loader),
            refetch: { () throws(LibraryError) -> FetchResult<Asset> in try self.fetch(query) })
    }

    /// Runs an album query; albums are read with the identifiers.
    func fetch(_ query: CollectionQuery) throws(LibraryError) -> FetchResult<AssetCollection> {
        let catalog = self.catalog
        let loader: FetchResultStorage<AssetCollection>.Loader = {
            (identifiers: [String]) throws(LibraryError) -> [String: AssetCollection] in
            try catalog.read { (reader: any CatalogReader) throws(LibraryError) in
                try reader.collections(withIdentifiers: identifiers)
            }
        }
        let (identifiers, pages) = try catalog.read {
            (reader: any CatalogReader) throws(LibraryError) -> ([String], [Int: [AssetCollection]]) in
            let identifiers = try reader.collectionIdentifiers(matching: query)
            let found = try reader.collections(withIdentifiers: identifiers)
            var pages: [Int: [AssetCollection]] = [:]
            for (index, identifier) in identifiers.enumerated() {
                guard let collection = found[identifier] else { continue }
                pages[index / FetchResultStorage<AssetCollection>.pageSize, default: []].append(collection)
            }
            return (identifiers, pages)
        }
        return FetchResult(
            localIdentifiers: identifiers,
            storage: FetchResultStorage(identifiers: identifiers, loadedPages: pages, loader: loader),
            refetch: { () throws(LibraryError) -> FetchResult<AssetCollection> in try self.fetch(query) })
    }
}
