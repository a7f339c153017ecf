/// How values travel to and from libpq: parameters in text format (bytes in binary format) with
/// their type OIDs named, results in text format parsed by their column's type OID.
enum PostgresWireFormat {
    /// A parameter's type OID, its bytes and whether they are binary.
    struct Parameter {
        var type: UInt32
        var bytes: [UInt8]?
        var isBinary: Bool
    }

    /// The wire form of `value`.
    static func parameter(_ value: PostgresValue) -> Parameter {
        switch value {
        case .null: return Parameter(type: 0, bytes: nil, isBinary: false)
        case let .text(text): return Parameter(type: PostgresValue.TypeOID.text, bytes: Array(text.utf8), isBinary: false)
        case let .integer(number):
            return Parameter(type: PostgresValue.TypeOID.int8, bytes: Array(String(number).utf8), isBinary: false)
        case let .real(number):
            return Parameter(type: PostgresValue.TypeOID.float8, bytes: Array(realText(number).utf8), isBinary: false)
        case let .bool(flag): return Parameter(type: PostgresValue.TypeOID.bool, bytes: Array((flag ? "t" : "f").utf8), isBinary: false)
        case let .bytes(bytes): return Parameter(type: PostgresValue.TypeOID.bytea, bytes: bytes, isBinary: true)
        }
    }

    /// A double as PostgreSQL's float8 input reads it back exactly (Swift's shortest round-trip form).
    static func realText(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return "\(number)"
    }

    /// The value of a text-format result cell of type `type`.
    static func value(text: String, type: UInt32) throws(PostgresError) -> PostgresValue {
        switch type {
        case PostgresValue.TypeOID.int2, PostgresValue.TypeOID.int4, PostgresValue.TypeOID.int8, PostgresValue.TypeOID.oid:
            guard let number = Int64(text) else { throw malformed(text, "an integer") }
            return .integer(number)
        case PostgresValue.TypeOID.float4, PostgresValue.TypeOID.float8, PostgresValue.TypeOID.numeric:
            guard let number = Double(text) ?? special(text) else { throw malformed(text, "a number") }
            return .real(number)
        case PostgresValue.TypeOID.bool:
            return .bool(text == "t")
        case PostgresValue.TypeOID.bytea:
            guard let bytes = hexBytes(text) else { throw malformed(String(text.prefix(20)), "bytea in hex format") }
            return .bytes(bytes)
        default:
            return .text(text)
        }
    }

    private static func special(_ text: String) -> Double? {
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return nil
        }
    }

    private static func malformed(_ text: String, _ wanted: String) -> PostgresError {
        PostgresError(kind: .decoding, message: "the server sent \"\(text)\" where \(wanted) was expected")
    }

    /// The bytes of a bytea cell in hex format (`\x0a1b...`), or nil when it is not that.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            return nil
        }
        func nibble(_ character: UInt8) -> UInt8? {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
