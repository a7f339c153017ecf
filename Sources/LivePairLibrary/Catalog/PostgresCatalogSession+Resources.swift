import Foundation
import LivePairPostgres

extension PostgresCatalogSession {
    // MARK: - Resources

    func resources(ofAsset identifier: String) throws(LibraryError) -> [LibraryAssetResource] {
        try rows(
            "SELECT \(ResourceRow.columns) FROM resources WHERE asset_id = $1 ORDER BY ordinal", [.text(identifier)]
        ) { (row: PostgresRow) throws(PostgresError) in try ResourceRow.resource(from: row) }
    }

    func resources(ofAssets identifiers: [String]) throws(LibraryError) -> [String: [LibraryAssetResource]] {
        guard !identifiers.isEmpty else { return [:] }
        let resources = try rows(
            "SELECT \(ResourceRow.columns) FROM resources WHERE asset_id IN (SELECT json_array_elements_text($1::json)) ORDER BY asset_id, ordinal",
            [Self.list(identifiers)]
        ) { (row: PostgresRow) throws(PostgresError) in try ResourceRow.resource(from: row) }
        return Dictionary(grouping: resources, by: \.assetLocalIdentifier)
    }

    func insertResource(_ resource: LibraryAssetResource) throws(LibraryError) {
        try run(
            "INSERT INTO resources(\(ResourceRow.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            ResourceRow.values(of: resource, filename: .bytes).map(Self.value))
    }

    func deleteResources(ofAsset identifier: String, types: [AssetResourceType]) throws(LibraryError) -> [ContentDigest] {
        let parameters: [PostgresValue] = [.text(identifier), Self.list(types.map(\.rawValue))]
        let digests = try rows(
            "SELECT digest FROM resources WHERE asset_id = $1 AND type IN (SELECT json_array_elements_text($2::json)) ORDER BY ordinal",
            parameters
        ) { (row: PostgresRow) throws(PostgresError) in ContentDigest(hex: try row.string(0)) }
        _ = try run(
            "DELETE FROM resources WHERE asset_id = $1 AND type IN (SELECT json_array_elements_text($2::json))", parameters)
        return digests
    }

    func moveResource(ofAsset identifier: String, ordinal: Int, to newOrdinal: Int, type: AssetResourceType) throws(LibraryError) {
        _ = try run(
            "UPDATE resources SET ordinal = $1, type = $2 WHERE asset_id = $3 AND ordinal = $4",
            [.integer(Int64(newOrdinal)), .text(type.rawValue), .text(identifier), .integer(Int64(ordinal))])
    }

    func assetIdentifiers(owner: String?, withResource digest: ContentDigest, types: [AssetResourceType]) throws(LibraryError) -> [String] {
        try rows(
            "SELECT r.asset_id FROM resources r JOIN assets a ON a.id = r.asset_id WHERE r.digest = $1 AND r.type IN (SELECT json_array_elements_text($2::json)) AND a.owner IS NOT DISTINCT FROM $3 GROUP BY r.asset_id ORDER BY MIN(a.row_order)",
            [.text(digest.hex), Self.list(types.map(\.rawValue)), .optional(owner)]
        ) { (row: PostgresRow) throws(PostgresError) in try row.string(0) }
    }

    func assetIdentifiers(owner: String?, withResources resources: [ResourceKey]) throws(LibraryError) -> [String] {
        guard let first = resources.first else { return [] }
        let candidates = try rows(
            "SELECT r.asset_id FROM resources r JOIN assets a ON a.id = r.asset_id WHERE r.digest = $1 AND r.type = $2 AND a.owner IS NOT DISTINCT FROM $3 GROUP BY r.asset_id ORDER BY MIN(a.row_order)",
            [.text(first.digest.hex), .text(first.type.rawValue), .optional(owner)]
        ) { (row: PostgresRow) throws(PostgresError) in try row.string(0) }
        return try assetsHavingExactly(resources, among: candidates)
    }

    func isReferenced(_ digest: ContentDigest) throws(LibraryError) -> Bool {
        try run(
            "SELECT EXISTS(SELECT 1 FROM resources WHERE digest = $1) OR EXISTS(SELECT 1 FROM records WHERE digest = $1)",
            [.text(digest.hex)]
        ).scalar == .bool(true)
    }

    func referencedDigests() throws(LibraryError) -> Set<ContentDigest> {
        Set(
            try rows("SELECT digest FROM resources UNION SELECT digest FROM records WHERE digest IS NOT NULL") {
                (row: PostgresRow) throws(PostgresError) in ContentDigest(hex: try row.string(0))
            })
    }

    // MARK: - Collections

    func collectionIdentifiers(matching query: CollectionQuery) throws(LibraryError) -> [String] {
        let identifier = { (row: PostgresRow) throws(PostgresError) -> String? in try row.string(0) }
        switch query {
        case .all:
            return try rows("SELECT id FROM collections ORDER BY creation_date, row_order", [], identifier)
        case let .identifiers(identifiers):
            return try rows(
                "SELECT c.id FROM collections c JOIN json_array_elements_text($1::json) WITH ORDINALITY j(value, key) ON j.value = c.id ORDER BY j.key",
                [Self.list(identifiers)], identifier)
        case let .title(title):
            return try rows(
                "SELECT id FROM collections WHERE title = $1 ORDER BY creation_date, row_order", [.text(title)], identifier)
        case let .containing(asset):
            return try rows(
                "SELECT c.id FROM collections c JOIN collection_members m ON m.collection_id = c.id WHERE m.asset_id = $1 ORDER BY c.creation_date, c.row_order",
                [.text(asset)], identifier)
        }
    }

    func collections(withIdentifiers identifiers: [String]) throws(LibraryError) -> [String: AssetCollection] {
        guard !identifiers.isEmpty else { return [:] }
        let found = try rows(
            "SELECT c.id, c.title, c.creation_date, (SELECT COUNT(*) FROM collection_members m WHERE m.collection_id = c.id) FROM collections c WHERE c.id IN (SELECT json_array_elements_text($1::json))",
            [Self.list(identifiers)]
        ) { (row: PostgresRow) throws(PostgresError) in
            AssetCollection(
                localIdentifier: try row.string(0), title: try row.string(1),
                creationDate: Date(timeIntervalSinceReferenceDate: try row.double(2)), assetCount: Int(try row.int64(3)))
        }
        return Dictionary(found.map { ($0.localIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func insertCollection(_ collection: AssetCollection) throws(LibraryError) {
        try run(
            "INSERT INTO collections(id, title, creation_date) VALUES ($1, $2, $3)",
            [.text(collection.localIdentifier), .text(collection.title), .real(collection.creationDate.timeIntervalSinceReferenceDate)])
    }

    func updateCollectionTitle(_ identifier: String, title: String) throws(LibraryError) {
        guard try run("UPDATE collections SET title = $1 WHERE id = $2", [.text(title), .text(identifier)]).affectedRows == 1
        else { throw .notFound(localIdentifier: identifier) }
    }

    func deleteCollection(_ identifier: String) throws(LibraryError) {
        guard try run("DELETE FROM collections WHERE id = $1", [.text(identifier)]).affectedRows == 1 else {
            throw .notFound(localIdentifier: identifier)
        }
    }

    func addAssets(_ assets: [String], toCollection collection: String) throws(LibraryError) -> [String] {
        var added: [String] = []
        for asset in assets {
            let result = try run(
                "INSERT INTO collection_members(collection_id, asset_id, position) VALUES ($1, $2, (SELECT COALESCE(MAX(position), -1) + 1 FROM collection_members WHERE collection_id = $1)) ON CONFLICT DO NOTHING",
                [.text(collection), .text(asset)])
            if result.affectedRows == 1 { added.append(asset) }
        }
        return added
    }

    func removeAssets(_ assets: [String], fromCollection collection: String) throws(LibraryError) -> [String] {
        var removed: [String] = []
        for asset in assets {
            let result = try run(
                "DELETE FROM collection_members WHERE collection_id = $1 AND asset_id = $2", [.text(collection), .text(asset)])
            if result.affectedRows == 1 { removed.append(asset) }
        }
        return removed
    }
}
