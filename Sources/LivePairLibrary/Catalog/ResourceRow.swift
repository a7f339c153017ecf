import Foundation
import LivePairSQLite

/// The resource row as both catalog engines store it: the columns, the values written for a
/// resource (in column order, in the neutral `SQLiteValue` form; the PostgreSQL session converts
/// them), and the resource read back from a result row of either engine. One description beside
/// `AssetRow`, so the two catalogs cannot drift apart column by column.
enum ResourceRow {
    /// How an engine keeps the original filename: SQLite as text; PostgreSQL as bytes, since its
    /// text type cannot hold the NUL character a Swift string (and so a filename here) may carry.
    enum FilenameStorage {
        case text
        case bytes
    }

    /// The resource columns, in the order `values(of:filename:)` writes and `resource(from:)` reads them.
    static let columns = "asset_id, ordinal, type, digest, size, original_filename, uniform_type_identifier"

    /// The values of `resource`'s row, in `columns` order, its original filename kept as `filename` says.
    static func values(of resource: LibraryAssetResource, filename: FilenameStorage) -> [SQLiteValue] {
        let originalFilename: SQLiteValue =
            switch filename {
            case .text: .optional(resource.originalFilename)
            case .bytes: resource.originalFilename.map { .blob(Array($0.utf8)) } ?? .null
            }
        return [
            .text(resource.assetLocalIdentifier), .integer(Int64(resource.ordinal)), .text(resource.type.rawValue),
            .text(resource.digest.hex), .integer(Int64(resource.size)), originalFilename,
            .optional(resource.uniformTypeIdentifier),
        ]
    }

    /// The resource in a result row whose first columns are `columns`; nil when its type or digest
    /// is not one this version knows.
    static func resource<Row: CatalogResultRow>(from row: Row) throws(Row.Failure) -> LibraryAssetResource? {
        guard let type = AssetResourceType(rawValue: try row.string(at: 2)),
            let digest = ContentDigest(hex: try row.string(at: 3))
        else { return nil }
        return LibraryAssetResource(
            assetLocalIdentifier: try row.string(at: 0), ordinal: Int(try row.int64(at: 1)), type: type, digest: digest,
            size: UInt64(try row.int64(at: 4)), originalFilename: try row.optionalUTF8(at: 5),
            uniformTypeIdentifier: try row.optionalString(at: 6))
    }
}
