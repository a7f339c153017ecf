import Foundation
import LivePairSQLite

/// Compiles an `AssetQuery` into one SELECT with bound parameters, for SQLite or PostgreSQL: of
/// the asset identifiers, of whole asset rows (a page: `LIMIT` and `OFFSET`), or of their count. Every value is a parameter; only column names and operators chosen here appear in
/// the SQL text.
struct AssetQuerySQL {
    /// The statement text.
    private(set) var sql = ""
    /// The values for its `?` parameters, in order.
    private(set) var parameters: [SQLiteValue] = []

    /// The SQL dialect a statement is written in.
    enum Dialect {
        /// SQLite: `?` parameters, `rowid`, `json_each`.
        case sqlite
        /// PostgreSQL: `$n` parameters, a `row_order` column, `json_array_elements_text`.
        case postgres
    }

    /// What the statement selects.
    enum Selection {
        /// The identifiers, in order.
        case identifiers
        /// The asset rows (`AssetRow.selectColumns`), in order, the first `offset` skipped.
        case rows(offset: Int)
        /// How many assets match (the order and the limit ignored).
        case count
    }

    private let dialect: Dialect

    /// The statement for `query`.
    init(_ query: AssetQuery, dialect: Dialect = .sqlite, selecting selection: Selection = .identifiers) {
        self.dialect = dialect
        var from = "assets a"
        var conditions: [String] = []
        let rowOrder = dialect == .sqlite ? "a.rowid" : "a.row_order"
        var naturalOrder = rowOrder
        switch query.scope {
        case .all:
            break
        case let .identifiers(identifiers):
            let list = parameter(.text(Self.jsonArray(identifiers)))
            switch dialect {
            case .sqlite: from += " JOIN json_each(\(list)) j ON j.value = a.id"
            case .postgres: from += " JOIN json_array_elements_text(\(list)::json) WITH ORDINALITY j(value, key) ON j.value = a.id"
            }
            naturalOrder = "j.key"
        case let .collection(identifier):
            from += " JOIN collection_members m ON m.asset_id = a.id AND m.collection_id = \(parameter(.text(identifier)))"
            naturalOrder = "m.position"
        }
        if !query.options.includeHiddenAssets { conditions.append("a.hidden = 0") }
        if let predicate = query.options.predicate { conditions.append(compile(predicate)) }
        switch selection {
        case .identifiers: sql = "SELECT a.id FROM \(from)"
        case .rows: sql = "SELECT \(AssetRow.selectColumns(from: "a", qualified: true)) FROM \(from)"
        case .count: sql = "SELECT COUNT(*) FROM \(from)"
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if case .count = selection { return }
        let order = query.options.sortDescriptors.map { descriptor in
            Self.column(descriptor.key) + (descriptor.ascending ? " ASC" : " DESC")
        }
        sql += " ORDER BY " + (order + [naturalOrder, rowOrder]).joined(separator: ", ")
        if let limit = query.options.fetchLimit, limit > 0 {
            sql += " LIMIT \(parameter(.integer(Int64(limit))))"
        }
        if case let .rows(offset) = selection, offset > 0 {
            if query.options.fetchLimit ?? 0 <= 0 { sql += dialect == .sqlite ? " LIMIT -1" : " LIMIT ALL" }
            sql += " OFFSET \(parameter(.integer(Int64(offset))))"
        }
    }

    /// Adds `value` to the parameters and returns its placeholder.
    private mutating func parameter(_ value: SQLiteValue) -> String {
        parameters.append(value)
        return dialect == .sqlite ? "?" : "$\(parameters.count)"
    }

    /// `NULL`-safe equality in the dialect.
    private var isOperator: String { dialect == .sqlite ? "IS" : "IS NOT DISTINCT FROM" }

    private static func column(_ key: AssetSortDescriptor.Key) -> String {
        switch key {
        case .creationDate: return "a.creation_date"
        case .addedDate: return "a.added_date"
        case .pixelWidth: return "a.pixel_width"
        case .pixelHeight: return "a.pixel_height"
        case .duration: return "a.duration"
        case .isFavorite: return "a.favorite"
        case .localIdentifier: return "a.id"
        case .dateTaken: return dateTakenColumn
        }
    }

    /// The date taken: the creation date, else the date added.
    private static let dateTakenColumn = "COALESCE(a.creation_date, a.added_date)"

    private mutating func compile(_ predicate: AssetPredicate) -> String {
        switch predicate {
        case let .mediaType(type):
            return "a.media_type = \(parameter(.integer(Int64(type.rawValue))))"
        case let .subtypes(subtypes):
            let mask = parameter(.integer(Int64(subtypes.rawValue)))
            return "(a.subtypes & \(mask)) = \(parameter(.integer(Int64(subtypes.rawValue))))"
        case let .favorite(value):
            return "a.favorite = \(parameter(.integer(value ? 1 : 0)))"
        case let .hidden(value):
            return "a.hidden = \(parameter(.integer(value ? 1 : 0)))"
        case let .creationDate(condition):
            switch condition {
            case let .before(date):
                return "a.creation_date < \(parameter(.real(date.timeIntervalSinceReferenceDate)))"
            case let .after(date):
                return "a.creation_date > \(parameter(.real(date.timeIntervalSinceReferenceDate)))"
            case let .between(start, end):
                let low = parameter(.real(start.timeIntervalSinceReferenceDate))
                return "a.creation_date BETWEEN \(low) AND \(parameter(.real(end.timeIntervalSinceReferenceDate)))"
            case .isUnknown:
                return "a.creation_date IS NULL"
            }
        case let .contentIdentifier(value):
            return "a.content_identifier \(isOperator) \(parameter(.optional(value)))"
        case let .owner(value):
            return "a.owner \(isOperator) \(parameter(.optional(value)))"
        case let .and(predicates):
            guard !predicates.isEmpty else { return dialect == .sqlite ? "1" : "TRUE" }
            return "(" + predicates.map { compile($0) }.joined(separator: " AND ") + ")"
        case let .or(predicates):
            guard !predicates.isEmpty else { return dialect == .sqlite ? "0" : "FALSE" }
            return "(" + predicates.map { compile($0) }.joined(separator: " OR ") + ")"
        case let .not(inner):
            return "NOT (" + compile(inner) + ")"
        case let .follows(position):
            let date = SQLiteValue.real(position.dateTaken.timeIntervalSinceReferenceDate)
            let comparison = position.ascending ? ">" : "<"
            let strictly = parameter(date)
            let equal = parameter(date)
            return "(\(Self.dateTakenColumn) \(comparison) \(strictly) OR (\(Self.dateTakenColumn) = \(equal)"
                + " AND a.id > \(parameter(.text(position.localIdentifier)))))"
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
