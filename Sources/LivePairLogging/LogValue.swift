/// One metadata value of a log line: kept typed so JSON lines carry numbers as numbers.
public enum LogValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, CustomStringConvertible
{
    /// Text.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A truth value.
    case bool(Bool)

    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point value.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A truth value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// The value as plain text.
    public var description: String {
        switch self {
        case let .string(value): return value
        case let .int(value): return String(value)
        case let .double(value): return String(value)
        case let .bool(value): return String(value)
        }
    }
}

/// The metadata of one log line, by key.
public typealias LogMetadata = [String: LogValue]
