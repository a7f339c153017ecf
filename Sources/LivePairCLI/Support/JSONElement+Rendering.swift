import Foundation
import LivePairFormats

/// The CLI's rendering of a JSON value (its reports, `--json`): members in their order, so output
/// is stable and reads in the order the schema documents; indented or compact; a whole number
/// stored as a double written without a fraction; non-finite numbers as `null`; the bytes of a
/// file name that are not UTF-8 as `\uf7XX` escapes.
extension JSONElement {
    /// A string value, or null.
    public static func optional(_ text: String?) -> JSONElement { text.map(JSONElement.string) ?? .null }
    /// An integer value, or null.
    public static func optional(_ value: Int?) -> JSONElement { value.map { .integer(Int64($0)) } ?? .null }
    /// A number value, or null.
    public static func optional(_ value: Double?) -> JSONElement { value.map(JSONElement.number) ?? .null }

    /// The value as JSON text; `indent` spaces per level, or compact with `indent: nil`.
    public func rendered(indent: Int? = 2) -> String {
        String(decoding: renderedBytes(indent: indent), as: UTF8.self)
    }

    /// The value as UTF-8 JSON bytes (see `rendered(indent:)`), written into one byte buffer.
    public func renderedBytes(indent: Int? = 2) -> [UInt8] {
        var buffer = OutputBuffer()
        write(into: &buffer, indent: indent, level: 0)
        return buffer.bytes
    }

    /// Appends the value's JSON bytes to `buffer`, nested `level` deep.
    package func write(into buffer: inout OutputBuffer, indent: Int?, level: Int) {
        switch self {
        case .null: buffer.append("null")
        case let .bool(value): buffer.append(value ? "true" : "false")
        case let .integer(value): buffer.append(decimal: value)
        case let .number(value):
            if !value.isFinite {
                buffer.append("null")
            } else if value == value.rounded(), abs(value) < 1e15 {
                buffer.append(decimal: Int64(value))
            } else {
                buffer.append(String(value))
            }
        case let .string(value): Self.writeString(value, into: &buffer)
        case let .array(values):
            guard !values.isEmpty else { return buffer.append("[]") }
            buffer.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                Self.newline(into: &buffer, indent: indent, level: level + 1)
                value.write(into: &buffer, indent: indent, level: level + 1)
            }
            Self.newline(into: &buffer, indent: indent, level: level)
            buffer.append(UInt8(ascii: "]"))
        case let .object(members):
            guard !members.isEmpty else { return buffer.append("{}") }
            buffer.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                Self.newline(into: &buffer, indent: indent, level: level + 1)
                Self.writeString(member.key, into: &buffer)
                buffer.append(UInt8(ascii: ":"))
                if indent != nil { buffer.append(UInt8(ascii: " ")) }
                member.value.write(into: &buffer, indent: indent, level: level + 1)
            }
            Self.newline(into: &buffer, indent: indent, level: level)
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// A line break and the padding of `level` when indenting; nothing when compact.
    private static func newline(into buffer: inout OutputBuffer, indent: Int?, level: Int) {
        guard let indent else { return }
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(UInt8(ascii: " "), count: indent * level)
    }

    /// A JSON string: quotes, backslashes and control characters escaped, everything else as its UTF-8 bytes.
    private static func writeString(_ value: String, into buffer: inout OutputBuffer) {
        buffer.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                index += 1
                // A byte of a file name that is not UTF-8 (FileSystemPath's U+F780...U+F7FF, encoded
                // EF 9E xx or EF 9F xx) is written as the escape \uf7XX, so that a reader sees it is
                // not text (docs/cli.md, "Paths").
                if byte == 0xEF, index + 1 < utf8.count, utf8[index] == 0x9E || utf8[index] == 0x9F {
                    buffer.append(bytes: UnsafeBufferPointer(rebasing: utf8[start..<index - 1]))
                    let carried = (utf8[index] == 0x9E ? 0x80 : 0xC0) + (utf8[index + 1] & 0x3F)
                    let hex = Array("0123456789abcdef".utf8)
                    buffer.append("\\uf7")
                    buffer.append(hex[Int(carried >> 4)])
                    buffer.append(hex[Int(carried & 0xF)])
                    index += 2
                    start = index
                    continue
                }
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                buffer.append(bytes: UnsafeBufferPointer(rebasing: utf8[start..<index - 1]))
                start = index
                switch byte {
                case UInt8(ascii: "\""): buffer.append("\\\"")
                case UInt8(ascii: "\\"): buffer.append("\\\\")
                case UInt8(ascii: "\n"): buffer.append("\\n")
                case UInt8(ascii: "\r"): buffer.append("\\r")
                case UInt8(ascii: "\t"): buffer.append("\\t")
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    buffer.append("\\u00")
                    buffer.append(hex[Int(byte >> 4)])
                    buffer.append(hex[Int(byte & 0xF)])
                }
            }
            buffer.append(bytes: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
