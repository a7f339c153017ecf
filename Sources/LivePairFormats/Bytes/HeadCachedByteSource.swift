/// A source that answers reads inside the first bytes of a file from one prefetched buffer, so
/// identifying a file whose headers sit near its start (a HEIC's `ftyp` + `meta`, a JPEG's
/// segments, a movie's top-level box headers) costs one read instead of several.
public struct HeadCachedByteSource: ByteSource {
    /// Bytes read ahead from the start of the file by default.
    public static let defaultPrefetchSize = 32 * 1024

    /// The source read through.
    public let base: any ByteSource
    /// The first bytes of `base`.
    public let head: [UInt8]

    /// Reads the first `prefetchSize` bytes of `base` (all of a smaller source) at once.
    public init(_ base: any ByteSource, prefetchSize: Int = Self.defaultPrefetchSize) throws(FormatError) {
        self.base = base
        head = try base.read(at: 0, count: Int(min(base.size, UInt64(max(prefetchSize, 0)))))
    }

    /// The size of `base`.
    public var size: UInt64 { base.size }
    /// The name of `base`.
    public var name: String { base.name }

    /// A copy from the head when the range lies inside it (or the head is the whole file); for a
    /// range that starts in the head and ends past it, the head's part and a read of the rest
    /// only (a JPEG reader's 64 KiB window at 0 reads 32 KiB, not 64 again); else a read of `base`.
    public func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        guard count > 0 else { return [] }
        if offset < UInt64(head.count) {
            let start = Int(offset)
            if head.count - start >= count { return Array(head[start..<start + count]) }
            if UInt64(head.count) == base.size { return Array(head[start...]) }
            let rest = try base.read(at: UInt64(head.count), count: count - (head.count - start))
            var bytes = [UInt8]()
            bytes.reserveCapacity(head.count - start + rest.count)
            bytes += head[start...]
            bytes += rest
            return bytes
        }
        return try base.read(at: offset, count: count)
    }
}
