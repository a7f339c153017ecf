import Foundation

/// Everything a change block asked for, copied out of its request objects so the batch can be
/// carried to another thread and applied.
struct ChangeBatchPlan: Sendable {
    /// One asset to create.
    struct Creation: Sendable {
        var index: Int
        var placeholder: String
        var additions: [ResourceAddition]
        var creationDate: Date?
        var location: AssetLocation?
        var isFavorite: Bool
        var isHidden: Bool
        var owner: String?
    }

    /// Property changes of one asset; nil leaves a property unchanged.
    struct AssetChange: Sendable {
        var identifier: String
        var isFavorite: Bool?
        var isHidden: Bool?
        var creationDate: Date??
        var location: AssetLocation??
        var caption: String??
        /// The asset's edit applied or reverted, when asked.
        var edit: EditChange?

        /// `asset` with the changes applied.
        func applied(to asset: Asset) -> Asset {
            var changed = asset
            if let isFavorite { changed.isFavorite = isFavorite }
            if let isHidden { changed.isHidden = isHidden }
            if let creationDate { changed.creationDate = creationDate }
            if let location { changed.location = location }
            if let caption { changed.caption = caption }
            return changed
        }
    }

    /// One album to create or change.
    struct CollectionChange: Sendable {
        var identifier: String
        var isCreation: Bool
        var title: String?
        var edits: [(adds: Bool, identifiers: [String])]
    }

    var creations: [Creation] = []
    var assetChanges: [AssetChange] = []
    var assetDeletions: [String] = []
    var collectionChanges: [CollectionChange] = []
    var collectionDeletions: [String] = []

    /// The plan of the requests registered with `context`.
    init(_ context: ChangeContext) {
        creations = context.assetCreations.map { request in
            Creation(
                index: request.index, placeholder: request.placeholderForCreatedAsset.localIdentifier,
                additions: request.additions, creationDate: request.creationDate, location: request.location,
                isFavorite: request.isFavorite, isHidden: request.isHidden, owner: request.owner)
        }
        assetChanges = context.assetChanges.map { request in
            AssetChange(
                identifier: request.localIdentifier, isFavorite: request.changedFavorite, isHidden: request.changedHidden,
                creationDate: request.changedCreationDate, location: request.changedLocation, caption: request.changedCaption,
                edit: request.editChange)
        }
        assetDeletions = context.assetDeletions
        collectionChanges = context.collectionRequests.map { request in
            CollectionChange(
                identifier: request.collectionIdentifier, isCreation: request.isCreation, title: request.title,
                edits: request.membershipEdits.map { ($0.adds, $0.identifiers) })
        }
        collectionDeletions = context.collectionDeletions
    }

    /// True when the plan asks for nothing.
    var isEmpty: Bool {
        creations.isEmpty && assetChanges.isEmpty && assetDeletions.isEmpty && collectionChanges.isEmpty
            && collectionDeletions.isEmpty
    }

    /// Appends `other`'s requests (made inside the catalog transaction) after this plan's.
    mutating func append(_ other: ChangeBatchPlan) {
        let offset = creations.count
        creations += other.creations.map { creation in
            var shifted = creation
            shifted.index += offset
            return shifted
        }
        assetChanges += other.assetChanges
        assetDeletions += other.assetDeletions
        collectionChanges += other.collectionChanges
        collectionDeletions += other.collectionDeletions
    }
}
