/// What a resource is within an asset, as PhotoKit's `PHAssetResourceType`.
public enum ResourceType: String, Sendable, Equatable, CaseIterable {
    /// The still of a photo or Live Photo.
    case photo
    /// The movie of a Live Photo.
    case pairedVideo
    /// A movie that is an asset on its own.
    case video
    /// Edit data (an AAE sidecar).
    case adjustmentData
}

/// One file seen as a resource of an asset: its identity plus the type it would have in a library.
/// The pairing layer works on these, as PhotoKit's `PHAssetResource`.
public struct AssetResource: Sendable, Equatable {
    /// What the file is.
    public let identity: ResourceIdentity

    /// Wraps an identity.
    public init(_ identity: ResourceIdentity) { self.identity = identity }

    /// The file's path.
    public var path: String { identity.path }
    /// The pairing identifier.
    public var contentIdentifier: ContentIdentifier? { identity.contentIdentifier }
    /// The file's role.
    public var role: ResourceRole { identity.role }

    /// The resource type the file has on its own: stills and motion photos are `.photo`, Live Photo
    /// movies `.pairedVideo`, other movies `.video`.
    public var type: ResourceType {
        switch identity.role {
        case .livePhotoVideo: return .pairedVideo
        case .video: return .video
        default: return identity.format.isMovie ? .video : .photo
        }
    }

    /// The folder part of the path (everything before the last `/`), or `""`.
    public var folder: String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The file name without folder and extension.
    public var stem: String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
