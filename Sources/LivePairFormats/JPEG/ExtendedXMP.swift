/// An extended XMP packet, reassembled from APP1 "http://ns.adobe.com/xmp/extension/\0" chunks that
/// share a GUID, each placed at its declared offset.
public struct ExtendedXMP: Sendable, Equatable {
    /// The 32-character GUID (the MD5 of the full packet, as hex) that names the packet.
    public let guid: String
    /// The declared full length of the packet.
    public let fullLength: Int
    /// The reassembled bytes (`fullLength` of them; gaps are zero).
    public let bytes: [UInt8]
    /// Whether the chunks covered every byte of the packet.
    public let isComplete: Bool

    /// Memberwise initializer.
    public init(guid: String, fullLength: Int, bytes: [UInt8], isComplete: Bool) {
        self.guid = guid
        self.fullLength = fullLength
        self.bytes = bytes
        self.isComplete = isComplete
    }
}

/// Collects extended XMP chunks by GUID and reassembles them, bounded by `ParseLimits.maximumMetadataBytes`.
struct ExtendedXMPAssembler {
    private struct Chunk {
        let offset: Int
        let data: ArraySlice<UInt8>
    }

    private var order: [String] = []
    private var lengths: [String: Int] = [:]
    private var chunks: [String: [Chunk]] = [:]
    private var totalBytes = 0
    private var declaredBytes = 0
    let limits: ParseLimits

    init(limits: ParseLimits) { self.limits = limits }

    /// Adds one chunk: payload after the signature = 32-byte GUID, u32 full length, u32 offset, data.
    mutating func add(_ payload: ArraySlice<UInt8>) throws(FormatError) {
        var reader = ByteReader(Array(payload), context: "extended XMP chunk")
        let guid = try reader.string(32)
        let fullLength = Int(try reader.u32())
        let offset = Int(try reader.u32())
        try limits.checkMetadataSize(UInt64(fullLength), context: "extended XMP")
        let data = reader.rest()
        totalBytes += data.count
        try limits.checkMetadataSize(UInt64(totalBytes), context: "extended XMP")
        guard offset <= fullLength, fullLength - offset >= data.count else {
            throw .invalid(
                context: "extended XMP chunk",
                reason: "chunk of \(data.count) bytes at \(offset) exceeds the declared length \(fullLength)")
        }
        if let known = lengths[guid] {
            guard known == fullLength else {
                throw .invalid(context: "extended XMP chunk", reason: "full length changed from \(known) to \(fullLength)")
            }
        } else {
            declaredBytes += fullLength
            try limits.checkMetadataSize(UInt64(declaredBytes), context: "extended XMP")
            order.append(guid)
            lengths[guid] = fullLength
        }
        chunks[guid, default: []].append(Chunk(offset: offset, data: data[...]))
    }

    /// The packets, in the order their GUIDs first appeared.
    func assemble() -> [ExtendedXMP] {
        order.map { guid in
            let length = lengths[guid] ?? 0
            var bytes = [UInt8](repeating: 0, count: length)
            var covered = 0
            for chunk in (chunks[guid] ?? []).sorted(by: { $0.offset < $1.offset }) {
                bytes.replaceSubrange(chunk.offset..<chunk.offset + chunk.data.count, with: chunk.data)
                if chunk.offset <= covered { covered = max(covered, chunk.offset + chunk.data.count) }
            }
            return ExtendedXMP(guid: guid, fullLength: length, bytes: bytes, isComplete: covered >= length)
        }
    }
}
