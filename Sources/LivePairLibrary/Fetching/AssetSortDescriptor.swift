/// One sort key of a fetch, as an `NSSortDescriptor` on a `PHAsset` key.
public struct AssetSortDescriptor: Sendable, Hashable {
    /// The properties assets can be sorted by.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// `creationDate` (unknown dates sort first in ascending order).
        case creationDate
        /// `addedDate`.
        case addedDate
        /// `pixelWidth`.
        case pixelWidth
        /// `pixelHeight`.
        case pixelHeight
        /// `duration`.
        case duration
        /// `isFavorite` (false before true in ascending order).
        case isFavorite
        /// `localIdentifier`.
        case localIdentifier
        /// The date taken: `creationDate`, or `addedDate` when the creation date is unknown (what a
        /// gallery orders by; never unknown).
        case dateTaken
    }

    /// The property.
    public var key: Key
    /// Ascending (the default) or descending.
    public var ascending: Bool

    /// Sorts by `key`.
    public init(key: Key, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}
