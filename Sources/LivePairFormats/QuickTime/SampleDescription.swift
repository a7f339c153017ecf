/// One key of a timed-metadata (`mebx`) sample description.
public struct TimedMetadataKey: Sendable, Equatable {
    /// The local key id that samples use to refer to the key.
    public let localID: UInt32
    /// The key namespace (`mdta`).
    public let namespace: FourCC
    /// The key name, for example `com.apple.quicktime.still-image-time`.
    public let name: String
    /// The well-known data type from `dtyp` (65 = int8 for the still-image time), when present.
    public let dataType: UInt32?

    /// Memberwise initializer.
    public init(localID: UInt32, namespace: FourCC, name: String, dataType: UInt32?) {
        self.localID = localID
        self.namespace = namespace
        self.name = name
        self.dataType = dataType
    }
}

/// One sample description (`stsd` entry): its format code and the fields LivePair uses.
public struct SampleDescription: Sendable, Equatable {
    /// The format, for example `avc1`, `hvc1`, `lpcm`, `mp4a`, `mebx`.
    public let format: FourCC
    /// Coded width for visual entries.
    public let width: Int?
    /// Coded height for visual entries.
    public let height: Int?
    /// Channel count for sound entries.
    public let channelCount: Int?
    /// Sample rate in Hz for sound entries.
    public let sampleRate: Double?
    /// Bits per channel for sound entries.
    public let bitsPerChannel: Int?
    /// LPCM format flags (version 2 sound entries): bit 0 float, bit 1 big-endian, bit 2 signed.
    public let formatFlags: UInt32?
    /// The keys of a `mebx` entry.
    public let metadataKeys: [TimedMetadataKey]
    /// Child box types of the entry (for example `avcC`, `hvcC`, `colr`).
    public let extensionTypes: [FourCC]

    /// The codec name as ffprobe spells it (`h264`, `hevc`, `pcm_s16le`, `aac`, ...), or the format code.
    public var codecName: String {
        switch format {
        case "avc1", "avc3": return "h264"
        case "hvc1", "hev1": return "hevc"
        case "mp4v": return "mpeg4"
        case "jpeg", "mjpa": return "mjpeg"
        case "apch", "apcn", "apcs", "apco", "ap4h", "ap4x": return "prores"
        case "av01": return "av1"
        case "vp09": return "vp9"
        case "mp4a": return "aac"
        case "ac-3": return "ac3"
        case "ec-3": return "eac3"
        case "alac": return "alac"
        case "Opus": return "opus"
        case "sowt": return "pcm_s\(bitsPerChannel ?? 16)le"
        case "twos": return "pcm_s\(bitsPerChannel ?? 16)be"
        case "in24": return "pcm_s24be"
        case "fl32": return "pcm_f32be"
        case "lpcm":
            let flags = formatFlags ?? 0x4
            let bits = bitsPerChannel ?? 16
            let endian = flags & 0x2 != 0 ? "be" : "le"
            if flags & 0x1 != 0 { return "pcm_f\(bits)\(endian)" }
            if bits == 8 { return flags & 0x4 != 0 ? "pcm_s8" : "pcm_u8" }
            return "pcm_\(flags & 0x4 != 0 ? "s" : "u")\(bits)\(endian)"
        default: return format.description
        }
    }

    /// Parses the entries of an `stsd` box for a track with `handler`.
    static func parseAll(_ stsd: Box, handler: FourCC, limits: ParseLimits) throws(FormatError) -> [SampleDescription] {
        var reader = try stsd.payloadReader()
        _ = try FullBoxHeader(&reader)
        let count = try reader.u32()
        try limits.checkTable(UInt64(count), entrySize: 16, available: reader.remaining, context: "stsd")
        var entries: [SampleDescription] = []
        for _ in 0..<count {
            let start = reader.position
            let header = try BoxParser.readHeader(&reader)
            try reader.seek(to: start + header.headerSize)
            let body = try reader.subReader(
                count: Int(header.size) - header.headerSize, context: "stsd/\(header.type)")
            entries.append(try parse(format: header.type, body: body, handler: handler, limits: limits))
        }
        return entries
    }

