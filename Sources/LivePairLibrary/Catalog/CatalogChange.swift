import Foundation

/// One committed batch as the change log records it.
struct CatalogChange: Sendable, Equatable {
    /// The batch's sequence number: increases with each committed batch.
    var sequence: Int64
    /// When it committed.
    var committedAt: Date
    /// Assets the batch created.
    var insertedAssets: [String]
    /// Assets whose properties changed.
    var updatedAssets: [String]
    /// Assets the batch deleted.
    var deletedAssets: [String]
    /// Albums created, changed (title, members) or deleted.
    var changedCollections: [String]
}
