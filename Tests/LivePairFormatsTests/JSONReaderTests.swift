import LivePairFormats
import Testing

@Suite("JSON reader and writer")
struct JSONReaderTests {
    @Test("values, escapes and surrogate pairs")
    func values() throws {
        let text = #"{"a":[1,-2,3.5,1e3,true,false,null],"s":"q\"\\\/\n\u00e9\ud83d\ude00","big":12345678901234567890}"#
        let value = try JSONReader().read(Array(text.utf8))
        #expect(
            value["a"]
                == .array([.integer(1), .integer(-2), .number(3.5), .number(1000), .bool(true), .bool(false), .null]))
        #expect(value["s"] == .string("q\"\\/\n\u{E9}\u{1F600}"))
        #expect(value["big"] == .number(1.2345678901234567e19))
        #expect(try JSONReader().read(value.jsonBytes()) == value)
    }

    @Test("malformed text throws invalid at its byte offset")
    func malformed() {
        #expect(throws: FormatError.invalid(context: "JSON at byte 5", reason: "expected a value")) {
            try JSONReader().read(Array(#"{"a":}"#.utf8))
        }
        #expect(throws: FormatError.invalid(context: "JSON at byte 3", reason: "text continues after the value")) {
            try JSONReader().read(Array("{} x".utf8))
        }
        #expect(throws: FormatError.self) { try JSONReader().read(Array(#"{"a":01}"#.utf8)) }
        #expect(throws: FormatError.self) { try JSONReader().read(Array("\"\u{01}\"".utf8)) }
        #expect(throws: FormatError.self) { try JSONReader().read(Array("[1,2".utf8)) }
    }

    @Test("nesting and value counts are bounded")
    func bounded() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: FormatError.limitExceeded(context: "JSON", limit: "nesting depth", value: 33, maximum: 32)) {
            try JSONReader().read(Array(deep.utf8))
        }
        var limits = ParseLimits.default
        limits.maximumPropertyListObjects = 100
        let many = "[" + Array(repeating: "0", count: 100).joined(separator: ",") + "]"
        #expect(throws: FormatError.limitExceeded(context: "JSON", limit: "value count", value: 101, maximum: 100)) {
            try JSONReader(limits: limits).read(Array(many.utf8))
        }
    }
}
