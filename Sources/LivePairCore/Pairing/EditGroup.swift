/// An edit and what it was made from, in one folder: the original (a still, or both halves of a
/// Live Photo), the render Photos made of the edit, and the adjustment data (`.AAE`).
///
/// The render of an edited Live Photo carries a NEW content identifier, so these are linked by
/// name within one folder (`EditGrouping`), never by identifier and never across folders.
public struct EditGroup: Sendable, Equatable {
    /// The folder every member is in.
    public let folder: String
    /// The original's stem as the names give it (`IMG_1853`), lowercase.
    public let stem: String
    /// The original's files (still, movie), by path.
    public var originals: [String] = []
    /// The rendered edit's files (`IMG_E1853.heic`, `IMG_3582_edited.heic/.mov`, `-adjusted`), by path.
    public var renders: [String] = []
    /// The `.AAE` files (`IMG_1853.AAE`, `IMG_O1853.AAE`, `IMG_1853(1).AAE`), by path.
    public var adjustments: [String] = []

    /// An empty group for `stem` in `folder`.
    public init(folder: String, stem: String) {
        self.folder = folder
        self.stem = stem
    }
}
