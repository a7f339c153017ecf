/// Parses ISO-BMFF / QuickTime box trees from bytes already in memory, and scans top-level boxes
/// of a file by reading only their headers.
public struct BoxParser: Sendable {
    /// Box types whose payload is a plain sequence of child boxes.
    public static let plainContainers: Set<FourCC> = [
        "moov", "trak", "mdia", "minf", "stbl", "dinf", "edts", "udta", "mvex", "moof", "traf",
        "iprp", "ipco", "tref", "gmhd", "mpvd", "sinf", "schi", "wave", "clip", "matt",
    ]

    /// The limits applied to every size, count and depth.
    public let limits: ParseLimits

    /// A parser applying `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// Reads one box header at the reader's position; the reader is left after the header.
    /// `containerEnd` resolves to-end sizes. Throws when the size is smaller than the header or
    /// larger than the bytes that remain.
    public static func readHeader(
        _ reader: inout ByteReader, allowPartial: Bool = false
    ) throws(FormatError) -> (type: FourCC, headerSize: Int, size: UInt64, encoding: BoxSizeEncoding) {
        let start = reader.position
        let size32 = try reader.u32()
        let type = try reader.fourCC()
        var headerSize = 8
        var size = UInt64(size32)
        var encoding = BoxSizeEncoding.compact
        if size32 == 1 {
            size = try reader.u64()
            headerSize = 16
            encoding = .large
        } else if size32 == 0 {
            size = UInt64(reader.end - start)
            encoding = .toEnd
        }
        guard size >= UInt64(headerSize) else {
            throw .invalid(context: "\(type) box", reason: "size \(size) is smaller than its \(headerSize)-byte header")
        }
        let available = UInt64(reader.end - start)
        if size > available && !allowPartial {
            throw .truncated(context: "\(type) box", needed: size, available: available)
        }
        return (type, headerSize, size, encoding)
    }

    /// Parses every box in `reader` (to its end) as siblings, descending into containers.
    public func parseBoxes(_ reader: inout ByteReader, depth: Int = 0, path: String = "") throws(FormatError) -> [Box] {
        var count = 0
        return try parseBoxes(&reader, depth: depth, path: path, count: &count)
    }

    /// Parses one complete box held in `bytes` (which start at `fileOffset` in the file).
    public func parseBox(_ bytes: [UInt8], fileOffset: UInt64) throws(FormatError) -> Box {
        var reader = ByteReader(bytes, baseFileOffset: fileOffset)
        var count = 0
        let boxes = try parseBoxes(&reader, depth: 0, path: "", count: &count, maximumBoxes: 1)
        guard let box = boxes.first else { throw .truncated(context: "box", needed: 8, available: UInt64(bytes.count)) }
        return box
    }

    private func parseBoxes(
        _ reader: inout ByteReader, depth: Int, path: String, count: inout Int, maximumBoxes: Int = .max
    ) throws(FormatError) -> [Box] {
        guard depth <= limits.maximumDepth else {
            throw .limitExceeded(
                context: path.isEmpty ? "box tree" : path, limit: "nesting depth", value: UInt64(depth),
                maximum: UInt64(limits.maximumDepth))
        }
        var boxes: [Box] = []
        while reader.remaining >= 8 && boxes.count < maximumBoxes {
            let start = reader.position
            let fileOffset = reader.currentFileOffset
            let header = try Self.readHeader(&reader)
            count += 1
            if count > limits.maximumBoxCount {
                throw .limitExceeded(
                    context: path.isEmpty ? "box tree" : path, limit: "box count", value: UInt64(count),
                    maximum: UInt64(limits.maximumBoxCount))
            }
            // A box's context is its type alone: four ASCII characters fit Swift's small-string
            // storage, so naming every box allocates nothing. Paths are built only for errors.
            let boxName = header.type.description
            try reader.seek(to: start + header.headerSize)
            let payload = try reader.subReader(count: Int(header.size) - header.headerSize, context: boxName)
            var children: [Box] = []
            if let childStart = Self.childrenOffset(type: header.type, payload: payload) {
                var childReader = payload
                try childReader.skip(childStart)
                do {
                    children = try parseBoxes(&childReader, depth: depth + 1, path: "", count: &count)
                } catch {
                    throw Self.prefixed(error, with: path.isEmpty ? boxName : "\(path)/\(boxName)")
                }
            }
            boxes.append(
                Box(
                    type: header.type, fileOffset: fileOffset, headerSize: header.headerSize, size: header.size,
                    sizeEncoding: header.encoding, payload: payload, children: children))
        }
        return boxes
    }

    /// `error` with `prefix/` put before its context, so a nested failure names its whole path.
    static func prefixed(_ error: FormatError, with prefix: String) -> FormatError {
        switch error {
        case let .truncated(context, needed, available):
            return .truncated(context: "\(prefix)/\(context)", needed: needed, available: available)
        case let .invalid(context, reason): return .invalid(context: "\(prefix)/\(context)", reason: reason)
        case let .limitExceeded(context, limit, value, maximum):
            return .limitExceeded(context: "\(prefix)/\(context)", limit: limit, value: value, maximum: maximum)
        case let .unsupported(context, reason): return .unsupported(context: "\(prefix)/\(context)", reason: reason)
        case .io: return error
        }
    }

    /// Where the children of a container start inside its payload, or nil for leaf boxes.
    /// `meta` is a full box in ISO files and in `udta`, but has no version and flags in QuickTime
    /// movies (`moov/meta`): the form is told by whether a `hdlr` header follows directly.
    public static func childrenOffset(type: FourCC, payload: ByteReader) -> Int? {
        if plainContainers.contains(type) { return 0 }
        if type == "meta" { return isQuickTimeMeta(payload) ? 0 : 4 }
        if type == "iinf" || type == "iref" { return nil }  // versioned counts: parsed by HEIF code
        return nil
    }

    /// True when a `meta` payload starts directly with a child box (QuickTime form, no version/flags).
    public static func isQuickTimeMeta(_ payload: ByteReader) -> Bool {
        guard let head = payload.peek(8) else { return false }
        let type = FourCC(rawValue: head.dropFirst(4).reduce(0) { $0 << 8 | UInt32($1) })
        let size = head.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return type == "hdlr" && size >= 8 && Int(size) <= payload.remaining
    }
}
