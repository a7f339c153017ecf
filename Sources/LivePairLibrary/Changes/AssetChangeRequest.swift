public import Foundation

/// Changes an existing asset, as PhotoKit's `PHAssetChangeRequest`: favorite, hidden, creation
/// date, location, caption, and its edit (`contentEditingOutput`, `revertAssetContentToOriginal`). Only
/// the properties set are written. Deleting removes the whole asset with all
/// its resources (a Live Photo's still and movie go together; there is no way to delete one half).
public final class AssetChangeRequest {
    /// The asset being changed.
    public let localIdentifier: String
    private(set) var changedFavorite: Bool?
    private(set) var changedHidden: Bool?
    private(set) var changedCreationDate: Date??
    private(set) var changedLocation: AssetLocation??
    private(set) var changedCaption: String??
    private(set) var editChange: EditChange?

    /// Favorite; starts with the asset's value.
    public var isFavorite: Bool { didSet { changedFavorite = isFavorite } }
    /// Hidden; starts with the asset's value.
    public var isHidden: Bool { didSet { changedHidden = isHidden } }
    /// Creation date; starts with the asset's value.
    public var creationDate: Date? { didSet { changedCreationDate = .some(creationDate) } }
    /// Location; starts with the asset's value.
    public var location: AssetLocation? { didSet { changedLocation = .some(location) } }
    /// Caption (the asset's description); starts with the asset's value. An empty caption is
    /// stored as none.
    public var caption: String? { didSet { changedCaption = .some(caption.flatMap { $0.isEmpty ? nil : $0 }) } }

    /// An edit made elsewhere to apply (render and adjustment data replace any earlier edit's),
    /// as PhotoKit's `contentEditingOutput`; nil leaves the edit as it is.
    public var contentEditingOutput: ContentEditingOutput? {
        get {
            if case let .apply(output) = editChange { return output }
            return nil
        }
        set { editChange = newValue.map(EditChange.apply) }
    }

    /// Removes the asset's edit, as PhotoKit's `revertAssetContentToOriginal()`: its render
    /// (`fullSizePhoto`, `fullSizePairedVideo`, `fullSizeVideo`) and adjustment data go; the
    /// original resources (and camera adjustments, `originalAdjustmentData`) stay byte for byte.
    /// The removed files leave the store only when no asset or record uses them.
    public func revertAssetContentToOriginal() { editChange = .revert }

    init(asset: Asset) {
        localIdentifier = asset.localIdentifier
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
        creationDate = asset.creationDate
        location = asset.location
        caption = asset.caption
    }

    /// A request registered with the running change block, to change `asset`.
    public convenience init(for asset: Asset) {
        self.init(asset: asset)
        ChangeContext.required("AssetChangeRequest(for:)").register(self)
    }

    /// Deletes `assets` with all their resources.
    public static func deleteAssets(_ assets: [Asset]) {
        ChangeContext.required("AssetChangeRequest.deleteAssets(_:)")
            .deleteAssets(withLocalIdentifiers: assets.map(\.localIdentifier))
    }

    /// Deletes the assets with these identifiers.
    public static func deleteAssets(withLocalIdentifiers identifiers: [String]) {
        ChangeContext.required("AssetChangeRequest.deleteAssets(withLocalIdentifiers:)")
            .deleteAssets(withLocalIdentifiers: identifiers)
    }
}
