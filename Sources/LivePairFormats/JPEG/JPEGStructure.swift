/// What the marker segments of a JPEG file say, read up to the start of scan.
public struct JPEGStructure: Sendable, Equatable {
    /// Whether the file starts with FF D8 FF. When false nothing else is filled in.
    public var isJPEG: Bool = false
    /// The segments from SOI up to and including SOS (or where reading stopped).
    public var segments: [JPEGSegment] = []
    /// Image width from the first SOFn.
    public var width: Int?
    /// Image height from the first SOFn.
    public var height: Int?
    /// The SOFn marker byte (0xC0 baseline, 0xC2 progressive, ...).
    public var frameMarker: UInt8?
    /// The TIFF bytes of the first Exif APP1 segment (after "Exif\0\0").
    public var exifTIFF: [UInt8]?
    /// File offset of the first byte of `exifTIFF`.
    public var exifTIFFFileOffset: UInt64?
    /// The standard XMP packet (APP1 after "http://ns.adobe.com/xap/1.0/\0").
    public var xmp: [UInt8]?
    /// File offset of the first byte of `xmp`.
    public var xmpFileOffset: UInt64?
    /// Extended XMP packets, reassembled by GUID.
    public var extendedXMP: [ExtendedXMP] = []
    /// Whether the SOS marker was reached.
    public var reachedStartOfScan: Bool = false
    /// Anomalies tolerated while reading (skipped garbage, unreadable extended XMP chunks).
    public var warnings: [String] = []

    /// An empty structure (not JPEG).
    public init() {}

    /// File offset of the SOS segment, when reached: the entropy-coded data follows its header.
    public var startOfScanFileOffset: UInt64? { segments.last { $0.marker == 0xDA }?.fileOffset }
}
