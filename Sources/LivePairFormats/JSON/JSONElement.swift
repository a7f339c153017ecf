/// A JSON value as read from or written to edit data, with object members kept in their order.
///
/// Integers that fit 64 bits stay exact (`integer`); other numbers are `number`. The one JSON
/// value type of the package: edit data, export sidecars and the CLI's reports (which render it
/// indented, `JSONElement.rendered(indent:)` in LivePairCLI).
public indirect enum JSONElement: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits `Int64`.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONElement])
    /// An object; members in document order.
    case object([JSONMember])

    /// `{}`.
    public static var emptyObject: JSONElement { .object([JSONMember]()) }

    /// An object of `members` as (key, value) pairs, in their order.
    public static func object(_ members: [(String, JSONElement)]) -> JSONElement {
        .object(members.map { JSONMember($0.0, $0.1) })
    }

    /// The value of member `key` of an object (the first one, if repeated); nil otherwise.
    public subscript(key: String) -> JSONElement? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The integer value of an `integer`, or of a `number` that is a whole number in range.
    public var integerValue: Int64? {
        switch self {
        case let .integer(value): return value
        case let .number(value):
            guard value.isFinite, value == value.rounded(), abs(value) < 9.2e18 else { return nil }
            return Int64(value)
        default: return nil
        }
    }

    /// The value of a number, integer or not.
    public var doubleValue: Double? {
        switch self {
        case let .integer(value): return Double(value)
        case let .number(value): return value
        default: return nil
        }
    }

    /// The text of a `string`.
    public var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The value of a `bool` (or of the integers 0 and 1, as some writers store flags).
    public var boolValue: Bool? {
        switch self {
        case let .bool(value): return value
        case .integer(0): return false
        case .integer(1): return true
        default: return nil
        }
    }

    /// The elements of an `array`.
    public var arrayValue: [JSONElement]? {
        if case let .array(elements) = self { return elements }
        return nil
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONElement

    /// Memberwise initializer.
    public init(_ key: String, _ value: JSONElement) {
        self.key = key
        self.value = value
    }
}
