public import Foundation

/// A Live Photo half that is stored and waits for its partner (same owner, same content identifier).
public struct PendingUpload: Sendable, Hashable {
    /// The tenant or user who uploaded it.
    public let owner: String
    /// The content identifier the half carries.
    public let contentIdentifier: String
    /// `.photo` for a still, `.pairedVideo` for a movie.
    public let type: AssetResourceType
    /// The stored bytes.
    public let resource: StoredResource
    /// The name it was uploaded with (data only, never a path), when given.
    public let originalFilename: String?
    /// The upload's identifier, when given.
    public let uploadID: String?
    /// When it arrived.
    public let receivedAt: Date

    /// Memberwise initializer.
    public init(
        owner: String, contentIdentifier: String, type: AssetResourceType, resource: StoredResource,
        originalFilename: String?, uploadID: String?, receivedAt: Date
    ) {
        self.owner = owner
        self.contentIdentifier = contentIdentifier
        self.type = type
        self.resource = resource
        self.originalFilename = originalFilename
        self.uploadID = uploadID
        self.receivedAt = receivedAt
    }
}
