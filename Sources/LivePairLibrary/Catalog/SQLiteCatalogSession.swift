import Foundation
import LivePairSQLite

/// The catalog's reads and writes on one locked SQLite connection inside a transaction.
struct SQLiteCatalogSession: CatalogWriter {
    let database: SQLiteDatabase

    /// The asset columns, in the order `decodeAsset` reads them.
    static let assetColumns = AssetRow.columns

    /// Runs SQLite work, reporting its errors as `LibraryError.catalog`.
    func sql<Value>(_ body: () throws(SQLiteError) -> Value) throws(LibraryError) -> Value {
        do throws(SQLiteError) {
            return try body()
        } catch {
            throw .catalog(error)
        }
    }

    /// Runs `text` with `parameters` and collects one value per row (rows decoded to nil are skipped).
    func rows<Value>(
        _ text: String, _ parameters: [SQLiteValue] = [], _ decode: (SQLiteStatement) -> Value?
    ) throws(LibraryError) -> [Value] {
        try sql { () throws(SQLiteError) -> [Value] in
            let statement = try database.prepare(text)
            try statement.bind(parameters)
            var values: [Value] = []
            while try statement.step() {
                if let value = decode(statement) { values.append(value) }
            }
            return values
        }
    }

    func run(_ text: String, _ parameters: [SQLiteValue]) throws(LibraryError) {
        try sql { () throws(SQLiteError) in try database.run(text, parameters) }
    }

    // MARK: - Identity

