/// Apple's maker note (EXIF tag 0x927C on iPhone stills): "Apple iOS\0", u16 version, "MM" or "II",
/// u16 entry count, then TIFF IFD entries whose value offsets are relative to the start of
/// "Apple iOS". Type 16 (LONG8) entries are accepted.
public struct AppleMakerNote: Sendable, Equatable {
    /// The ten signature bytes "Apple iOS\0".
    public static let signature: [UInt8] = Array("Apple iOS".utf8) + [0]
    /// Tag of the Live Photo content identifier.
    public static let contentIdentifierTag: UInt16 = 0x0011
    /// Tag of LivePhotoVideoIndex (present on many non-Live stills too).
    public static let livePhotoVideoIndexTag: UInt16 = 0x0017

    /// The version field (1 in every known file).
    public let version: UInt16
    /// Whether the entries are little-endian.
    public let littleEndian: Bool
    /// The entries that could be read, in file order.
    public let entries: [TIFFEntry]

    /// Memberwise initializer.
    public init(version: UInt16, littleEndian: Bool, entries: [TIFFEntry]) {
        self.version = version
        self.littleEndian = littleEndian
        self.entries = entries
    }

    /// Parses `bytes` (the MakerNote value). Returns nil when the header is not Apple's; throws when
    /// an Apple header is followed by a damaged entry table.
    public static func parse(_ bytes: [UInt8], limits: ParseLimits = .default) throws(FormatError) -> AppleMakerNote? {
        guard bytes.count >= 16, bytes[0..<10].elementsEqual(signature) else { return nil }
        let littleEndian: Bool
        switch (bytes[12], bytes[13]) {
        case (0x4D, 0x4D): littleEndian = false
        case (0x49, 0x49): littleEndian = true
        default: return nil
        }
        try limits.checkMetadataSize(UInt64(bytes.count), context: "Apple maker note")
        let version = UInt16(bytes[10]) << 8 | UInt16(bytes[11])
        let parser = TIFFIFDParser(bytes: bytes, littleEndian: littleEndian, limits: limits)
        let ifd = try parser.readIFD(at: 14, kind: .makerNote, context: "Apple maker note")
        return AppleMakerNote(version: version, littleEndian: littleEndian, entries: ifd.entries)
    }

    /// The tags present, in file order.
    public var tags: [UInt16] { entries.map(\.tag) }

    /// The first entry with `tag`.
    public func entry(_ tag: UInt16) -> TIFFEntry? { entries.first { $0.tag == tag } }

    /// The Live Photo content identifier (tag 0x11), an uppercase UUID; nil when absent or empty.
    public var contentIdentifier: String? {
        guard let text = entry(Self.contentIdentifierTag)?.string, !text.isEmpty else { return nil }
        return text
    }

    /// LivePhotoVideoIndex (tag 0x17). Its presence does not make a still a Live Photo.
    public var livePhotoVideoIndex: UInt64? { entry(Self.livePhotoVideoIndexTag)?.unsignedInteger }
}
