/// Serialisation of `BoxNode` trees: sizes are computed bottom-up, each box keeps its size
/// encoding unless its size no longer fits, so an unmodified tree writes back byte for byte.
extension BoxNode {
    /// Payload size in bytes (everything after the header).
    public var payloadSize: UInt64 {
        switch content {
        case let .leaf(bytes):
            return UInt64(bytes.count)
        case let .container(prefix, children, trailer):
            return children.reduce(UInt64(prefix.count + trailer.count)) { $0 + $1.size }
        }
    }

    /// Header size as written: 16 for `large` boxes or boxes whose size does not fit 32 bits, else 8.
    public var headerSize: Int { headerSize(payloadSize: payloadSize) }

    /// Total size as written (header plus payload). The payload is summed once per box (each
    /// child's size once), so the cost is linear in the subtree, whatever its depth.
    public var size: UInt64 {
        let payload = payloadSize
        return UInt64(headerSize(payloadSize: payload)) + payload
    }

    /// The header size for a payload of `payloadSize` bytes.
    private func headerSize(payloadSize: UInt64) -> Int {
        if sizeEncoding == .large { return 16 }
        return payloadSize + 8 > UInt64(UInt32.max) ? 16 : 8
    }

    /// The box's bytes. `isLast` says whether it is the last box of its container or file, the only
    /// place a `toEnd` box keeps its size-0 header.
    public func serialized(isLast: Bool = true) -> [UInt8] {
        var writer = ByteWriter(capacity: Int(clamping: size))
        write(into: &writer, isLast: isLast)
        return writer.bytes
    }

    /// Appends the box's bytes to `writer` (big-endian, whatever the writer's byte order).
    public func write(into writer: inout ByteWriter, isLast: Bool = true) {
        let saved = writer.littleEndian
        writer.littleEndian = false
        defer { writer.littleEndian = saved }
        writeHeader(into: &writer, isLast: isLast)
        switch content {
        case let .leaf(bytes):
            writer.append(bytes)
        case let .container(prefix, children, trailer):
            writer.append(prefix)
            for (index, child) in children.enumerated() {
                child.write(into: &writer, isLast: index == children.count - 1 && trailer.isEmpty)
            }
            writer.append(trailer)
        }
    }

    /// Writes the header only (size, type, and the 64-bit size of large boxes).
    public func writeHeader(into writer: inout ByteWriter, isLast: Bool = true) {
        let payload = payloadSize
        let total = UInt64(headerSize(payloadSize: payload)) + payload
        if total - payload == 16 {
            writer.u32(1)
            writer.fourCC(type)
            writer.u64(total)
        } else if sizeEncoding == .toEnd && isLast {
            writer.u32(0)
            writer.fourCC(type)
        } else {
            writer.u32(UInt32(total))
            writer.fourCC(type)
        }
    }

    /// The bytes of a sequence of sibling boxes (for example every top-level box of a file).
    public static func serialize(_ boxes: [BoxNode]) -> [UInt8] {
        var writer = ByteWriter()
        for (index, box) in boxes.enumerated() { box.write(into: &writer, isLast: index == boxes.count - 1) }
        return writer.bytes
    }
}
