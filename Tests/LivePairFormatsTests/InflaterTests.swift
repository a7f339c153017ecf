import LivePairFormats
import TestSupport
import Testing

@Suite("Inflater: raw DEFLATE against Python's zlib")
struct InflaterTests {
    @Test("stored, fixed, dynamic and multi-block streams inflate to zlib's input", arguments: [
        "text.stored.deflate", "text.fixed.deflate", "text.dynamic.deflate", "text.blocks.deflate",
    ])
    func zlibStreams(name: String) throws {
        let expected = try AdjustmentFixtures.bytes("text.txt")
        let output = try Inflater().inflate(try AdjustmentFixtures.bytes(name))
        #expect(output.count == expected.count)
        #expect(output == expected)
    }

    @Test("a DEFLATE bomb stops at the output limit with a typed error")
    func bomb() throws {
        let bomb = try AdjustmentFixtures.bytes("zeros-64MiB.deflate")
        #expect(bomb.count == 65_132)
        for limit in [1 << 20, 5_000_000] {
            do {
                _ = try Inflater(maximumOutputBytes: limit).inflate(bomb)
                Issue.record("the bomb inflated under a limit of \(limit)")
            } catch {
                guard case let .limitExceeded(context, name, value, maximum) = error else { throw error }
                #expect(context == "DEFLATE stream" && name == "inflated size" && maximum == UInt64(limit))
                // Stopped at the first match that would pass the limit (a match copies at most 258 bytes).
                #expect(value > UInt64(limit) && value <= UInt64(limit) + 258)
            }
        }
        // The default limit (16 MiB) stops the 64 MiB bomb too.
        #expect(ParseLimits.default.maximumInflatedBytes == 16 << 20)
        do {
            _ = try Inflater().inflate(bomb)
            Issue.record("the bomb inflated")
        } catch {
            guard case let .limitExceeded(_, limit, _, maximum) = error else { throw error }
            #expect(limit == "inflated size" && maximum == 16 << 20)
        }
    }

    @Test("stored deflater output inflates back, across several 64 KiB blocks and when empty")
    func storedRoundTrip() throws {
        var random = SplitMix64(seed: 21)
        let bytes = (0..<150_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let deflated = StoredDeflater.deflate(bytes)
        #expect(deflated.count == bytes.count + 3 * 5)
        #expect(try Inflater().inflate(deflated) == bytes)
        #expect(StoredDeflater.deflate([]) == [1, 0, 0, 0xFF, 0xFF])
        #expect(try Inflater().inflate(StoredDeflater.deflate([])) == [])
    }

    @Test("damaged streams throw typed errors, never trap")
    func damaged() throws {
        let stream = try AdjustmentFixtures.bytes("text.dynamic.deflate")
        // Every truncation: either an error or (for a cut inside trailing bits) a prefix of the text.
        let expected = try AdjustmentFixtures.bytes("text.txt")
        var errors = 0
        for length in 0..<stream.count {
            do {
                let output = try Inflater().inflate(Array(stream[0..<length]))
                #expect(expected.starts(with: output))
            } catch {
                errors += 1
            }
        }
        #expect(errors == stream.count)
        // Reserved block type 3.
        #expect(throws: FormatError.invalid(context: "DEFLATE stream", reason: "block type 3 is reserved")) {
            try Inflater().inflate([0x07])
        }
        // A stored block whose length does not match its complement.
        #expect(throws: FormatError.self) { try Inflater().inflate([0x01, 0x05, 0x00, 0x00, 0x00]) }
        // A fixed block whose first match reaches before the start of the output: length 3, distance 1.
        #expect(throws: FormatError.invalid(
            context: "DEFLATE stream", reason: "distance 1 reaches before the start of the output (0 bytes)")
        ) {
            // BFINAL 1, BTYPE 01, then symbol 257 (7-bit code 0000001), distance code 0 (00000).
            try Inflater().inflate([0x03, 0x02, 0x00])
        }
        // Every single-bit flip of a real stream: an error or some output, never a trap or hang.
        for index in 0..<min(stream.count, 200) {
            for bit in 0..<8 {
                var flipped = stream
                flipped[index] ^= 1 << bit
                _ = try? Inflater(maximumOutputBytes: 1 << 16).inflate(flipped)
            }
        }
    }
}
