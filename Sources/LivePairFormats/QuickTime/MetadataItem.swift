/// One movie-level metadata item: a key from `keys` and its value from `ilst`.
public struct MetadataItem: Sendable, Equatable {
    /// The key namespace, `mdta` for reverse-DNS keys.
    public let namespace: FourCC
    /// The key, for example `com.apple.quicktime.content.identifier`.
    public let key: String
    /// The value.
    public let value: MetadataValue
    /// The raw well-known type code of the value.
    public let typeCode: UInt32

    /// Memberwise initializer.
    public init(namespace: FourCC, key: String, value: MetadataValue, typeCode: UInt32) {
        self.namespace = namespace
        self.key = key
        self.value = value
        self.typeCode = typeCode
    }
}

/// Where a movie's metadata items were found.
public enum MetadataLocation: String, Sendable, Equatable {
    /// `moov/meta`, QuickTime form: where Apple writes them.
    case movieMeta = "moov/meta"
    /// `moov/udta/meta`, where ffmpeg's `use_metadata_tags` writes them.
    case userDataMeta = "moov/udta/meta"
}

/// Reads `meta` boxes holding `hdlr mdta`, `keys` and `ilst`.
enum MetadataItemsParser {
    /// Parses the items of a `meta` box (either form), or an empty list when it has no `keys`/`ilst`.
    static func parse(_ meta: Box, limits: ParseLimits) throws(FormatError) -> [MetadataItem] {
        guard let keysBox = meta.child("keys"), let list = meta.child("ilst") else { return [] }
        var keysReader = try keysBox.payloadReader()
        _ = try FullBoxHeader(&keysReader)
        let count = try keysReader.u32()
        try limits.checkTable(UInt64(count), entrySize: 8, available: keysReader.remaining, context: "keys")
        var keys: [(FourCC, String)] = []
        keys.reserveCapacity(Int(count))
        for _ in 0..<count {
            let size = Int(try keysReader.u32())
            guard size >= 8 else { throw .invalid(context: "keys", reason: "key entry size \(size) is below 8") }
            let namespace = try keysReader.fourCC()
            keys.append((namespace, try keysReader.string(size - 8)))
        }

        var items: [MetadataItem] = []
        var listReader = try list.payloadReader()
        var seen = 0
        while listReader.remaining >= 8 {
            let start = listReader.position
            let header = try BoxParser.readHeader(&listReader)
            seen += 1
            if seen > limits.maximumTableEntries {
                throw .limitExceeded(
                    context: "ilst", limit: "item count", value: UInt64(seen), maximum: UInt64(limits.maximumTableEntries))
            }
            try listReader.seek(to: start + header.headerSize)
            var itemReader = try listReader.subReader(count: Int(header.size) - header.headerSize, context: "ilst item")
            let keyIndex = Int(header.type.rawValue)
            guard keyIndex >= 1, keyIndex <= keys.count else { continue }
            while itemReader.remaining >= 8 {
                let dataStart = itemReader.position
                let dataHeader = try BoxParser.readHeader(&itemReader)
                try itemReader.seek(to: dataStart + dataHeader.headerSize)
                var dataReader = try itemReader.subReader(
                    count: Int(dataHeader.size) - dataHeader.headerSize, context: "ilst data")
                guard dataHeader.type == "data", dataReader.remaining >= 8 else { continue }
                let typeCode = try dataReader.u32() & 0xFF_FFFF
                _ = try dataReader.u32()  // locale
                let (namespace, key) = keys[keyIndex - 1]
                items.append(
                    MetadataItem(
                        namespace: namespace, key: key, value: MetadataValue(type: typeCode, bytes: dataReader.rest()),
                        typeCode: typeCode))
            }
        }
        return items
    }
}
