extension CatalogReader {
    /// Of `candidates` (asset identifiers, in the order given), those whose resources are exactly
    /// `resources` (types and digests, in any order): what both catalogs' duplicate lookups
    /// (`assetIdentifiers(owner:withResources:)`) keep of the assets their query found by the
    /// first resource.
    func assetsHavingExactly(_ resources: [ResourceKey], among candidates: [String]) throws(LibraryError) -> [String] {
        let wanted = resources.sorted()
        var matches: [String] = []
        for candidate in candidates {
            let have = try self.resources(ofAsset: candidate).map { ResourceKey(type: $0.type, digest: $0.digest) }.sorted()
            if have == wanted { matches.append(candidate) }
        }
        return matches
    }
}
