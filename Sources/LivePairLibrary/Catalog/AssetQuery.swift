/// Which assets a fetch asks the catalog for: a scope plus the fetch options.
struct AssetQuery: Sendable, Hashable {
    /// Where the assets come from.
    enum Scope: Sendable, Hashable {
        /// Every asset.
        case all
        /// The assets with these identifiers (in this order unless sorted).
        case identifiers([String])
        /// The members of an album (in album order unless sorted).
        case collection(String)
    }

    /// Where the assets come from.
    var scope: Scope
    /// Predicate, sort, limit, hidden assets.
    var options: FetchOptions
}

/// Which albums a fetch asks the catalog for. Albums come in creation order.
enum CollectionQuery: Sendable, Hashable {
    /// Every album.
    case all
    /// The albums with these identifiers (in this order).
    case identifiers([String])
    /// The albums with exactly this title.
    case title(String)
    /// The albums that contain this asset.
    case containing(assetIdentifier: String)
}
