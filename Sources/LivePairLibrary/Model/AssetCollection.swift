public import Foundation

/// An album, as PhotoKit's `PHAssetCollection`: a titled, ordered list of assets.
public struct AssetCollection: Sendable, Hashable, Identifiable {
    /// The library-wide identifier (an uppercase UUID).
    public let localIdentifier: String
    /// The title.
    public var title: String
    /// When the album was created.
    public var creationDate: Date
    /// How many assets it holds (hidden ones included).
    public var assetCount: Int

    /// The local identifier.
    public var id: String { localIdentifier }

    /// Memberwise initializer.
    public init(localIdentifier: String, title: String, creationDate: Date, assetCount: Int) {
        self.localIdentifier = localIdentifier
        self.title = title
        self.creationDate = creationDate
        self.assetCount = assetCount
    }
}
