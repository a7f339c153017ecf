import Foundation
import LivePairCLI
import LivePairFormats
import Testing

@Suite("JSON output")
struct JSONRenderingTests {
    @Test("keys keep their order and strings are escaped; Foundation reads the result back")
    func rendering() throws {
        let value = JSONElement.object([
            ("b", .integer(1)), ("a", .string("quote \" backslash \\ newline \n tab \t bell \u{7}")),
            ("n", .null), ("x", .number(1.5)), ("whole", .number(2)), ("list", .array([.bool(true), .bool(false)])),
            ("nan", .number(.nan)), ("empty", .emptyObject),
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

    @Test("the byte rendering: exact bytes for nesting, escapes, non-ASCII text and integer extremes")
    func exactBytes() throws {
        let value = JSONElement.object([
            ("path", .string("a/ü 日本\u{1F600}\u{1}\u{1F}\"\\")), ("min", .integer(.min)), ("max", .integer(.max)),
            ("zero", .integer(0)), ("list", .array([.integer(-7), .array([]), .object([("k", .null)])])),
        ])
        let expected = """
            {
              "path": "a/ü 日本\u{1F600}\\u0001\\u001f\\"\\\\",
              "min": -9223372036854775808,
              "max": 9223372036854775807,
              "zero": 0,
              "list": [
                -7,
                [],
                {
                  "k": null
                }
              ]
            }
            """
        #expect(value.renderedBytes() == Array(expected.utf8))
        #expect(value.rendered() == expected)
        #expect(
            value.rendered(indent: nil)
                == #"{"path":"a/ü 日本\#u{1F600}\u0001\u001f\"\\","min":-9223372036854775808,"max":9223372036854775807,"zero":0,"list":[-7,[],{"k":null}]}"#)
    }

    @Test("print(JSONElement) writes the indented bytes and one line break, in one write")
    func printsBytes() {
        let writes = CapturedWrites()
        let streams = OutputStreams(outputBytes: { writes.record(Array($0)) }, errorBytes: { _ in })
        let value = JSONElement.array([.string("x"), .number(0.25)])
        streams.print(value)
        #expect(writes.all == [Array("[\n  \"x\",\n  0.25\n]\n".utf8)])
    }
}

/// Byte writes recorded by an output stream.
private final class CapturedWrites: @unchecked Sendable {
    // Sendable: `OutputStreams` calls its writer under its lock.
    private(set) var all: [[UInt8]] = []
    func record(_ bytes: [UInt8]) { all.append(bytes) }
}
