public import Foundation

/// Creates an asset from resources, as PhotoKit's `PHAssetCreationRequest`. Add a `.photo`
/// (with a `.pairedVideo` for a Live Photo), or a `.video`; optionally `.adjustmentData` and
/// other types. Media type, subtypes, pixel size, duration, creation date and content identifier
/// are read from the resources; a Live Photo is validated (`Validator.validatePair`) and an
/// invalid pair fails the whole batch.
public final class AssetCreationRequest {
    /// The request's place among the batch's creation requests.
    let index: Int
    /// The resources, in the order added.
    private(set) var additions: [ResourceAddition] = []

    /// Stands for the asset being created; usable later in the same batch.
    public let placeholderForCreatedAsset: ObjectPlaceholder
    /// The creation date; nil takes the still's capture date (or the movie's).
    public var creationDate: Date?
    /// Where it was taken.
    public var location: AssetLocation?
    /// Mark as favorite.
    public var isFavorite = false
    /// Hide it.
    public var isHidden = false
    /// The tenant or user the asset belongs to; deduplication never crosses owners.
    public var owner: String?

    init(index: Int) {
        self.index = index
        placeholderForCreatedAsset = ObjectPlaceholder(localIdentifier: LocalIdentifier.make())
    }

    /// A request registered with the running change block.
    public static func creationRequestForAsset() -> AssetCreationRequest {
        ChangeContext.required("AssetCreationRequest.creationRequestForAsset()").creationRequestForAsset()
    }

    /// Adds the file at `fileURL` as a resource of `type` (copied, or moved with `shouldMoveFile`).
    public func addResource(with type: AssetResourceType, fileURL: URL, options: AssetResourceCreationOptions? = nil) {
        addResource(with: type, path: fileURL.path, options: options)
    }

    /// Adds the file at `path` as a resource of `type` (copied, or moved with `shouldMoveFile`).
    public func addResource(with type: AssetResourceType, path: String, options: AssetResourceCreationOptions? = nil) {
        let options = options ?? AssetResourceCreationOptions()
        let source: ResourceSource = options.shouldMoveFile ? .move(path: path) : .copy(path: path)
        additions.append(ResourceAddition(type: type, source: source, options: options))
    }

    /// Adds `data` as a resource of `type`.
    public func addResource(with type: AssetResourceType, data: [UInt8], options: AssetResourceCreationOptions? = nil) {
        additions.append(ResourceAddition(type: type, source: .data(data), options: options ?? AssetResourceCreationOptions()))
    }

    /// Adds `data` as a resource of `type`.
    public func addResource(with type: AssetResourceType, data: Data, options: AssetResourceCreationOptions? = nil) {
        addResource(with: type, data: [UInt8](data), options: options)
    }

    /// Adds a resource that is already in this library's resource store (the ingestor stores
    /// uploads first and creates the asset when the pair is complete).
    public func addResource(
        with type: AssetResourceType, storedResource: StoredResource, options: AssetResourceCreationOptions? = nil
    ) {
        addResource(with: type, storedResource: storedResource, options: options, localCopy: nil)
    }

    /// `addResource(with:storedResource:options:)` for a resource stored from `localCopy`, a file
    /// still on this machine that the new asset is read from instead of the store (the ingestor's upload).
    func addResource(
        with type: AssetResourceType, storedResource: StoredResource, options: AssetResourceCreationOptions?, localCopy: LocalCopy?
    ) {
        additions.append(
            ResourceAddition(
                type: type, source: .stored(storedResource), options: options ?? AssetResourceCreationOptions(),
                localCopy: localCopy))
    }
}
