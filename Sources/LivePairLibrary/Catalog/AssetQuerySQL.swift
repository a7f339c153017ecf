import Foundation
import LivePairSQLite

/// Compiles an `AssetQuery` into one SELECT of asset identifiers with bound parameters. Every
/// value is a parameter; only column names and operators chosen here appear in the SQL text.
struct AssetQuerySQL {
    /// The statement text.
    private(set) var sql = ""
    /// The values for its `?` parameters, in order.
    private(set) var parameters: [SQLiteValue] = []

    /// The statement for `query`.
    init(_ query: AssetQuery) {
        var from = "assets a"
        var conditions: [String] = []
        var naturalOrder = "a.rowid"
        switch query.scope {
        case .all:
            break
        case let .identifiers(identifiers):
            from += " JOIN json_each(?) j ON j.value = a.id"
            parameters.append(.text(Self.jsonArray(identifiers)))
            naturalOrder = "j.key"
        case let .collection(identifier):
            from += " JOIN collection_members m ON m.asset_id = a.id AND m.collection_id = ?"
            parameters.append(.text(identifier))
            naturalOrder = "m.position"
        }
        if !query.options.includeHiddenAssets { conditions.append("a.hidden = 0") }
        if let predicate = query.options.predicate { conditions.append(compile(predicate)) }
        sql = "SELECT a.id FROM \(from)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        let order = query.options.sortDescriptors.map { descriptor in
            Self.column(descriptor.key) + (descriptor.ascending ? " ASC" : " DESC")
        }
        sql += " ORDER BY " + (order + [naturalOrder, "a.rowid"]).joined(separator: ", ")
        if let limit = query.options.fetchLimit, limit > 0 {
            sql += " LIMIT ?"
            parameters.append(.integer(Int64(limit)))
        }
    }

    private static func column(_ key: AssetSortDescriptor.Key) -> String {
        switch key {
        case .creationDate: return "a.creation_date"
        case .addedDate: return "a.added_date"
        case .pixelWidth: return "a.pixel_width"
        case .pixelHeight: return "a.pixel_height"
        case .duration: return "a.duration"
        case .isFavorite: return "a.favorite"
        case .localIdentifier: return "a.id"
        }
    }

    private mutating func compile(_ predicate: AssetPredicate) -> String {
        switch predicate {
        case let .mediaType(type):
            parameters.append(.integer(Int64(type.rawValue)))
            return "a.media_type = ?"
        case let .subtypes(subtypes):
            parameters.append(.integer(Int64(subtypes.rawValue)))
            parameters.append(.integer(Int64(subtypes.rawValue)))
            return "(a.subtypes & ?) = ?"
        case let .favorite(value):
            parameters.append(.integer(value ? 1 : 0))
            return "a.favorite = ?"
        case let .hidden(value):
            parameters.append(.integer(value ? 1 : 0))
            return "a.hidden = ?"
        case let .creationDate(condition):
            switch condition {
            case let .before(date):
                parameters.append(.real(date.timeIntervalSinceReferenceDate))
                return "a.creation_date < ?"
            case let .after(date):
                parameters.append(.real(date.timeIntervalSinceReferenceDate))
                return "a.creation_date > ?"
            case let .between(start, end):
                parameters.append(.real(start.timeIntervalSinceReferenceDate))
                parameters.append(.real(end.timeIntervalSinceReferenceDate))
                return "a.creation_date BETWEEN ? AND ?"
            case .isUnknown:
                return "a.creation_date IS NULL"
            }
        case let .contentIdentifier(value):
            parameters.append(.optional(value))
            return "a.content_identifier IS ?"
        case let .owner(value):
            parameters.append(.optional(value))
            return "a.owner IS ?"
        case let .and(predicates):
            guard !predicates.isEmpty else { return "1" }
            return "(" + predicates.map { compile($0) }.joined(separator: " AND ") + ")"
        case let .or(predicates):
            guard !predicates.isEmpty else { return "0" }
            return "(" + predicates.map { compile($0) }.joined(separator: " OR ") + ")"
        case let .not(inner):
            return "NOT (" + compile(inner) + ")"
        }
    }

    /// `values` as a JSON array of strings, for `json_each`.
    static func jsonArray(_ values: [String]) -> String {
        var text = "["
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case let control where control.value < 0x20:
                    let hex = String(control.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
        return text + "]"
    }
}
