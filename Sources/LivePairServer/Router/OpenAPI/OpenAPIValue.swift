import LivePairLogging

/// A JSON value written as a Swift literal, keys kept in the order written, for the OpenAPI
/// document: `["type": "object", "required": ["id"]]`.
indirect enum OpenAPIValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case array([OpenAPIValue])
    case object([(key: String, value: OpenAPIValue)])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(booleanLiteral value: Bool) { self = .boolean(value) }
    init(arrayLiteral elements: OpenAPIValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, OpenAPIValue)...) { self = .object(elements.map { (key: $0.0, value: $0.1) }) }

    /// This object with `other`'s members added after its own (nil members left out).
    func adding(_ other: [(String, OpenAPIValue?)]) -> OpenAPIValue {
        guard case let .object(members) = self else { return self }
        return .object(members + other.compactMap { key, value in value.map { (key: key, value: $0) } })
    }

    /// The JSON text, indented by two spaces per level.
    func text(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case let .string(text): return JSONLinesLogHandler.quoted(text)
        case let .integer(number): return String(number)
        case let .boolean(flag): return flag ? "true" : "false"
        case let .array(elements):
            guard !elements.isEmpty else { return "[]" }
            return "[\n" + elements.map { inner + $0.text(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case let .object(members):
            guard !members.isEmpty else { return "{}" }
            return "{\n" + members.map { inner + JSONLinesLogHandler.quoted($0.key) + ": " + $0.value.text(indent: inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
        }
    }
}
