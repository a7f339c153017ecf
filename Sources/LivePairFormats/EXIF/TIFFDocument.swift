/// One IFD entry as stored, for rewriting: the raw type code (known or not), the count and the
/// value bytes in the document's byte order.
public struct TIFFRawEntry: Sendable, Equatable {
    /// The tag number.
    public var tag: UInt16
    /// The raw type code (types LivePair does not know are kept as they are).
    public var type: UInt16
    /// Number of values.
    public var count: UInt32
    /// The value bytes (`count` times the type's size) in the document's byte order; for an
    /// unknown type, the 4-byte value field as stored.
    public var value: [UInt8]

    /// Memberwise initializer.
    public init(tag: UInt16, type: UInt16, count: UInt32, value: [UInt8]) {
        self.tag = tag
        self.type = type
        self.count = count
        self.value = value
    }

    /// An entry of a known type whose value bytes are `value`; the count follows from the type.
    public init(tag: UInt16, type: TIFFValueType, value: [UInt8]) {
        self.init(tag: tag, type: type.rawValue, count: UInt32(value.count / max(type.byteSize, 1)), value: value)
    }

    /// The known type, or nil.
    public var knownType: TIFFValueType? { TIFFValueType(rawValue: type) }

    /// Bytes the value occupies (the 4-byte field for unknown types).
    public var valueSize: Int { knownType.map { Int(count) * $0.byteSize } ?? 4 }
}

/// An IFD for rewriting: its entries in order, the sub-IFDs it points at, and the data blocks
/// its offset tags point at (the IFD1 JPEG thumbnail, strips, tiles).
public struct TIFFDirectory: Sendable, Equatable {
    /// The entries, in file order. Pointer entries (sub-IFDs, data offsets) keep a placeholder
    /// value that the writer replaces.
    public var entries: [TIFFRawEntry]
    /// Sub-IFDs by pointer tag (0x8769 Exif, 0x8825 GPS, 0xA005 interoperability).
    public var subdirectories: [UInt16: TIFFDirectory]
    /// Data blocks by offset tag (0x0201 thumbnail, 0x0111 strips, 0x0144 tiles), one per value.
    public var dataBlocks: [UInt16: [[UInt8]]]

    /// A directory of `entries`.
    public init(entries: [TIFFRawEntry] = [], subdirectories: [UInt16: TIFFDirectory] = [:], dataBlocks: [UInt16: [[UInt8]]] = [:]) {
        self.entries = entries
        self.subdirectories = subdirectories
        self.dataBlocks = dataBlocks
    }

    /// The first entry with `tag`.
    public func entry(_ tag: UInt16) -> TIFFRawEntry? { entries.first { $0.tag == tag } }

    /// Sets `entry`, replacing the entry with its tag or inserting it in ascending tag order.
    public mutating func set(_ entry: TIFFRawEntry) {
        if let index = entries.firstIndex(where: { $0.tag == entry.tag }) {
            entries[index] = entry
        } else {
            let index = entries.firstIndex { $0.tag > entry.tag } ?? entries.count
            entries.insert(entry, at: index)
        }
    }
}

/// A whole TIFF block for rewriting (Exif APP1 content, HEIF Exif item): the byte order and the
/// chain of IFDs starting at IFD0, each with its sub-IFDs and data. Read with `init(parsing:)`,
/// edited, and written with `TIFFWriter`.
public struct TIFFDocument: Sendable, Equatable {
    /// Sub-IFD pointer tags followed: Exif, GPS, interoperability.
    public static let subdirectoryTags: [UInt16] = [0x8769, 0x8825, 0xA005]
    /// Offset tags and the tags holding the byte counts of what they point at.
    public static let dataTags: [(offset: UInt16, length: UInt16)] = [(0x0201, 0x0202), (0x0111, 0x0117), (0x0144, 0x0145)]

    /// Whether integers are little-endian ("II").
    public var littleEndian: Bool
    /// IFD0, IFD1, ... in chain order.
    public var directories: [TIFFDirectory]
    /// Entries dropped while reading because their value lay outside the block.
    public var droppedEntryCount: Int = 0

    /// A document of `directories`.
    public init(littleEndian: Bool, directories: [TIFFDirectory]) {
        self.littleEndian = littleEndian
        self.directories = directories
    }

