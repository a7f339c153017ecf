/// Creates or changes an album, as PhotoKit's `PHAssetCollectionChangeRequest`. Assets are added
/// at the end in the order given (those already present keep their place).
public final class AssetCollectionChangeRequest {
    /// One edit of the album's members.
    struct MembershipEdit {
        /// True adds, false removes.
        var adds: Bool
        /// The assets (placeholder identifiers included).
        var identifiers: [String]
    }

    /// The album: new (its placeholder's identifier) or existing.
    let collectionIdentifier: String
    /// True for a creation request.
    let isCreation: Bool
    /// Membership edits in order.
    private(set) var membershipEdits: [MembershipEdit] = []

    /// The album's new title; nil leaves it unchanged.
    public var title: String?

    /// Stands for the album being created; nil for a change request.
    public var placeholderForCreatedAssetCollection: ObjectPlaceholder? {
        isCreation ? ObjectPlaceholder(localIdentifier: collectionIdentifier) : nil
    }

    init(creatingWithTitle title: String) {
        collectionIdentifier = LocalIdentifier.make()
        isCreation = true
        self.title = title
    }

    init(changing identifier: String) {
        collectionIdentifier = identifier
        isCreation = false
    }

    /// A request registered with the running change block, creating an album titled `title`.
    public static func creationRequestForAssetCollection(withTitle title: String) -> AssetCollectionChangeRequest {
        ChangeContext.required("AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle:)")
            .creationRequestForAssetCollection(withTitle: title)
    }

    /// A request registered with the running change block, changing `collection`.
    public convenience init(for collection: AssetCollection) {
        self.init(changing: collection.localIdentifier)
        ChangeContext.required("AssetCollectionChangeRequest(for:)").register(self)
    }

    /// Deletes albums (their assets stay).
    public static func deleteAssetCollections(_ collections: [AssetCollection]) {
        ChangeContext.required("AssetCollectionChangeRequest.deleteAssetCollections(_:)")
            .deleteAssetCollections(withLocalIdentifiers: collections.map(\.localIdentifier))
    }

    /// Appends `assets`.
    public func addAssets(_ assets: [Asset]) { addAssets(withLocalIdentifiers: assets.map(\.localIdentifier)) }

    /// Appends the assets created in this batch that `placeholders` stand for.
    public func addAssets(_ placeholders: [ObjectPlaceholder]) {
        addAssets(withLocalIdentifiers: placeholders.map(\.localIdentifier))
    }

    /// Appends the assets with these identifiers (placeholder identifiers included).
    public func addAssets(withLocalIdentifiers identifiers: [String]) {
        membershipEdits.append(MembershipEdit(adds: true, identifiers: identifiers))
    }

    /// Removes `assets`.
    public func removeAssets(_ assets: [Asset]) { removeAssets(withLocalIdentifiers: assets.map(\.localIdentifier)) }

    /// Removes the assets with these identifiers.
    public func removeAssets(withLocalIdentifiers identifiers: [String]) {
        membershipEdits.append(MembershipEdit(adds: false, identifiers: identifiers))
    }
}
