/// What a committed batch did.
public struct ChangeResult: Sendable, Equatable {
    /// What became of one creation request.
    public enum AssetOutcome: Sendable, Equatable {
        /// A new asset with this identifier (the request's placeholder identifier).
        case created(String)
        /// The resources equal an existing asset's of the same owner: no new asset; this is the existing one.
        case existing(String)

        /// The asset's identifier either way.
        public var localIdentifier: String {
            switch self {
            case let .created(identifier), let .existing(identifier): return identifier
            }
        }

        /// True for a duplicate of an existing asset.
        public var isExisting: Bool {
            if case .existing = self { return true }
            return false
        }
    }

    /// One outcome per creation request, in the order the requests were made.
    public var assets: [AssetOutcome]
    /// The albums created, in request order.
    public var createdCollections: [String]
    /// The assets deleted.
    public var deletedAssets: [String]
    /// The change-log sequence number of the batch; nil when it changed nothing observers see.
    public var changeSequence: Int64?

    /// Memberwise initializer.
    public init(
        assets: [AssetOutcome] = [], createdCollections: [String] = [], deletedAssets: [String] = [],
        changeSequence: Int64? = nil
    ) {
        self.assets = assets
        self.createdCollections = createdCollections
        self.deletedAssets = deletedAssets
        self.changeSequence = changeSequence
    }
}
