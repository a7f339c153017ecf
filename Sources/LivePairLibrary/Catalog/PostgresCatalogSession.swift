import Foundation
import LivePairPostgres
import LivePairSQLite

/// The catalog's reads and writes on one pooled PostgreSQL connection inside a transaction. The
/// same rows and meanings as `SQLiteCatalogSession`; every value is a bound parameter.
struct PostgresCatalogSession: CatalogWriter {
    let connection: PostgresConnection
    /// The channel `appendChange` notifies (the listeners of other nodes wake up on commit).
    let notificationChannel: String

    /// The asset columns, in the order `decodeAsset` reads them.
    static let assetColumns = AssetRow.columns

    /// Runs `text` with `parameters`, reporting failures as `LibraryError.catalogServer`.
    @discardableResult
    func run(_ text: String, _ parameters: [PostgresValue] = []) throws(LibraryError) -> PostgresRows {
        do throws(PostgresError) {
            return try connection.execute(text, parameters)
        } catch {
            throw .catalogServer(error)
        }
    }

    /// Runs `text` and decodes one value per row (rows decoded to nil are skipped).
    func rows<Value>(
        _ text: String, _ parameters: [PostgresValue] = [], _ decode: (PostgresRow) throws(PostgresError) -> Value?
    ) throws(LibraryError) -> [Value] {
        let result = try run(text, parameters)
        do throws(PostgresError) {
            var values: [Value] = []
            for row in result.rows {
                if let value = try decode(row) { values.append(value) }
            }
            return values
        } catch {
            throw .catalogServer(error)
        }
    }

    /// A JSON array of `values`, expanded by `json_array_elements_text` in the statements.
    static func list(_ values: [String]) -> PostgresValue { .text(AssetQuerySQL.jsonArray(values)) }

    // MARK: - Identity

    func libraryIdentity() throws(LibraryError) -> String? {
        guard try run("SELECT to_regclass('library_identity') IS NOT NULL").scalar == .bool(true) else { return nil }
        guard case let .text(identity) = try run("SELECT identity FROM library_identity LIMIT 1").scalar else { return nil }
        return identity
    }

    // MARK: - Change log

    func latestChangeSequence() throws(LibraryError) -> Int64 {
        guard case let .integer(sequence) = try run("SELECT COALESCE(MAX(sequence), 0) FROM change_log").scalar else { return 0 }
        return sequence
    }

    func changes(after sequence: Int64) throws(LibraryError) -> [CatalogChange] {
        try rows(
            "SELECT sequence, committed_at, inserted_assets, updated_assets, deleted_assets, changed_collections FROM change_log WHERE sequence > $1 ORDER BY sequence",
            [.integer(sequence)]
        ) { (row: PostgresRow) throws(PostgresError) in
            CatalogChange(
                sequence: try row.int64(0), committedAt: Date(timeIntervalSinceReferenceDate: try row.double(1)),
                insertedAssets: Self.lines(try row.string(2)), updatedAssets: Self.lines(try row.string(3)),
                deletedAssets: Self.lines(try row.string(4)), changedCollections: Self.lines(try row.string(5)))
        }
    }

    /// Takes the next number from the counter row (locked by this transaction since it began, see
    /// `PostgresCatalog.write`), so numbers follow commit order: no batch can commit a lower number
    /// after an observer has read a higher one.
    func appendChange(
        insertedAssets: [String], updatedAssets: [String], deletedAssets: [String], changedCollections: [String],
        committedAt: Date
    ) throws(LibraryError) -> Int64 {
        guard case let .integer(sequence) = try run(
            "UPDATE catalog_state SET change_sequence = change_sequence + 1 WHERE id = 1 RETURNING change_sequence"
        ).scalar else { throw .invalidRequest("the catalog_state row is missing") }
        try run(
            "INSERT INTO change_log(sequence, committed_at, inserted_assets, updated_assets, deleted_assets, changed_collections) VALUES ($1, $2, $3, $4, $5, $6)",
            [
                .integer(sequence), .real(committedAt.timeIntervalSinceReferenceDate),
                .text(insertedAssets.joined(separator: "\n")), .text(updatedAssets.joined(separator: "\n")),
                .text(deletedAssets.joined(separator: "\n")), .text(changedCollections.joined(separator: "\n")),
            ])
        try run("SELECT pg_notify($1, $2)", [.text(notificationChannel), .text(String(sequence))])
        return sequence
    }

    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    // MARK: - Assets

