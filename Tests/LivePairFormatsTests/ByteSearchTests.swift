import LivePairFormats
import Testing

@Suite("Byte search")
struct ByteSearchTests {
    @Test("first index in slices, respecting slice bounds")
    func firstIndex() {
        let bytes: [UInt8] = [0xFF, 1, 2, 0xFF, 3, 0xFF]
        #expect(ByteSearch.firstIndex(of: 0xFF, in: bytes[...]) == 0)
        #expect(ByteSearch.firstIndex(of: 0xFF, in: bytes[1...]) == 3)
        #expect(ByteSearch.firstIndex(of: 0xFF, in: bytes[4..<5]) == nil)
        #expect(ByteSearch.firstIndex(of: 7, in: bytes[...]) == nil)
        #expect(ByteSearch.firstIndex(of: 7, in: bytes[2..<2]) == nil)
    }

    @Test("every match of a pattern, overlapping included, agrees with a naive scan")
    func indices() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in UInt8.random(in: 0...3, using: &generator) }
            let pattern: [UInt8] = [1, 2, 1]
            let naive = bytes.count < 3 ? [] : (0...(bytes.count - 3)).filter { Array(bytes[$0..<$0 + 3]) == pattern }
            #expect(ByteSearch.indices(of: pattern, in: bytes[...]) == naive)
            if bytes.count > 10 {
                let slice = bytes[5...]
                #expect(ByteSearch.indices(of: pattern, in: slice) == naive.filter { $0 >= 5 })
            }
        }
        #expect(ByteSearch.indices(of: [1, 1], in: [1, 1, 1][...]) == [0, 1])
    }
}
