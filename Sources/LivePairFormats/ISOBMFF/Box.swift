/// How a box's size field was written, kept so an unmodified tree can be written back byte for byte.
public enum BoxSizeEncoding: Sendable, Equatable {
    /// A 32-bit size in the 8-byte header.
    case compact
    /// `size == 1` and a 64-bit size after the type (16-byte header).
    case large
    /// `size == 0`: the box extends to the end of its container (or file).
    case toEnd
}

/// One ISO-BMFF box or QuickTime atom.
///
/// `payload` is a reader over the bytes after the header (including the version and flags of a
/// full box); it shares the buffer it was parsed from, so keeping boxes copies nothing. Container
/// boxes have their `children` parsed; leaf boxes are read by the format-specific parsers.
public struct Box: Sendable {
    /// The box type.
    public let type: FourCC
    /// Offset of the box's first header byte in the file.
    public let fileOffset: UInt64
    /// 8 or 16 (plus 16 for `uuid` boxes' extended type, which stays in the payload).
    public let headerSize: Int
    /// Total size including the header, resolved for to-end boxes.
    public let size: UInt64
    /// How the size was written.
    public let sizeEncoding: BoxSizeEncoding
    /// The payload when it was read; nil for boxes only scanned at the top level (such as `mdat`).
    public var payload: ByteReader?
    /// Parsed children, for container boxes.
    public var children: [Box]

    /// Memberwise initializer.
    public init(
        type: FourCC, fileOffset: UInt64, headerSize: Int, size: UInt64, sizeEncoding: BoxSizeEncoding,
        payload: ByteReader?, children: [Box] = []
    ) {
        self.type = type
        self.fileOffset = fileOffset
        self.headerSize = headerSize
        self.size = size
        self.sizeEncoding = sizeEncoding
        self.payload = payload
        self.children = children
    }

    /// Payload size in bytes.
    public var payloadSize: UInt64 { size - UInt64(headerSize) }
    /// File offset of the first payload byte.
    public var payloadFileOffset: UInt64 { fileOffset + UInt64(headerSize) }

    /// The first child of `type`.
    public func child(_ type: FourCC) -> Box? { children.first { $0.type == type } }

    /// Every child of `type`, in file order.
    public func children(_ type: FourCC) -> [Box] { children.filter { $0.type == type } }

    /// The first descendant reached by following `path` (each element a child type).
    public func descendant(_ path: [FourCC]) -> Box? {
        var current = self
        for type in path {
            guard let next = current.child(type) else { return nil }
            current = next
        }
        return current
    }

    /// The payload reader, or `unsupported` for a box whose bytes were not loaded.
    public func payloadReader() throws(FormatError) -> ByteReader {
        guard var reader = payload else {
            throw .unsupported(context: "\(type)", reason: "box payload was not loaded")
        }
        reader.context = "\(type)"
        return reader
    }
}

/// The version and flags that start a full box's payload.
public struct FullBoxHeader: Sendable, Equatable {
    /// The version byte.
    public let version: UInt8
    /// The 24-bit flags.
    public let flags: UInt32

    /// Reads version and flags from `reader`.
    public init(_ reader: inout ByteReader) throws(FormatError) {
        let word = try reader.u32()
        version = UInt8(word >> 24)
        flags = word & 0xFF_FFFF
    }
}
