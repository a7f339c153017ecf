/// The batch being built inside `performChanges`: every request made in the block registers here.
/// Requests can be made through the context or, PhotoKit-style, through the request types' static
/// methods and initializers, which find the current context (calling those outside a change block
/// is a programming error and stops the program, as PhotoKit raises an exception).
public final class ChangeContext {
    /// Carries the context in a task-local value. It is only read on the task or thread that runs
    /// the change block (the block's own calls), never shared with another.
    struct Binding: @unchecked Sendable {
        let context: ChangeContext
    }

    /// The context of the change block running on this task or thread.
    @TaskLocal static var binding: Binding?

    /// The context of the change block running on this task or thread.
    static var current: ChangeContext? { binding?.context }

    private(set) var assetCreations: [AssetCreationRequest] = []
    private(set) var assetChanges: [AssetChangeRequest] = []
    private(set) var assetDeletions: [String] = []
    private(set) var collectionRequests: [AssetCollectionChangeRequest] = []
    private(set) var collectionDeletions: [String] = []

    init() {}

    /// The current context; stops the program when no change block is running.
    static func required(_ caller: String) -> ChangeContext {
        guard let context = current else {
            preconditionFailure("\(caller) may only be called inside PhotoLibrary.performChanges")
        }
        return context
    }

    /// True when the batch asks for nothing.
    var isEmpty: Bool {
        assetCreations.isEmpty && assetChanges.isEmpty && assetDeletions.isEmpty && collectionRequests.isEmpty
            && collectionDeletions.isEmpty
    }

    /// A request to create an asset (add resources to it before the block returns).
    public func creationRequestForAsset() -> AssetCreationRequest {
        let request = AssetCreationRequest(index: assetCreations.count)
        assetCreations.append(request)
        return request
    }

    /// A request to change `asset`'s properties.
    public func changeRequest(for asset: Asset) -> AssetChangeRequest {
        let request = AssetChangeRequest(asset: asset)
        assetChanges.append(request)
        return request
    }

    /// Deletes assets (each with all its resources: a Live Photo's halves go together).
    public func deleteAssets(withLocalIdentifiers identifiers: [String]) {
        assetDeletions.append(contentsOf: identifiers)
    }

    /// A request to create an album titled `title`.
    public func creationRequestForAssetCollection(withTitle title: String) -> AssetCollectionChangeRequest {
        let request = AssetCollectionChangeRequest(creatingWithTitle: title)
        collectionRequests.append(request)
        return request
    }

    /// A request to change the album with `identifier` (or one created earlier in this batch).
    public func changeRequest(forAssetCollectionWithLocalIdentifier identifier: String) -> AssetCollectionChangeRequest {
        let request = AssetCollectionChangeRequest(changing: identifier)
        collectionRequests.append(request)
        return request
    }

    /// Deletes albums (their assets stay in the library).
    public func deleteAssetCollections(withLocalIdentifiers identifiers: [String]) {
        collectionDeletions.append(contentsOf: identifiers)
    }

    /// Registers a change request made with `AssetChangeRequest(for:)`.
    func register(_ request: AssetChangeRequest) { assetChanges.append(request) }

    /// Registers a change request made with `AssetCollectionChangeRequest(for:)`.
    func register(_ request: AssetCollectionChangeRequest) { collectionRequests.append(request) }
}
