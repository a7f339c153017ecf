public import LivePair

/// What became of one upload.
public enum IngestOutcome: Sendable, Equatable {
    /// The upload made an asset (a motion photo, a plain photo or video, or the second half of a
    /// Live Photo, which links both halves); this is the asset's local identifier.
    case accepted(localIdentifier: String)
    /// The upload is half of a Live Photo whose other half has not arrived; it is stored and kept
    /// as pending under this content identifier.
    case pending(contentIdentifier: String)
    /// The same bytes are already in an asset of the same owner: nothing new was created.
    case duplicate(localIdentifier: String)
    /// The upload cannot be taken: unreadable, or it conflicts with what the owner already has.
    case rejected([Finding])

    /// The asset's local identifier for accepted and duplicate uploads.
    public var localIdentifier: String? {
        switch self {
        case let .accepted(identifier), let .duplicate(identifier): return identifier
        case .pending, .rejected: return nil
        }
    }

    /// A short word for reports: `accepted`, `pending`, `duplicate` or `rejected`.
    public var kind: String {
        switch self {
        case .accepted: return "accepted"
        case .pending: return "pending"
        case .duplicate: return "duplicate"
        case .rejected: return "rejected"
        }
    }
}
