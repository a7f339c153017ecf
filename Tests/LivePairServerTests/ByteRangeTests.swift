import Testing

@testable import LivePairServer

/// `Range` headers resolved against a length (RFC 9110 single ranges).
@Suite struct ByteRangeTests {
    @Test func resolvesFirstLastAndSuffixRanges() throws {
        #expect(try ByteRange.resolve("bytes=0-9", size: 100) == 0...9)
        #expect(try ByteRange.resolve("bytes=90-", size: 100) == 90...99)
        #expect(try ByteRange.resolve("bytes=-10", size: 100) == 90...99)
        #expect(try ByteRange.resolve("bytes=95-200", size: 100) == 95...99)
        #expect(try ByteRange.resolve("bytes=-500", size: 100) == 0...99)
    }

    @Test func ignoresWhatItDoesNotServe() throws {
        #expect(try ByteRange.resolve(nil, size: 100) == nil)
        #expect(try ByteRange.resolve("bytes=0-1,5-6", size: 100) == nil)
        #expect(try ByteRange.resolve("items=0-1", size: 100) == nil)
        #expect(try ByteRange.resolve("bytes=9-2", size: 100) == nil)
    }

    @Test func rangesOutsideTheFileAre416() {
        #expect(throws: HTTPError.rangeNotSatisfiable(size: 100)) { try ByteRange.resolve("bytes=100-", size: 100) }
        #expect(throws: HTTPError.rangeNotSatisfiable(size: 0)) { try ByteRange.resolve("bytes=-1", size: 0) }
    }

    @Test func numbersPast64BitsAre416NeverTheWholeFile() throws {
        for header in ["bytes=18446744073709551616-", "bytes=0-9223372036854775808", "bytes=-99999999999999999999"] {
            #expect(throws: HTTPError.rangeNotSatisfiable(size: 100), "\(header)") { try ByteRange.resolve(header, size: 100) }
        }
        #expect(try ByteRange.resolve("bytes=0-9223372036854775807", size: 100) == 0...99)
    }
}
