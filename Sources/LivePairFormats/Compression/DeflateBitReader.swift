/// Reads a DEFLATE stream's bits, least significant bit first (RFC 1951, 3.1.1).
///
/// Every read checks what is left and throws `FormatError.truncated` when the stream ends early.
struct DeflateBitReader {
    private let bytes: [UInt8]
    private(set) var position: Int
    private var buffer: UInt64 = 0
    private var count = 0
    let context: String

    init(_ bytes: [UInt8], context: String) {
        self.bytes = bytes
        self.position = 0
        self.context = context
    }

    /// Bytes of the input consumed so far (a partly read byte counts as consumed).
    var consumedBytes: Int { position - count / 8 }

    /// Reads `width` bits (0...32) as an unsigned number, first bit in the lowest place.
    mutating func bits(_ width: Int) throws(FormatError) -> Int {
        while count < width {
            guard position < bytes.count else {
                throw .truncated(context: context, needed: UInt64(position + 1), available: UInt64(bytes.count))
            }
            buffer |= UInt64(bytes[position]) << UInt64(count)
            position += 1
            count += 8
        }
        let value = Int(buffer & ((1 << UInt64(width)) - 1))
        buffer >>= UInt64(width)
        count -= width
        return value
    }

    /// Drops the bits left in the current byte (before a stored block's lengths).
    mutating func alignToByte() {
        let drop = count % 8
        buffer >>= UInt64(drop)
        count -= drop
    }

    /// Reads `length` whole bytes after `alignToByte()`, taking buffered bytes first.
    mutating func bytes(_ length: Int, into output: inout [UInt8]) throws(FormatError) {
        var left = length
        while left > 0 && count >= 8 {
            output.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
            left -= 1
        }
        guard bytes.count - position >= left else {
            throw .truncated(context: context, needed: UInt64(left), available: UInt64(bytes.count - position))
        }
        output.append(contentsOf: bytes[position..<(position + left)])
        position += left
    }
}
