/// Random access to the bytes of a file or buffer, so parsers read only what they need
/// (headers, `moov`, the Exif item) and never whole movies.
public protocol ByteSource: Sendable {
    /// Total size in bytes.
    var size: UInt64 { get }
    /// A name for error messages (usually the path).
    var name: String { get }
    /// Reads up to `count` bytes at `offset`; fewer only when the source ends first.
    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8]
}

extension ByteSource {
    /// Reads exactly `count` bytes at `offset` or throws `truncated`.
    public func readExactly(at offset: UInt64, count: Int, context: String) throws(FormatError) -> [UInt8] {
        guard offset <= size, UInt64(count) <= size - offset else {
            throw .truncated(
                context: context, needed: UInt64(count), available: offset <= size ? size - offset : 0)
        }
        let bytes = try read(at: offset, count: count)
        guard bytes.count == count else {
            throw .truncated(context: context, needed: UInt64(count), available: UInt64(bytes.count))
        }
        return bytes
    }

    /// A reader over exactly `count` bytes at `offset`, with file offsets preserved.
    public func reader(at offset: UInt64, count: Int, context: String) throws(FormatError) -> ByteReader {
        ByteReader(try readExactly(at: offset, count: count, context: context), baseFileOffset: offset, context: context)
    }
}

/// A byte source over an in-memory buffer (tests, uploads held in memory).
public struct MemoryByteSource: ByteSource {
    /// The bytes.
    public let bytes: [UInt8]
    /// A name for error messages.
    public let name: String

    /// Wraps `bytes`.
    public init(_ bytes: [UInt8], name: String = "memory") {
        self.bytes = bytes
        self.name = name
    }

    /// The buffer's length.
    public var size: UInt64 { UInt64(bytes.count) }

    /// Copies up to `count` bytes at `offset`.
    public func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        guard count >= 0, offset < UInt64(bytes.count) else { return [] }
        let start = Int(offset)
        let stop = start + min(count, bytes.count - start)
        return Array(bytes[start..<stop])
    }
}
