/// The header of a top-level box found by scanning a file, without its payload.
public struct TopLevelBox: Sendable, Equatable {
    /// The box type.
    public let type: FourCC
    /// Offset of the header in the file.
    public let fileOffset: UInt64
    /// Header size (8 or 16).
    public let headerSize: Int
    /// Total size, resolved for to-end boxes; may exceed the file for truncated files (see `isTruncated`).
    public let size: UInt64
    /// How the size was written.
    public let sizeEncoding: BoxSizeEncoding
    /// True when the box claims more bytes than the file holds.
    public let isTruncated: Bool

    /// File offset of the payload.
    public var payloadFileOffset: UInt64 { fileOffset + UInt64(headerSize) }
    /// Payload size (clamped to the file for truncated boxes).
    public var payloadSize: UInt64 { size - UInt64(headerSize) }
}

/// Lists the top-level boxes of a file by reading 16 bytes per box: `mdat` is never read.
public struct TopLevelBoxScanner: Sendable {
    /// The limits applied.
    public let limits: ParseLimits

    /// A scanner applying `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// Scans `source` from `start`. A final box that runs past the end of the file is reported
    /// with `isTruncated`; bytes after the last whole header that cannot form a header are ignored.
    /// Throws at the first damaged header.
    public func scan(_ source: any ByteSource, from start: UInt64 = 0) throws(FormatError) -> [TopLevelBox] {
        let result = try scanKeepingPrefix(source, from: start)
        if let damage = result.damage { throw damage }
        return result.boxes
    }

    /// Scans like `scan(_:from:)`, but a damaged header ends the scan instead of failing it: the
    /// boxes before it are returned with the error that stopped the scan. Limit errors still throw.
    public func scanKeepingPrefix(
        _ source: any ByteSource, from start: UInt64 = 0
    ) throws(FormatError) -> (boxes: [TopLevelBox], damage: FormatError?) {
        var boxes: [TopLevelBox] = []
        var offset = start
        let fileSize = source.size
        while fileSize - offset >= 8 {
            let head = try source.read(at: offset, count: 16)
            var reader = ByteReader(head, baseFileOffset: offset, context: "top-level box at \(offset)")
            do throws(FormatError) {
                let size32 = try reader.u32()
                let type = try reader.fourCC()
                var size = UInt64(size32)
                var headerSize = 8
                var encoding = BoxSizeEncoding.compact
                if size32 == 1 {
                    size = try reader.u64()
                    headerSize = 16
                    encoding = .large
                } else if size32 == 0 {
                    size = fileSize - offset
                    encoding = .toEnd
                }
                guard size >= UInt64(headerSize) else {
                    throw FormatError.invalid(
                        context: "\(type) box at offset \(offset)",
                        reason: "size \(size) is smaller than its \(headerSize)-byte header")
                }
                let truncated = size > fileSize - offset
                boxes.append(
                    TopLevelBox(
                        type: type, fileOffset: offset, headerSize: headerSize, size: size, sizeEncoding: encoding,
                        isTruncated: truncated))
                if truncated { break }
                offset += size
            } catch {
                return (boxes, error)
            }
            if boxes.count > limits.maximumBoxCount {
                throw .limitExceeded(
                    context: "top-level boxes", limit: "box count", value: UInt64(boxes.count),
                    maximum: UInt64(limits.maximumBoxCount))
            }
        }
        return (boxes, nil)
    }

    /// Reads and parses one top-level box completely (for `moov` or `meta`), within the metadata limit.
    public func load(_ box: TopLevelBox, from source: any ByteSource) throws(FormatError) -> Box {
        if box.isTruncated {
            throw .truncated(
                context: "\(box.type) box", needed: box.size,
                available: source.size > box.fileOffset ? source.size - box.fileOffset : 0)
        }
        try limits.checkMetadataSize(box.size, context: "\(box.type) box")
        let bytes = try source.readExactly(at: box.fileOffset, count: Int(box.size), context: "\(box.type) box")
        return try BoxParser(limits: limits).parseBox(bytes, fileOffset: box.fileOffset)
    }
}