    func libraryIdentity() throws(LibraryError) -> String? {
        try sql { () throws(SQLiteError) -> String? in
            guard try database.scalarInteger(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'library_identity'") == 1
            else { return nil }
            return try database.scalarText("SELECT identity FROM library_identity LIMIT 1")
        }
    }

    // MARK: - Change log

    func latestChangeSequence() throws(LibraryError) -> Int64 {
        try sql { () throws(SQLiteError) in try database.scalarInteger("SELECT MAX(sequence) FROM change_log") ?? 0 }
    }

    func changes(after sequence: Int64) throws(LibraryError) -> [CatalogChange] {
        try rows(
            "SELECT sequence, committed_at, inserted_assets, updated_assets, deleted_assets, changed_collections FROM change_log WHERE sequence > ? ORDER BY sequence",
            [.integer(sequence)]
        ) { row in
            CatalogChange(
                sequence: row.int64(0), committedAt: Date(timeIntervalSinceReferenceDate: row.double(1)),
                insertedAssets: Self.list(row.string(2)), updatedAssets: Self.list(row.string(3)),
                deletedAssets: Self.list(row.string(4)), changedCollections: Self.list(row.string(5)))
        }
    }

    func appendChange(
        insertedAssets: [String], updatedAssets: [String], deletedAssets: [String], changedCollections: [String],
        committedAt: Date
    ) throws(LibraryError) -> Int64 {
        try run(
            "INSERT INTO change_log(committed_at, inserted_assets, updated_assets, deleted_assets, changed_collections) VALUES (?, ?, ?, ?, ?)",
            [
                .real(committedAt.timeIntervalSinceReferenceDate), .text(insertedAssets.joined(separator: "\n")),
                .text(updatedAssets.joined(separator: "\n")), .text(deletedAssets.joined(separator: "\n")),
                .text(changedCollections.joined(separator: "\n")),
            ])
        return database.lastInsertRowID
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    // MARK: - Assets

    func assetIdentifiers(matching query: AssetQuery) throws(LibraryError) -> [String] {
        let compiled = AssetQuerySQL(query)
        return try rows(compiled.sql, compiled.parameters) { $0.string(0) }
    }

    func assets(matching query: AssetQuery, offset: Int) throws(LibraryError) -> [Asset] {
        let compiled = AssetQuerySQL(query, selecting: .rows(offset: offset))
        return try rows(compiled.sql, compiled.parameters, Self.decodeAsset)
    }

    func assetCount(matching query: AssetQuery) throws(LibraryError) -> Int {
        let compiled = AssetQuerySQL(query, selecting: .count)
        return try rows(compiled.sql, compiled.parameters) { Int($0.int64(0)) }.first ?? 0
    }

    func assets(withIdentifiers identifiers: [String], includingDeleted: Bool) throws(LibraryError) -> [String: Asset] {
        guard !identifiers.isEmpty else { return [:] }
        let list = SQLiteValue.text(AssetQuerySQL.jsonArray(identifiers))
        var found: [String: Asset] = [:]
        for asset in try rows(
            "SELECT \(AssetRow.selectColumns(from: "assets")) FROM assets WHERE id IN (SELECT value FROM json_each(?))", [list], Self.decodeAsset)
        {
            found[asset.localIdentifier] = asset
        }
        if includingDeleted, found.count < Set(identifiers).count {
            for asset in try rows(
                "SELECT \(AssetRow.selectColumns(from: "asset_tombstones")) FROM asset_tombstones WHERE id IN (SELECT value FROM json_each(?))", [list],
                Self.decodeAsset) where found[asset.localIdentifier] == nil
            {
                found[asset.localIdentifier] = asset
            }
        }
        return found
    }

    static func decodeAsset(_ row: SQLiteStatement) -> Asset? { AssetRow.asset(from: row) }

    private static func assetValues(_ asset: Asset) -> [SQLiteValue] { AssetRow.values(of: asset) }

    func insertAsset(_ asset: Asset) throws(LibraryError) {
        try run(
            "INSERT INTO assets(\(Self.assetColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            Self.assetValues(asset))
    }

    func updateAsset(_ asset: Asset) throws(LibraryError) {
        try run(
            "UPDATE assets SET media_type = ?2, subtypes = ?3, pixel_width = ?4, pixel_height = ?5, duration = ?6, creation_date = ?7, latitude = ?8, longitude = ?9, favorite = ?10, hidden = ?11, content_identifier = ?12, owner = ?13, added_date = ?14, still_image_time = ?15, findings = ?16, caption = ?17 WHERE id = ?1",
            Self.assetValues(asset))
        guard database.changes == 1 else { throw .notFound(localIdentifier: asset.localIdentifier) }
    }

    func deleteAsset(_ identifier: String) throws(LibraryError) -> [ContentDigest] {
        let digests = try rows("SELECT digest FROM resources WHERE asset_id = ? ORDER BY ordinal", [.text(identifier)]) {
            ContentDigest(hex: $0.string(0))
        }
        try run(
            "INSERT OR REPLACE INTO asset_tombstones(\(Self.assetColumns), deleted_date) SELECT \(Self.assetColumns), ? FROM assets WHERE id = ?",
            [.real(Date().timeIntervalSinceReferenceDate), .text(identifier)])
        try run("DELETE FROM assets WHERE id = ?", [.text(identifier)])
        guard database.changes == 1 else { throw .notFound(localIdentifier: identifier) }
        return digests
    }

    // MARK: - Resources

    func resources(ofAsset identifier: String) throws(LibraryError) -> [LibraryAssetResource] {
        try rows(
            "SELECT \(ResourceRow.columns) FROM resources WHERE asset_id = ? ORDER BY ordinal", [.text(identifier)],
            ResourceRow.resource(from:))
    }

    func resources(ofAssets identifiers: [String]) throws(LibraryError) -> [String: [LibraryAssetResource]] {
        guard !identifiers.isEmpty else { return [:] }
        let resources = try rows(
            "SELECT \(ResourceRow.columns) FROM resources WHERE asset_id IN (SELECT value FROM json_each(?)) ORDER BY asset_id, ordinal",
            [.text(AssetQuerySQL.jsonArray(identifiers))], ResourceRow.resource(from:))
        return Dictionary(grouping: resources, by: \.assetLocalIdentifier)
    }

    func insertResource(_ resource: LibraryAssetResource) throws(LibraryError) {
        try run(
            "INSERT INTO resources(\(ResourceRow.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)",
            ResourceRow.values(of: resource, filename: .text))
    }

    func deleteResources(ofAsset identifier: String, types: [AssetResourceType]) throws(LibraryError) -> [ContentDigest] {
        let parameters: [SQLiteValue] = [.text(identifier), .text(AssetQuerySQL.jsonArray(types.map(\.rawValue)))]
        let digests = try rows(
            "SELECT digest FROM resources WHERE asset_id = ? AND type IN (SELECT value FROM json_each(?)) ORDER BY ordinal",
            parameters
        ) { ContentDigest(hex: $0.string(0)) }
        try run("DELETE FROM resources WHERE asset_id = ? AND type IN (SELECT value FROM json_each(?))", parameters)
        return digests
    }

    func moveResource(ofAsset identifier: String, ordinal: Int, to newOrdinal: Int, type: AssetResourceType) throws(LibraryError) {
        try run(
            "UPDATE resources SET ordinal = ?, type = ? WHERE asset_id = ? AND ordinal = ?",
            [.integer(Int64(newOrdinal)), .text(type.rawValue), .text(identifier), .integer(Int64(ordinal))])
    }

    func assetIdentifiers(owner: String?, withResource digest: ContentDigest, types: [AssetResourceType]) throws(LibraryError) -> [String] {
        try rows(
            "SELECT DISTINCT r.asset_id FROM resources r JOIN assets a ON a.id = r.asset_id WHERE r.digest = ? AND r.type IN (SELECT value FROM json_each(?)) AND a.owner IS ? ORDER BY a.rowid",
            [.text(digest.hex), .text(AssetQuerySQL.jsonArray(types.map(\.rawValue))), .optional(owner)]
        ) { $0.string(0) }
    }

    func assetIdentifiers(owner: String?, withResources resources: [ResourceKey]) throws(LibraryError) -> [String] {
        guard let first = resources.first else { return [] }
        let candidates = try rows(
            "SELECT DISTINCT r.asset_id FROM resources r JOIN assets a ON a.id = r.asset_id WHERE r.digest = ? AND r.type = ? AND a.owner IS ? ORDER BY a.rowid",
            [.text(first.digest.hex), .text(first.type.rawValue), .optional(owner)]
        ) { $0.string(0) }
        return try assetsHavingExactly(resources, among: candidates)
    }

    func isReferenced(_ digest: ContentDigest) throws(LibraryError) -> Bool {
        try sql { () throws(SQLiteError) in
            try database.scalarInteger(
                "SELECT EXISTS(SELECT 1 FROM resources WHERE digest = ?1) OR EXISTS(SELECT 1 FROM records WHERE digest = ?1)",
                [.text(digest.hex)]) == 1
        }
    }

    func referencedDigests() throws(LibraryError) -> Set<ContentDigest> {
        Set(
            try rows("SELECT digest FROM resources UNION SELECT digest FROM records WHERE digest IS NOT NULL") {
                ContentDigest(hex: $0.string(0))
            })
    }

    // MARK: - Collections

    func collectionIdentifiers(matching query: CollectionQuery) throws(LibraryError) -> [String] {
        switch query {
        case .all:
            return try rows("SELECT id FROM collections ORDER BY creation_date, rowid") { $0.string(0) }
        case let .identifiers(identifiers):
            return try rows(
                "SELECT c.id FROM collections c JOIN json_each(?) j ON j.value = c.id ORDER BY j.key",
                [.text(AssetQuerySQL.jsonArray(identifiers))]
            ) { $0.string(0) }
        case let .title(title):
            return try rows("SELECT id FROM collections WHERE title = ? ORDER BY creation_date, rowid", [.text(title)]) {
                $0.string(0)
            }
        case let .containing(asset):
            return try rows(
                "SELECT c.id FROM collections c JOIN collection_members m ON m.collection_id = c.id WHERE m.asset_id = ? ORDER BY c.creation_date, c.rowid",
                [.text(asset)]
            ) { $0.string(0) }
        }
    }

    func collections(withIdentifiers identifiers: [String]) throws(LibraryError) -> [String: AssetCollection] {
        guard !identifiers.isEmpty else { return [:] }
        let found = try rows(
            "SELECT c.id, c.title, c.creation_date, (SELECT COUNT(*) FROM collection_members m WHERE m.collection_id = c.id) FROM collections c WHERE c.id IN (SELECT value FROM json_each(?))",
            [.text(AssetQuerySQL.jsonArray(identifiers))]
        ) { row in
            AssetCollection(
                localIdentifier: row.string(0), title: row.string(1),
                creationDate: Date(timeIntervalSinceReferenceDate: row.double(2)), assetCount: Int(row.int64(3)))
        }
        return Dictionary(found.map { ($0.localIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func insertCollection(_ collection: AssetCollection) throws(LibraryError) {
        try run(
            "INSERT INTO collections(id, title, creation_date) VALUES (?, ?, ?)",
            [.text(collection.localIdentifier), .text(collection.title), .real(collection.creationDate.timeIntervalSinceReferenceDate)])
    }

    func updateCollectionTitle(_ identifier: String, title: String) throws(LibraryError) {
        try run("UPDATE collections SET title = ? WHERE id = ?", [.text(title), .text(identifier)])
        guard database.changes == 1 else { throw .notFound(localIdentifier: identifier) }
    }

    func deleteCollection(_ identifier: String) throws(LibraryError) {
        try run("DELETE FROM collections WHERE id = ?", [.text(identifier)])
        guard database.changes == 1 else { throw .notFound(localIdentifier: identifier) }
    }

    func addAssets(_ assets: [String], toCollection collection: String) throws(LibraryError) -> [String] {
        var added: [String] = []
        for asset in assets {
            try run(
                "INSERT OR IGNORE INTO collection_members(collection_id, asset_id, position) VALUES (?1, ?2, (SELECT COALESCE(MAX(position), -1) + 1 FROM collection_members WHERE collection_id = ?1))",
                [.text(collection), .text(asset)])
            if database.changes == 1 { added.append(asset) }
        }
        return added
    }

    func removeAssets(_ assets: [String], fromCollection collection: String) throws(LibraryError) -> [String] {
        var removed: [String] = []
        for asset in assets {
            try run("DELETE FROM collection_members WHERE collection_id = ? AND asset_id = ?", [.text(collection), .text(asset)])
            if database.changes == 1 { removed.append(asset) }
        }
        return removed
    }

    // MARK: - Records

    private static let recordColumns = "namespace, key, lookup_key, digest, date, payload"

    private static func decodeRecord(_ row: SQLiteStatement) -> CatalogRecord? {
        CatalogRecord(
            namespace: row.string(0), key: row.string(1), lookupKey: row.optionalString(2),
            digest: row.optionalString(3).flatMap(ContentDigest.init(hex:)),
            date: row.optionalDouble(4).map(Date.init(timeIntervalSinceReferenceDate:)), payload: row.blob(5))
    }

    func record(namespace: String, key: String) throws(LibraryError) -> CatalogRecord? {
        try rows(
            "SELECT \(Self.recordColumns) FROM records WHERE namespace = ? AND key = ?", [.text(namespace), .text(key)],
            Self.decodeRecord
        ).first
    }

    func records(namespace: String, lookupKey: String) throws(LibraryError) -> [CatalogRecord] {
        try rows(
            "SELECT \(Self.recordColumns) FROM records WHERE namespace = ? AND lookup_key = ? ORDER BY key",
            [.text(namespace), .text(lookupKey)], Self.decodeRecord)
    }

    func records(namespace: String, olderThan date: Date) throws(LibraryError) -> [CatalogRecord] {
        try rows(
            "SELECT \(Self.recordColumns) FROM records WHERE namespace = ? AND date < ? ORDER BY date, key",
            [.text(namespace), .real(date.timeIntervalSinceReferenceDate)], Self.decodeRecord)
    }

    func records(namespace: String) throws(LibraryError) -> [CatalogRecord] {
        try rows(
            "SELECT \(Self.recordColumns) FROM records WHERE namespace = ? ORDER BY key", [.text(namespace)],
            Self.decodeRecord)
    }

    func records(namespace: String, keys: [String]) throws(LibraryError) -> [CatalogRecord] {
        guard !keys.isEmpty else { return [] }
        return try rows(
            "SELECT \(Self.recordColumns) FROM records WHERE namespace = ? AND key IN (SELECT value FROM json_each(?)) ORDER BY key",
            [.text(namespace), .text(AssetQuerySQL.jsonArray(keys))], Self.decodeRecord)
    }

    func putRecord(_ record: CatalogRecord) throws(LibraryError) {
        try run(
            "INSERT OR REPLACE INTO records(\(Self.recordColumns)) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(record.namespace), .text(record.key), .optional(record.lookupKey), .optional(record.digest?.hex),
                .optional(record.date?.timeIntervalSinceReferenceDate), .blob(record.payload),
            ])
    }

    @discardableResult
    func removeRecord(namespace: String, key: String) throws(LibraryError) -> Bool {
        try run("DELETE FROM records WHERE namespace = ? AND key = ?", [.text(namespace), .text(key)])
        return database.changes == 1
    }
}
