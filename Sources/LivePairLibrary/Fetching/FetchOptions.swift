/// What a fetch selects and how it orders the result, as PhotoKit's `PHFetchOptions`.
public struct FetchOptions: Sendable, Hashable {
    /// A condition every fetched asset meets; nil for all.
    public var predicate: AssetPredicate?
    /// The order; empty for the scope's natural order (identifiers as given, album order, or the
    /// order assets were added). Ties are broken by that natural order.
    public var sortDescriptors: [AssetSortDescriptor]
    /// At most this many assets; nil or 0 for all.
    public var fetchLimit: Int?
    /// Include hidden assets (left out by default).
    public var includeHiddenAssets: Bool

    /// Options selecting everything that is not hidden, in natural order.
    public init(
        predicate: AssetPredicate? = nil, sortDescriptors: [AssetSortDescriptor] = [], fetchLimit: Int? = nil,
        includeHiddenAssets: Bool = false
    ) {
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.includeHiddenAssets = includeHiddenAssets
    }
}
