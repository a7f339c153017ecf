import Foundation

/// A JSON value with object keys kept in insertion order, so output is stable and reads in the
/// order the schema documents.
public indirect enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// An integer.
    case integer(Int64)
    /// A floating-point number; non-finite values are written as `null`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object with ordered keys.
    case object([(String, JSONValue)])

    /// Compares values, objects key by key in order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a.elementsEqual(b) { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// A string value, or null.
    public static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
    /// An integer value, or null.
    public static func optional(_ value: Int?) -> JSONValue { value.map { .integer(Int64($0)) } ?? .null }
    /// A number value, or null.
    public static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }

    /// The value as JSON text; `indent` spaces per level, or compact with `indent: nil`.
    public func rendered(indent: Int? = 2) -> String {
        var text = ""
        write(into: &text, indent: indent, level: 0)
        return text
    }

    private func write(into text: inout String, indent: Int?, level: Int) {
        let newline = indent == nil ? "" : "\n"
        let pad = { (depth: Int) -> String in String(repeating: " ", count: (indent ?? 0) * depth) }
        switch self {
        case .null: text += "null"
        case let .bool(value): text += value ? "true" : "false"
        case let .integer(value): text += String(value)
        case let .number(value):
            if !value.isFinite {
                text += "null"
            } else if value == value.rounded(), abs(value) < 1e15 {
                text += String(Int64(value))
            } else {
                text += String(value)
            }
        case let .string(value): Self.writeString(value, into: &text)
        case let .array(values):
            guard !values.isEmpty else {
                text += "[]"
                return
            }
            text += "[" + newline
            for (index, value) in values.enumerated() {
                text += pad(level + 1)
                value.write(into: &text, indent: indent, level: level + 1)
                text += (index + 1 < values.count ? "," : "") + newline
            }
            text += pad(level) + "]"
        case let .object(members):
            guard !members.isEmpty else {
                text += "{}"
                return
            }
            text += "{" + newline
            for (index, (key, value)) in members.enumerated() {
                text += pad(level + 1)
                Self.writeString(key, into: &text)
                text += indent == nil ? ":" : ": "
                value.write(into: &text, indent: indent, level: level + 1)
                text += (index + 1 < members.count ? "," : "") + newline
            }
            text += pad(level) + "}"
        }
    }

    private static func writeString(_ value: String, into text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            // A byte of a file name that is not UTF-8 (FileSystemPath's U+F780...U+F7FF), written as
            // an escape so that a reader sees it is not text (docs/cli.md, "Paths").
            case let control where control.value < 0x20 || (0xF780...0xF7FF).contains(control.value):
                text += "\\u" + String(repeating: "0", count: 4 - String(control.value, radix: 16).count)
                    + String(control.value, radix: 16)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
