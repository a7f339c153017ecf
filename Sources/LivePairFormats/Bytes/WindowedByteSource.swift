/// The bytes of a stream read once, kept whole when small, else as its first and last bytes.
///
/// An archive member is read once, in order, without being written anywhere; identification then
/// needs random access to its headers (the start of a JPEG, a HEIC's `meta`, a movie's `moov`, at
/// the start or the end). This source keeps the `head` (the first bytes) and the `tail` (the last
/// bytes) of a stream of `size` bytes; a read that reaches into the bytes between them throws
/// `FormatError.unsupported`, so memory stays bounded whatever the member's size.
public struct WindowedByteSource: ByteSource {
    /// The first bytes of the stream (all of them when `isWhole`).
    public let head: [UInt8]
    /// The last bytes of the stream (empty when `isWhole`).
    public let tail: [UInt8]
    /// The stream's full length.
    public let size: UInt64
    /// A name for error messages.
    public let name: String

    /// A source over `head`, a gap, and `tail`, `size` bytes in all (`head.count + tail.count <= size`).
    public init(head: [UInt8], tail: [UInt8], size: UInt64, name: String) {
        self.head = head
        self.tail = size >= UInt64(head.count) + UInt64(tail.count) ? tail : []
        self.size = max(size, UInt64(head.count) + UInt64(self.tail.count))
        self.name = name
    }

    /// A source holding every byte.
    public init(whole bytes: [UInt8], name: String) {
        self.init(head: bytes, tail: [], size: UInt64(bytes.count), name: name)
    }

    /// Whether every byte is held (no gap).
    public var isWhole: Bool { UInt64(head.count) + UInt64(tail.count) == size }

    /// Where the tail starts in the stream.
    private var tailStart: UInt64 { size - UInt64(tail.count) }

    /// Up to `count` bytes at `offset`; throws when they reach into the bytes that were not kept.
    public func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let end = offset + min(UInt64(count), size - offset)
        if end <= UInt64(head.count) {
            return Array(head[Int(offset)..<Int(end)])
        }
        if offset >= tailStart {
            return Array(tail[Int(offset - tailStart)..<Int(end - tailStart)])
        }
        if isWhole {
            // head and tail are contiguous: the read spans both.
            return Array(head[Int(offset)...]) + Array(tail[..<Int(end - tailStart)])
        }
        throw .unsupported(
            context: name,
            reason: "bytes \(offset)..<\(end) are in the middle of a \(size)-byte member read as a stream; "
                + "only its first \(head.count) and last \(tail.count) bytes are kept")
    }
}
