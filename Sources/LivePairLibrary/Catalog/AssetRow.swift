import Foundation
import LivePairPostgres
import LivePairSQLite

/// The asset row as both catalog engines store it: the columns, the values written for an asset
/// (in column order, in the neutral `SQLiteValue` form the shared query compiler also produces;
/// the PostgreSQL session converts them), and the asset read back from a result row of either
/// engine. One description, so the two catalogs cannot drift apart column by column.
enum AssetRow {
    /// The asset columns, in the order `values(of:)` writes and `asset(from:)` reads them.
    static let columns =
        "id, media_type, subtypes, pixel_width, pixel_height, duration, creation_date, latitude, longitude, favorite, hidden, content_identifier, owner, added_date, still_image_time, findings, caption"

    /// The columns an asset is read with from `table` (`assets` or `asset_tombstones`): `columns`,
    /// then whether it has adjustment data, counted from its resource rows (so `hasAdjustments`
    /// can never disagree with the resources; no column of its own).
    /// With `qualified`, each column is named with `table.` (a query that joins other tables).
    static func selectColumns(from table: String, qualified: Bool = false) -> String {
        let list = qualified ? columns.components(separatedBy: ", ").map { table + "." + $0 }.joined(separator: ", ") : columns
        return "\(list), (SELECT COUNT(*) FROM resources r WHERE r.asset_id = \(table).id AND r.type = '\(AssetResourceType.adjustmentData.rawValue)')"
    }

    /// The values of `asset`'s row, in `columns` order.
    static func values(of asset: Asset) -> [SQLiteValue] {
        [
            .text(asset.localIdentifier), .integer(Int64(asset.mediaType.rawValue)),
            .integer(Int64(asset.mediaSubtypes.rawValue)), .integer(Int64(asset.pixelWidth)),
            .integer(Int64(asset.pixelHeight)), .real(asset.duration),
            .optional(asset.creationDate?.timeIntervalSinceReferenceDate), .optional(asset.location?.latitude),
            .optional(asset.location?.longitude), .integer(asset.isFavorite ? 1 : 0), .integer(asset.isHidden ? 1 : 0),
            .optional(asset.contentIdentifier), .optional(asset.owner), .real(asset.addedDate.timeIntervalSinceReferenceDate),
            .optional(asset.stillImageTime), .optional(AssetFindingsJSON.encode(asset.findings)), .optional(asset.caption),
        ]
    }

    /// The asset in a result row whose first columns are `selectColumns(from:)`.
    static func asset<Row: CatalogResultRow>(from row: Row) throws(Row.Failure) -> Asset? {
        let latitude = try row.optionalDouble(at: 7)
        let longitude = try row.optionalDouble(at: 8)
        var location: AssetLocation?
        if let latitude, let longitude { location = AssetLocation(latitude: latitude, longitude: longitude) }
        return Asset(
            localIdentifier: try row.string(at: 0), mediaType: AssetMediaType(rawValue: Int(try row.int64(at: 1))) ?? .unknown,
            mediaSubtypes: AssetMediaSubtypes(rawValue: Int(try row.int64(at: 2))), pixelWidth: Int(try row.int64(at: 3)),
            pixelHeight: Int(try row.int64(at: 4)), duration: try row.double(at: 5),
            creationDate: try row.optionalDouble(at: 6).map(Date.init(timeIntervalSinceReferenceDate:)), location: location,
            isFavorite: try row.int64(at: 9) != 0, isHidden: try row.int64(at: 10) != 0,
            contentIdentifier: try row.optionalString(at: 11), owner: try row.optionalString(at: 12),
            addedDate: Date(timeIntervalSinceReferenceDate: try row.double(at: 13)),
            stillImageTime: try row.optionalDouble(at: 14), findings: AssetFindingsJSON.decode(try row.optionalString(at: 15)),
            hasAdjustments: try row.int64(at: 17) > 0, caption: try row.optionalString(at: 16))
    }
}

/// A result row of either catalog engine, read by column index (a SQLite statement cannot fail
/// to read a column; a PostgreSQL row can, with a `PostgresError`).
protocol CatalogResultRow {
    associatedtype Failure: Error
    func int64(at column: Int) throws(Failure) -> Int64
    func double(at column: Int) throws(Failure) -> Double
    func optionalDouble(at column: Int) throws(Failure) -> Double?
    func string(at column: Int) throws(Failure) -> String
    func optionalString(at column: Int) throws(Failure) -> String?
    /// A text or byte column read as UTF-8 text (the original filename: text in SQLite, bytes in PostgreSQL).
    func optionalUTF8(at column: Int) throws(Failure) -> String?
}

extension SQLiteStatement: CatalogResultRow {
    typealias Failure = Never
    func int64(at column: Int) -> Int64 { int64(Int32(column)) }
    func double(at column: Int) -> Double { double(Int32(column)) }
    func optionalDouble(at column: Int) -> Double? { optionalDouble(Int32(column)) }
    func string(at column: Int) -> String { string(Int32(column)) }
    func optionalString(at column: Int) -> String? { optionalString(Int32(column)) }
    func optionalUTF8(at column: Int) -> String? { optionalString(Int32(column)) }
}

extension PostgresRow: CatalogResultRow {
    typealias Failure = PostgresError
    func int64(at column: Int) throws(PostgresError) -> Int64 { try int64(column) }
    func double(at column: Int) throws(PostgresError) -> Double { try double(column) }
    func optionalDouble(at column: Int) throws(PostgresError) -> Double? { try optionalDouble(column) }
    func string(at column: Int) throws(PostgresError) -> String { try string(column) }
    func optionalString(at column: Int) throws(PostgresError) -> String? { try optionalString(column) }
    func optionalUTF8(at column: Int) throws(PostgresError) -> String? {
        values[column].isNull ? nil : String(decoding: try bytes(column), as: UTF8.self)
    }
}
