/// Which directory of a TIFF structure an IFD is.
public enum TIFFIFDKind: Sendable, Equatable {
    /// The first IFD (main image).
    case ifd0
    /// The second IFD in the chain (EXIF thumbnail).
    case ifd1
    /// A later IFD in the next-IFD chain, numbered from 2.
    case chained(Int)
    /// The Exif sub-IFD (tag 0x8769).
    case exif
    /// The GPS sub-IFD (tag 0x8825).
    case gps
    /// The interoperability sub-IFD (tag 0xA005).
    case interoperability
    /// A maker note's IFD.
    case makerNote
}

/// One image file directory: its entries in file order and the link to the next IFD.
public struct TIFFIFD: Sendable, Equatable {
    /// Which directory this is.
    public let kind: TIFFIFDKind
    /// Offset of the IFD from the start of the TIFF header (or maker note).
    public let offset: Int
    /// The entries that could be read.
    public let entries: [TIFFEntry]
    /// The next-IFD offset (0 when none).
    public let nextIFDOffset: UInt64
    /// Entries dropped because their type is unknown or their value lies outside the data.
    public let skippedEntryCount: Int

    /// Memberwise initializer.
    public init(kind: TIFFIFDKind, offset: Int, entries: [TIFFEntry], nextIFDOffset: UInt64, skippedEntryCount: Int) {
        self.kind = kind
        self.offset = offset
        self.entries = entries
        self.nextIFDOffset = nextIFDOffset
        self.skippedEntryCount = skippedEntryCount
    }

    /// The first entry with `tag`.
    public func entry(_ tag: UInt16) -> TIFFEntry? { entries.first { $0.tag == tag } }
}
