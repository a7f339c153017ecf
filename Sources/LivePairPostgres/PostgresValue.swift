/// A value bound to a statement parameter or read from a result cell. Parameters are always sent
/// apart from the statement text (never interpolated into it).
public enum PostgresValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A `text` value.
    case text(String)
    /// A `bigint` value (`smallint` and `integer` cells read as this too).
    case integer(Int64)
    /// A `double precision` value (`real` and `numeric` cells read as this too).
    case real(Double)
    /// A `boolean` value.
    case bool(Bool)
    /// A `bytea` value.
    case bytes([UInt8])

    /// `.text(value)`, or `.null` when `value` is nil.
    public static func optional(_ value: String?) -> PostgresValue { value.map { .text($0) } ?? .null }
    /// `.real(value)`, or `.null` when `value` is nil.
    public static func optional(_ value: Double?) -> PostgresValue { value.map { .real($0) } ?? .null }
    /// `.integer(value)`, or `.null` when `value` is nil.
    public static func optional(_ value: Int64?) -> PostgresValue { value.map { .integer($0) } ?? .null }

    /// True for `.null`.
    public var isNull: Bool { self == .null }

    /// The type OIDs libpq is told for each kind of parameter (so the server never guesses).
    enum TypeOID {
        static let bool: UInt32 = 16
        static let bytea: UInt32 = 17
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let text: UInt32 = 25
        static let oid: UInt32 = 26
        static let float4: UInt32 = 700
        static let float8: UInt32 = 701
        static let numeric: UInt32 = 1700
    }
}