    private static func parse(
        format: FourCC, body: ByteReader, handler: FourCC, limits: ParseLimits
    ) throws(FormatError) -> SampleDescription {
        var reader = body
        try reader.skip(8)  // reserved (6) + data reference index (2)
        var width: Int?, height: Int?, channels: Int?, rate: Double?, bits: Int?, flags: UInt32?
        var childrenStart: Int?
        switch handler {
        case "vide":
            try reader.skip(16)  // version, revision, vendor, temporal and spatial quality
            width = Int(try reader.u16())
            height = Int(try reader.u16())
            try reader.skip(4 + 4 + 4 + 2 + 32 + 2 + 2)
            childrenStart = reader.position
        case "soun":
            let version = try reader.u16()
            try reader.skip(6)  // revision, vendor
            if version == 2 {
                try reader.skip(16)  // always 3, 16, -2, 0, 65536, struct size
                rate = Double(bitPattern: try reader.u64())
                channels = Int(try reader.u32())
                try reader.skip(4)
                bits = Int(try reader.u32())
                flags = try reader.u32()
                try reader.skip(8)
            } else {
                channels = Int(try reader.u16())
                bits = Int(try reader.u16())
                try reader.skip(4)
                rate = Double(try reader.u32()) / 65536
                if version == 1 { try reader.skip(16) }
            }
            childrenStart = reader.position
        case "meta" where format == "mebx":
            childrenStart = reader.position
        default:
            childrenStart = nil
        }
        var keys: [TimedMetadataKey] = []
        var extensionTypes: [FourCC] = []
        if let childrenStart, childrenStart <= reader.end {
            var childReader = try body.reader(at: childrenStart, count: body.end - childrenStart)
            // Some writers pad entries with a 4-byte zero terminator: parse boxes while they fit.
            let children = (try? BoxParser(limits: limits).parseBoxes(&childReader)) ?? []
            extensionTypes = children.map(\.type)
            if format == "mebx", let keysBox = children.first(where: { $0.type == "keys" }) {
                keys = try parseMetadataKeys(keysBox, limits: limits)
            }
        }
        return SampleDescription(
            format: format, width: width, height: height, channelCount: channels, sampleRate: rate,
            bitsPerChannel: bits, formatFlags: flags, metadataKeys: keys, extensionTypes: extensionTypes)
    }

    /// Reads a `mebx` entry's `keys` box: child boxes named by local key id, each holding `keyd` and `dtyp`.
    private static func parseMetadataKeys(_ keysBox: Box, limits: ParseLimits) throws(FormatError) -> [TimedMetadataKey] {
        var reader = try keysBox.payloadReader()
        let entries = try BoxParser(limits: limits).parseBoxes(&reader)
        var keys: [TimedMetadataKey] = []
        for entry in entries {
            var inner = try entry.payloadReader()
            let parts = try BoxParser(limits: limits).parseBoxes(&inner)
            guard let keyd = parts.first(where: { $0.type == "keyd" }) else { continue }
            var keyReader = try keyd.payloadReader()
            let namespace = try keyReader.fourCC()
            let name = try keyReader.string(keyReader.remaining)
            var dataType: UInt32?
            if let dtyp = parts.first(where: { $0.type == "dtyp" }) {
                var typeReader = try dtyp.payloadReader()
                if typeReader.remaining >= 8 {
                    _ = try typeReader.u32()  // namespace: 0 = well-known types
                    dataType = try typeReader.u32()
                }
            }
            keys.append(TimedMetadataKey(localID: entry.type.rawValue, namespace: namespace, name: name, dataType: dataType))
        }
        return keys
    }

    /// Memberwise initializer.
    public init(
        format: FourCC, width: Int?, height: Int?, channelCount: Int?, sampleRate: Double?, bitsPerChannel: Int?,
        formatFlags: UInt32?, metadataKeys: [TimedMetadataKey], extensionTypes: [FourCC]
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.bitsPerChannel = bitsPerChannel
        self.formatFlags = formatFlags
        self.metadataKeys = metadataKeys
        self.extensionTypes = extensionTypes
    }
}
