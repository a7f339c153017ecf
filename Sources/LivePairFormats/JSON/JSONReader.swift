/// A bounded JSON parser (RFC 8259) over UTF-8 bytes.
///
/// Nesting deeper than `ParseLimits.maximumDepth`, or more values than
/// `ParseLimits.maximumPropertyListObjects`, throw `FormatError.limitExceeded`; malformed text
/// throws `FormatError.invalid` naming the byte offset. Nothing is allocated for a declared size.
public struct JSONReader: Sendable {
    /// The limits applied.
    public var limits: ParseLimits

    /// A reader with `limits`.
    public init(limits: ParseLimits = .default) {
        self.limits = limits
    }

    /// Parses one JSON text (surrounding whitespace allowed, nothing else after it).
    public func read(_ bytes: [UInt8], context: String = "JSON") throws(FormatError) -> JSONElement {
        var parser = Parser(bytes: bytes, limits: limits, context: context)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.fail("text continues after the value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        let limits: ParseLimits
        let context: String
        var position = 0
        var valueCount = 0

        init(bytes: [UInt8], limits: ParseLimits, context: String) {
            self.bytes = bytes
            self.limits = limits
            self.context = context
        }

        func fail(_ reason: String) -> FormatError {
            .invalid(context: "\(context) at byte \(position)", reason: reason)
        }

        mutating func skipWhitespace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(FormatError) {
            guard position < bytes.count, bytes[position] == byte else {
                throw fail("expected '\(Character(Unicode.Scalar(byte)))'")
            }
            position += 1
        }

        mutating func value(depth: Int) throws(FormatError) -> JSONElement {
            valueCount += 1
            if valueCount > limits.maximumPropertyListObjects {
                throw .limitExceeded(
                    context: context, limit: "value count", value: UInt64(valueCount),
                    maximum: UInt64(limits.maximumPropertyListObjects))
            }
            guard position < bytes.count else {
                throw .truncated(context: context, needed: UInt64(position + 1), available: UInt64(bytes.count))
            }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return try number()
            }
        }

        mutating func checkDepth(_ depth: Int) throws(FormatError) {
            if depth > limits.maximumDepth {
                throw .limitExceeded(
                    context: context, limit: "nesting depth", value: UInt64(depth), maximum: UInt64(limits.maximumDepth))
            }
        }

        mutating func object(depth: Int) throws(FormatError) -> JSONElement {
            try checkDepth(depth)
            position += 1
            var members: [JSONMember] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw fail("expected a member name")
                }
                let key = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                members.append(JSONMember(key, try value(depth: depth)))
                skipWhitespace()
                guard position < bytes.count else { throw fail("object is not closed") }
                if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                }
                try expect(UInt8(ascii: ","))
            }
        }

        mutating func array(depth: Int) throws(FormatError) -> JSONElement {
            try checkDepth(depth)
            position += 1
            var elements: [JSONElement] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth))
                skipWhitespace()
                guard position < bytes.count else { throw fail("array is not closed") }
                if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                }
                try expect(UInt8(ascii: ","))
            }
        }

        mutating func literal(_ word: String) throws(FormatError) {
            let utf8 = Array(word.utf8)
            guard bytes.count - position >= utf8.count, Array(bytes[position..<(position + utf8.count)]) == utf8 else {
                throw fail("unknown literal")
            }
            position += utf8.count
        }

        mutating func number() throws(FormatError) -> JSONElement {
            let start = position
            var isInteger = true
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            let digitsStart = position
            while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
            guard position > digitsStart else { throw fail("expected a value") }
            if position - digitsStart > 1, bytes[digitsStart] == 0x30 { throw fail("number has a leading zero") }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                isInteger = false
                position += 1
                let fraction = position
                while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
                guard position > fraction else { throw fail("number has no digits after '.'") }
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                isInteger = false
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                    position += 1
                }
                let exponent = position
                while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
                guard position > exponent else { throw fail("number has no exponent digits") }
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if isInteger, let value = Int64(text) { return .integer(value) }
            guard let value = Double(text), value.isFinite else { throw fail("number \(text) is out of range") }
            return .number(value)
        }

        mutating func hexQuad() throws(FormatError) -> UInt32 {
            guard bytes.count - position >= 4 else { throw fail("\\u escape is cut short") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                default: throw fail("\\u escape has a non-hex digit")
                }
                value = value << 4 | digit
                position += 1
            }
            return value
        }

        mutating func string() throws(FormatError) -> String {
            position += 1
            var utf8: [UInt8] = []
            while true {
                guard position < bytes.count else { throw fail("string is not closed") }
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: utf8, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard position < bytes.count else { throw fail("string is not closed") }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                    case UInt8(ascii: "b"): utf8.append(0x08)
                    case UInt8(ascii: "f"): utf8.append(0x0C)
                    case UInt8(ascii: "n"): utf8.append(0x0A)
                    case UInt8(ascii: "r"): utf8.append(0x0D)
                    case UInt8(ascii: "t"): utf8.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hexQuad()
                        if (0xD800..<0xDC00).contains(scalar), bytes.count - position >= 6,
                            bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                        {
                            let saved = position
                            position += 2
                            let low = try hexQuad()
                            if (0xDC00..<0xE000).contains(low) {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                position = saved
                            }
                        }
                        let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                        utf8.append(contentsOf: String(character).utf8)
                    default: throw fail("unknown escape \\\(Character(Unicode.Scalar(escape)))")
                    }
                case 0x00..<0x20:
                    throw fail("control character in a string")
                default:
                    utf8.append(byte)
                }
            }
        }
    }
}
