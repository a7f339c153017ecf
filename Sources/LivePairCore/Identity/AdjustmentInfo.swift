import LivePairFormats

/// What an `.AAE` edit file says, as identification reads it: whose format, the master image the
/// edit applies to, and the key photo time (Photos' and LivePair's own recipes).
public struct AdjustmentInfo: Sendable, Equatable, Hashable {
    /// `adjustmentFormatIdentifier` (`com.apple.photo`).
    public var formatIdentifier: String
    /// `adjustmentFormatVersion`.
    public var formatVersion: String
    /// The master image's size and orientation from the recipe's `metadata`; nil for other
    /// editors' opaque data, or when the recipe names none.
    public var master: AdjustmentRecipe.Master?
    /// The step identifiers of a readable recipe, in order.
    public var operations: [String]
    /// The key photo's time in seconds (`LivePhotoKeyFrame`).
    public var keyPhotoTime: Double?
    /// The name of LivePair's frame filter step (`LivePairFilter`), as written; nil without one.
    public var filterName: String?

    /// Memberwise initializer.
    public init(
        formatIdentifier: String, formatVersion: String, master: AdjustmentRecipe.Master? = nil,
        operations: [String] = [], keyPhotoTime: Double? = nil
    ) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.master = master
        self.operations = operations
        self.keyPhotoTime = keyPhotoTime
    }
}
