import Foundation
import LivePairLibrary

/// Edit summaries (`EditRepresentation`) from the catalog: each adjustment data file (`.AAE`) is
/// read from the store and summarised once, and the summary kept as a catalog record keyed by the
/// file's digest (so an edit that changes its adjustment data gets a summary of its own, and
/// assets with the same `.AAE` share one). A listing of edited assets then reads one set of
/// records and no stored file; a library from before reads each `.AAE` once, at its first listing.
enum EditSummaries {
    /// The records' namespace (its version changes with the summary's form).
    static let namespace = "serve.edit-summary.2"

    /// The summary of each edited asset of `assets` (keyed by identifier), `resources` being each
    /// asset's: one catalog read, plus, for an adjustment data file summarised for the first time,
    /// its read from the store and one catalog write.
    static func summaries(
        of assets: [Asset], resources: [String: [LibraryAssetResource]], in library: PhotoLibrary
    ) throws(LibraryError) -> [String: EditRepresentation] {
        let edited = assets.filter(\.hasAdjustments)
        guard !edited.isEmpty else { return [:] }
        let keys = edited.map { key(of: resources[$0.localIdentifier] ?? []) }
        let stored = try library.recordPayloads(namespace: namespace, keys: Array(Set(keys.compactMap { $0 })))
        let decoder = JSONDecoder()
        var summaries: [String: EditRepresentation] = [:]
        var made: [String: EditRepresentation] = [:]
        for (asset, key) in zip(edited, keys) {
            if let key, let summary = made[key] ?? stored[key].flatMap({ try? decoder.decode(EditRepresentation.self, from: Data($0)) }) {
                summaries[asset.localIdentifier] = summary
                continue
            }
            guard let summary = try EditRepresentation.read(asset, in: library) else { continue }
            summaries[asset.localIdentifier] = summary
            if let key, let payload = JSONText.encode(summary) {
                made[key] = summary
                // Kept for the next listing; a catalog that cannot take it now only costs the next one this read.
                try? library.putRecordPayload(payload, namespace: namespace, key: key)
            }
        }
        return summaries
    }

    /// The summary of `asset`'s edit with `resources`; nil when it has none.
    static func summary(of asset: Asset, resources: [LibraryAssetResource], in library: PhotoLibrary) throws(LibraryError)
        -> EditRepresentation?
    {
        try summaries(of: [asset], resources: [asset.localIdentifier: resources], in: library)[asset.localIdentifier]
    }

    /// The record key of an asset's summary: its adjustment data's digest (nil without one).
    private static func key(of resources: [LibraryAssetResource]) -> String? {
        resources.first { $0.type == .adjustmentData }?.digest.hex
    }
}
