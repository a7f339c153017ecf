public import Foundation

/// A place in date-taken order (`AssetSortDescriptor.Key.dateTaken`, then `localIdentifier`
/// ascending): the last asset of a page, for `AssetPredicate.follows` to fetch the next one.
public struct DateTakenPosition: Sendable, Hashable {
    /// The asset's date taken: its creation date, else its added date.
    public var dateTaken: Date
    /// The asset's local identifier (the order among assets taken at the same time).
    public var localIdentifier: String
    /// True for oldest first, false for newest first.
    public var ascending: Bool

    /// The position of an asset with `dateTaken` and `localIdentifier` in the order `ascending` names.
    public init(dateTaken: Date, localIdentifier: String, ascending: Bool) {
        self.dateTaken = dateTaken
        self.localIdentifier = localIdentifier
        self.ascending = ascending
    }

    /// The position of `asset` in the order `ascending` names.
    public init(after asset: Asset, ascending: Bool) {
        self.init(dateTaken: asset.dateTaken, localIdentifier: asset.localIdentifier, ascending: ascending)
    }
}

extension Asset {
    /// When it was taken: the creation date, else the date it was added (the order of
    /// `AssetSortDescriptor.Key.dateTaken`).
    public var dateTaken: Date { creationDate ?? addedDate }
}