    func assetIdentifiers(matching query: AssetQuery) throws(LibraryError) -> [String] {
        let compiled = AssetQuerySQL(query, dialect: .postgres)
        return try rows(compiled.sql, compiled.parameters.map(Self.value)) { (row: PostgresRow) throws(PostgresError) in
            try row.string(0)
        }
    }

    /// The PostgreSQL form of a value the shared query compiler produced.
    static func value(_ value: SQLiteValue) -> PostgresValue {
        switch value {
        case .null: return .null
        case let .integer(number): return .integer(number)
        case let .real(number): return .real(number)
        case let .text(text): return .text(text)
        case let .blob(bytes): return .bytes(bytes)
        }
    }

    func assets(matching query: AssetQuery, offset: Int) throws(LibraryError) -> [Asset] {
        let compiled = AssetQuerySQL(query, dialect: .postgres, selecting: .rows(offset: offset))
        return try rows(compiled.sql, compiled.parameters.map(Self.value), Self.decodeAsset)
    }

    func assetCount(matching query: AssetQuery) throws(LibraryError) -> Int {
        let compiled = AssetQuerySQL(query, dialect: .postgres, selecting: .count)
        return try rows(compiled.sql, compiled.parameters.map(Self.value)) { (row: PostgresRow) throws(PostgresError) in
            Int(try row.int64(0))
        }.first ?? 0
    }

    func assets(withIdentifiers identifiers: [String], includingDeleted: Bool) throws(LibraryError) -> [String: Asset] {
        guard !identifiers.isEmpty else { return [:] }
        var found: [String: Asset] = [:]
        for asset in try rows(
            "SELECT \(AssetRow.selectColumns(from: "assets")) FROM assets WHERE id IN (SELECT json_array_elements_text($1::json))",
            [Self.list(identifiers)], Self.decodeAsset)
        {
            found[asset.localIdentifier] = asset
        }
        if includingDeleted, found.count < Set(identifiers).count {
            for asset in try rows(
                "SELECT \(AssetRow.selectColumns(from: "asset_tombstones")) FROM asset_tombstones WHERE id IN (SELECT json_array_elements_text($1::json))",
                [Self.list(identifiers)], Self.decodeAsset) where found[asset.localIdentifier] == nil
            {
                found[asset.localIdentifier] = asset
            }
        }
        return found
    }

    static func decodeAsset(_ row: PostgresRow) throws(PostgresError) -> Asset? { try AssetRow.asset(from: row) }

    private static func assetValues(_ asset: Asset) -> [PostgresValue] { AssetRow.values(of: asset).map(value) }

    func insertAsset(_ asset: Asset) throws(LibraryError) {
        try run(
            "INSERT INTO assets(\(Self.assetColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
            Self.assetValues(asset))
    }

    func updateAsset(_ asset: Asset) throws(LibraryError) {
        let result = try run(
            "UPDATE assets SET media_type = $2, subtypes = $3, pixel_width = $4, pixel_height = $5, duration = $6, creation_date = $7, latitude = $8, longitude = $9, favorite = $10, hidden = $11, content_identifier = $12, owner = $13, added_date = $14, still_image_time = $15, findings = $16, caption = $17 WHERE id = $1",
            Self.assetValues(asset))
        guard result.affectedRows == 1 else { throw .notFound(localIdentifier: asset.localIdentifier) }
    }

    func deleteAsset(_ identifier: String) throws(LibraryError) -> [ContentDigest] {
        let digests = try rows("SELECT digest FROM resources WHERE asset_id = $1 ORDER BY ordinal", [.text(identifier)]) {
            (row: PostgresRow) throws(PostgresError) in ContentDigest(hex: try row.string(0))
        }
        try run("DELETE FROM asset_tombstones WHERE id = $1", [.text(identifier)])
        try run(
            "INSERT INTO asset_tombstones(\(Self.assetColumns), deleted_date) SELECT \(Self.assetColumns), $1 FROM assets WHERE id = $2",
            [.real(Date().timeIntervalSinceReferenceDate), .text(identifier)])
        guard try run("DELETE FROM assets WHERE id = $1", [.text(identifier)]).affectedRows == 1 else {
            throw .notFound(localIdentifier: identifier)
        }
        return digests
    }
}
