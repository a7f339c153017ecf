/// What a `FetchResult` holds: assets or albums.
public protocol FetchableObject: Sendable, Hashable {
    /// The object's library-wide identifier.
    var localIdentifier: String { get }
}

extension Asset: FetchableObject {}
extension AssetCollection: FetchableObject {}
