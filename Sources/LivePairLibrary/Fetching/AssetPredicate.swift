public import Foundation

/// A condition on asset properties for `FetchOptions.predicate`, compiled to parameterised SQL
/// (values are always bound, never written into the statement text).
public indirect enum AssetPredicate: Sendable, Hashable {
    /// The media type equals this one.
    case mediaType(AssetMediaType)
    /// The subtypes include every subtype given.
    case subtypes(containing: AssetMediaSubtypes)
    /// Favorite or not.
    case favorite(Bool)
    /// Hidden or not (hidden assets are only fetched with `FetchOptions.includeHiddenAssets`).
    case hidden(Bool)
    /// A condition on the creation date.
    case creationDate(DateCondition)
    /// The content identifier equals this one (nil: the asset has none).
    case contentIdentifier(String?)
    /// The owner equals this one (nil: the asset has none).
    case owner(String?)
    /// Every condition holds (true when empty).
    case and([AssetPredicate])
    /// At least one condition holds (false when empty).
    case or([AssetPredicate])
    /// The condition does not hold.
    case not(AssetPredicate)
    /// Comes strictly after `position` in date-taken order (`AssetSortDescriptor.Key.dateTaken`
    /// in the position's direction, then `localIdentifier` ascending): keyset paging, which stays
    /// correct while assets are added or deleted before the position.
    case follows(DateTakenPosition)

    /// A condition on a date. Assets without a creation date match only `isUnknown` (and neither a
    /// condition nor its negation otherwise, as in SQL).
    public enum DateCondition: Sendable, Hashable {
        /// Strictly before the date.
        case before(Date)
        /// Strictly after the date.
        case after(Date)
        /// Between the dates, both included.
        case between(Date, Date)
        /// No creation date is known.
        case isUnknown
    }

    /// Live Photos and motion photos.
    public static var livePhotos: AssetPredicate { .subtypes(containing: .photoLive) }
}
