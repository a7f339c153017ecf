import Foundation
import LivePairCLI
import Testing

@Suite("JSON output")
struct JSONValueTests {
    @Test("keys keep their order and strings are escaped; Foundation reads the result back")
    func rendering() throws {
        let value = JSONValue.object([
            ("b", .integer(1)), ("a", .string("quote \" backslash \\ newline \n tab \t bell \u{7}")),
            ("n", .null), ("x", .number(1.5)), ("whole", .number(2)), ("list", .array([.bool(true), .bool(false)])),
            ("nan", .number(.nan)), ("empty", .object([])),
        ])
        let compact = value.rendered(indent: nil)
        #expect(compact.hasPrefix("{\"b\":1,\"a\":"))
        #expect(compact.contains("\\u0007"))
        #expect(compact.contains("\"whole\":2,"))
        #expect(compact.contains("\"nan\":null"))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(value.rendered().utf8)) as? [String: Any])
        #expect(parsed["a"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{7}")
        #expect(parsed["x"] as? Double == 1.5)
        #expect(parsed["list"] as? [Bool] == [true, false])
    }
}
