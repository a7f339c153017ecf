/// A canonical Huffman code (RFC 1951, 3.2.2) decoded bit by bit: the count of codes of each
/// length and the symbols in code order, as in zlib's reference inflater `puff`.
struct HuffmanTable {
    /// The longest code DEFLATE allows.
    static let maximumBits = 15
    private var counts = [Int](repeating: 0, count: maximumBits + 1)
    private var symbols: [Int]

    /// Builds the code from each symbol's code length (0: the symbol is unused). Throws for an
    /// over-subscribed set, and for an incomplete one unless `allowIncomplete` (a single code, or
    /// the distance code of a block that has no distances).
    init(lengths: ArraySlice<Int>, allowIncomplete: Bool, context: String) throws(FormatError) {
        self.init(completeLengths: lengths)
        var left = 1
        for length in 1...Self.maximumBits {
            left <<= 1
            left -= counts[length]
            if left < 0 { throw .invalid(context: context, reason: "over-subscribed Huffman code lengths") }
        }
        let used = lengths.count - counts[0]
        if left > 0 && !(allowIncomplete || used == 1) {
            throw .invalid(context: context, reason: "incomplete Huffman code lengths")
        }
    }

    /// Builds the code from lengths known to be valid (the fixed codes): no checks.
    init(completeLengths lengths: ArraySlice<Int>) {
        symbols = [Int](repeating: 0, count: lengths.count)
        for length in lengths { counts[length] += 1 }
        var offsets = [Int](repeating: 0, count: Self.maximumBits + 2)
        for length in 1...Self.maximumBits { offsets[length + 1] = offsets[length] + counts[length] }
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }

    /// Reads one symbol.
    func decode(_ reader: inout DeflateBitReader) throws(FormatError) -> Int {
        var code = 0, first = 0, index = 0
        for length in 1...Self.maximumBits {
            code |= try reader.bits(1)
            let count = counts[length]
            if code - count < first { return symbols[index + (code - first)] }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        throw .invalid(context: reader.context, reason: "no Huffman code matches the bits read")
    }
}