    /// Reads a classic TIFF block (BigTIFF is `unsupported`). IFD cycles are cut; entries whose
    /// values lie outside the block are dropped and counted.
    public init(parsing bytes: [UInt8], limits: ParseLimits = .default) throws(FormatError) {
        try limits.checkMetadataSize(UInt64(bytes.count), context: "TIFF")
        var reader = ByteReader(bytes, context: "TIFF header")
        switch try reader.u16() {
        case 0x4949: reader.littleEndian = true
        case 0x4D4D: reader.littleEndian = false
        default: throw .invalid(context: "TIFF header", reason: "byte order mark is not II or MM")
        }
        let magic = try reader.u16()
        guard magic == 42 else {
            throw .unsupported(context: "TIFF header", reason: "magic number \(magic) (only classic TIFF is rewritten)")
        }
        littleEndian = reader.littleEndian
        directories = []
        var state = ReadState(bytes: bytes, littleEndian: littleEndian, limits: limits)
        var next = UInt64(try reader.u32())
        while next != 0 {
            guard let (directory, following) = try state.directory(at: next, depth: 0) else { break }
            directories.append(directory)
            next = following
        }
        droppedEntryCount = state.dropped
    }

    /// The Exif sub-IFD of IFD0.
    public var exif: TIFFDirectory? {
        get { directories.first?.subdirectories[0x8769] }
        set {
            if directories.isEmpty { directories.append(TIFFDirectory()) }
            directories[0].subdirectories[0x8769] = newValue
        }
    }

    private struct ReadState {
        let bytes: [UInt8]
        let littleEndian: Bool
        let limits: ParseLimits
        var visited: Set<UInt64> = []
        var dropped = 0

        mutating func directory(at offset: UInt64, depth: Int) throws(FormatError) -> (TIFFDirectory, UInt64)? {
            guard offset < UInt64(bytes.count), visited.insert(offset).inserted else { return nil }
            guard visited.count <= limits.maximumIFDChainLength, depth <= limits.maximumDepth else {
                throw .limitExceeded(
                    context: "TIFF", limit: "IFD count", value: UInt64(visited.count),
                    maximum: UInt64(limits.maximumIFDChainLength))
            }
            var reader = ByteReader(bytes, context: "IFD at \(offset)")
            reader.littleEndian = littleEndian
            try reader.seek(to: Int(offset))
            let count = Int(try reader.u16())
            try limits.checkTable(UInt64(count), entrySize: 12, available: reader.remaining, context: "IFD at \(offset)")
            var directory = TIFFDirectory()
            var pointers: [(tag: UInt16, offset: UInt64)] = []
            for _ in 0..<count {
                let tag = try reader.u16()
                let type = try reader.u16()
                let valueCount = try reader.u32()
                var field = try reader.subReader(count: 4)
                guard let known = TIFFValueType(rawValue: type) else {
                    directory.entries.append(TIFFRawEntry(tag: tag, type: type, count: valueCount, value: field.rest()))
                    continue
                }
                let size = UInt64(valueCount) * UInt64(known.byteSize)
                let value: [UInt8]
                if size <= 4 {
                    value = Array(field.rest().prefix(Int(size)))
                } else {
                    let pointer = UInt64(try field.u32())
                    guard size <= UInt64(limits.maximumMetadataBytes), pointer <= UInt64(bytes.count),
                        UInt64(bytes.count) - pointer >= size
                    else {
                        dropped += 1
                        continue
                    }
                    value = Array(bytes[Int(pointer)..<Int(pointer + size)])
                }
                let entry = TIFFRawEntry(tag: tag, type: type, count: valueCount, value: value)
                directory.entries.append(entry)
                if TIFFDocument.subdirectoryTags.contains(tag), let target = integers(entry).first {
                    pointers.append((tag, target))
                }
            }
            let next = reader.remaining >= 4 ? UInt64(try reader.u32()) : 0
            for pointer in pointers {
                if let (sub, _) = try self.directory(at: pointer.offset, depth: depth + 1) {
                    directory.subdirectories[pointer.tag] = sub
                }
            }
            for (offsetTag, lengthTag) in TIFFDocument.dataTags {
                guard let offsets = directory.entry(offsetTag).map(integers),
                    let lengths = directory.entry(lengthTag).map(integers), offsets.count == lengths.count
                else { continue }
                var blocks: [[UInt8]] = []
                for (start, length) in zip(offsets, lengths) {
                    guard start <= UInt64(bytes.count), UInt64(bytes.count) - start >= length else {
                        blocks.removeAll()
                        break
                    }
                    blocks.append(Array(bytes[Int(start)..<Int(start + length)]))
                }
                if blocks.count == offsets.count { directory.dataBlocks[offsetTag] = blocks }
            }
            return (directory, next)
        }

        func integers(_ entry: TIFFRawEntry) -> [UInt64] {
            guard let type = entry.knownType else { return [] }
            var reader = ByteReader(entry.value)
            reader.littleEndian = littleEndian
            var values: [UInt64] = []
            while !reader.isAtEnd {
                switch type {
                case .short: guard let value = try? reader.u16() else { return values }; values.append(UInt64(value))
                case .long, .ifd: guard let value = try? reader.u32() else { return values }; values.append(UInt64(value))
                default: return []
                }
            }
            return values
        }
    }
}
