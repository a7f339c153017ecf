/// A value SQLite stores: the five storage classes.
public enum SQLiteValue: Sendable, Equatable, Hashable {
    /// `NULL`.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob([UInt8])

    /// An integer, or null.
    public static func optional(_ value: Int64?) -> SQLiteValue { value.map(SQLiteValue.integer) ?? .null }
    /// A double, or null.
    public static func optional(_ value: Double?) -> SQLiteValue { value.map(SQLiteValue.real) ?? .null }
    /// Text, or null.
    public static func optional(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
}
