/// A source that answers reads inside the first bytes of a file from one prefetched buffer, so
/// identifying a typical HEIC (`ftyp` + `meta` near the start) costs one read instead of several.
struct HEIFHeadCachedSource: ByteSource {
    /// Bytes read ahead from the start of the file.
    static let prefetchSize = 32 * 1024

    let base: any ByteSource
    let head: [UInt8]

    init(_ base: any ByteSource) throws(FormatError) {
        self.base = base
        head = try base.read(at: 0, count: Int(min(base.size, UInt64(Self.prefetchSize))))
    }

    var size: UInt64 { base.size }
    var name: String { base.name }

    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        guard count > 0 else { return [] }
        if offset < UInt64(head.count) {
            let start = Int(offset)
            if head.count - start >= count { return Array(head[start..<start + count]) }
            if UInt64(head.count) == base.size { return Array(head[start...]) }
        }
        return try base.read(at: offset, count: count)
    }
}
