/// Writes bytes as a raw DEFLATE stream of stored (uncompressed) blocks (RFC 1951, 3.2.4).
///
/// Any inflater reads the result, Photos' included; it is 5 bytes per 64 KiB larger than the input.
/// LivePair uses it where a format asks for DEFLATE and size does not matter (its own edit data).
public enum StoredDeflater {
    /// The largest stored block.
    static let maximumBlock = 65_535

    /// `bytes` as stored blocks, the last one marked final (an empty input gives one empty block).
    public static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 5 * (bytes.count / maximumBlock + 1))
        var start = 0
        repeat {
            let length = min(maximumBlock, bytes.count - start)
            let isFinal = start + length == bytes.count
            output.append(isFinal ? 1 : 0)
            output.append(UInt8(length & 0xFF))
            output.append(UInt8(length >> 8))
            output.append(UInt8(~length & 0xFF))
            output.append(UInt8((~length >> 8) & 0xFF))
            output.append(contentsOf: bytes[start..<(start + length)])
            start += length
        } while start < bytes.count
        return output
    }
}
