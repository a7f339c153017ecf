/// Raw DEFLATE decompression (RFC 1951: stored, fixed and dynamic Huffman blocks) in Swift,
/// bounded by an output limit.
///
/// Photos stores its `.AAE` edit data as raw DEFLATE (no zlib header, no checksum). Untrusted
/// streams are bounded: output beyond `maximumOutputBytes` throws `FormatError.limitExceeded`
/// before more is allocated (a DEFLATE bomb stops at the limit), a distance reaching before the
/// start of the output throws `invalid`, and a stream that ends early throws `truncated`.
public struct Inflater: Sendable {
    /// The most bytes one stream may inflate to.
    public var maximumOutputBytes: Int

    /// An inflater bounded by `limits.maximumInflatedBytes`.
    public init(limits: ParseLimits = .default) {
        self.maximumOutputBytes = limits.maximumInflatedBytes
    }

    /// An inflater bounded by `maximumOutputBytes`.
    public init(maximumOutputBytes: Int) {
        self.maximumOutputBytes = maximumOutputBytes
    }

    /// Inflates one raw DEFLATE stream, up to its final block (bytes after it are ignored).
    public func inflate(_ input: [UInt8], context: String = "DEFLATE stream") throws(FormatError) -> [UInt8] {
        var reader = DeflateBitReader(input, context: context)
        var output: [UInt8] = []
        output.reserveCapacity(min(maximumOutputBytes, max(input.count * 4, 64)))
        var isFinal = false
        while !isFinal {
            isFinal = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0: try storedBlock(&reader, into: &output)
            case 1: try huffmanBlock(&reader, Self.fixedTables.literals, Self.fixedTables.distances, into: &output)
            case 2:
                let tables = try Self.dynamicTables(&reader)
                try huffmanBlock(&reader, tables.literals, tables.distances, into: &output)
            default: throw .invalid(context: context, reason: "block type 3 is reserved")
            }
        }
        return output
    }

    private func checkRoom(_ output: [UInt8], adding count: Int, context: String) throws(FormatError) {
        if count > maximumOutputBytes - output.count {
            throw .limitExceeded(
                context: context, limit: "inflated size", value: UInt64(output.count) + UInt64(count),
                maximum: UInt64(maximumOutputBytes))
        }
    }

    private func storedBlock(_ reader: inout DeflateBitReader, into output: inout [UInt8]) throws(FormatError) {
        reader.alignToByte()
        let length = try reader.bits(16)
        let complement = try reader.bits(16)
        guard length == ~complement & 0xFFFF else {
            throw .invalid(context: reader.context, reason: "stored block length \(length) does not match its complement")
        }
        try checkRoom(output, adding: length, context: reader.context)
        try reader.bytes(length, into: &output)
    }

    private func huffmanBlock(
        _ reader: inout DeflateBitReader, _ literals: HuffmanTable, _ distances: HuffmanTable,
        into output: inout [UInt8]
    ) throws(FormatError) {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                try checkRoom(output, adding: 1, context: reader.context)
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < Self.lengthBase.count else {
                    throw .invalid(context: reader.context, reason: "length symbol \(symbol) is not defined")
                }
                let length = Self.lengthBase[index] + (try reader.bits(Self.lengthExtra[index]))
                let distanceSymbol = try distances.decode(&reader)
                guard distanceSymbol < Self.distanceBase.count else {
                    throw .invalid(context: reader.context, reason: "distance symbol \(distanceSymbol) is not defined")
                }
                let distance = Self.distanceBase[distanceSymbol] + (try reader.bits(Self.distanceExtra[distanceSymbol]))
                guard distance <= output.count else {
                    throw .invalid(
                        context: reader.context,
                        reason: "distance \(distance) reaches before the start of the output (\(output.count) bytes)")
                }
                try checkRoom(output, adding: length, context: reader.context)
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }

    private static func dynamicTables(
        _ reader: inout DeflateBitReader
    ) throws(FormatError) -> (literals: HuffmanTable, distances: HuffmanTable) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw .invalid(
                context: reader.context,
                reason: "dynamic block declares \(literalCount) literal/length and \(distanceCount) distance codes")
        }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengthLengths[codeLengthOrder[index]] = try reader.bits(3) }
        let codeLengths = try HuffmanTable(
            lengths: codeLengthLengths[...], allowIncomplete: false, context: reader.context)
        var lengths: [Int] = []
        let total = literalCount + distanceCount
        lengths.reserveCapacity(total)
        while lengths.count < total {
            let symbol = try codeLengths.decode(&reader)
            var repeated = 0, count = 0
            switch symbol {
            case 0..<16:
                lengths.append(symbol)
                continue
            case 16:
                guard let last = lengths.last else {
                    throw .invalid(context: reader.context, reason: "code length repeat with no previous length")
                }
                repeated = last
                count = 3 + (try reader.bits(2))
            case 17: count = 3 + (try reader.bits(3))
            default: count = 11 + (try reader.bits(7))
            }
            guard lengths.count + count <= total else {
                throw .invalid(context: reader.context, reason: "code lengths run past the declared count")
            }
            lengths.append(contentsOf: repeatElement(repeated, count: count))
        }
        guard lengths[256] != 0 else {
            throw .invalid(context: reader.context, reason: "dynamic block has no end-of-block code")
        }
        let literals = try HuffmanTable(
            lengths: lengths[0..<literalCount], allowIncomplete: false, context: reader.context)
        let distances = try HuffmanTable(
            lengths: lengths[literalCount...], allowIncomplete: true, context: reader.context)
        return (literals, distances)
    }

    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// The fixed codes of block type 1 (RFC 1951, 3.2.6).
    private static let fixedTables: (literals: HuffmanTable, distances: HuffmanTable) = {
        var lengths = [Int](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        let literals = HuffmanTable(completeLengths: lengths[...])
        let distances = HuffmanTable(completeLengths: [Int](repeating: 5, count: 30)[...])
        return (literals, distances)
    }()
}
