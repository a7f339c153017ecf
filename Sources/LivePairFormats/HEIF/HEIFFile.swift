/// A HEIF/HEIC file as identification needs it: its top-level boxes, brands and parsed `meta`.
///
/// Reading costs one 16-byte read per top-level box plus the `meta` box; `mdat` is never read.
/// Item data (Exif, XMP, tiles) is read later, on request, through the same `ByteSource`.
public struct HEIFFile: Sendable, Equatable {
    /// The top-level boxes in file order (scanning stops at the first damaged header; see `issues`).
    public let topLevelBoxes: [TopLevelBox]
    /// The `ftyp` major brand.
    public let majorBrand: FourCC
    /// The `ftyp` minor version.
    public let minorVersion: UInt32
    /// The `ftyp` compatible brands.
    public let compatibleBrands: [FourCC]
    /// The parsed `meta` box.
    public let meta: HEIFMeta
    /// The limits used for reading and for later item reads.
    public let limits: ParseLimits
    /// Problems met while scanning or parsing; the rest of the file was still read.
    public let issues: [FormatError]

    /// Reads the top-level boxes, `ftyp` and `meta` of `source`.
    ///
    /// Throws `unsupported` when the file does not start with `ftyp`, `invalid` when there is no
    /// `meta`, and the errors of `HEIFMeta` for a `meta` that cannot be read at all.
    public init(source original: any ByteSource, limits: ParseLimits = .default) throws(FormatError) {
        let source: HeadCachedByteSource
        if let cached = original as? HeadCachedByteSource {
            source = cached  // already read ahead (ResourceIdentifier does)
        } else {
            source = try HeadCachedByteSource(original)
        }
        let found = try TopLevelBoxScanner(limits: limits).scanKeepingPrefix(source)
        let scan = (boxes: found.boxes, issues: found.damage.map { [$0] } ?? [])
        guard let ftyp = scan.boxes.first, ftyp.type == "ftyp" else {
            throw .unsupported(context: source.name, reason: "not an ISO-BMFF file (no ftyp box first)")
        }
        guard !ftyp.isTruncated, ftyp.payloadSize >= 8, ftyp.payloadSize <= 4096 else {
            throw .invalid(context: "ftyp", reason: "size \(ftyp.size) is not plausible")
        }
        var reader = try source.reader(at: ftyp.payloadFileOffset, count: Int(ftyp.payloadSize), context: "ftyp")
        majorBrand = try reader.fourCC()
        minorVersion = try reader.u32()
        var brands: [FourCC] = []
        while reader.remaining >= 4 { brands.append(try reader.fourCC()) }
        compatibleBrands = brands

        guard let metaBox = scan.boxes.first(where: { $0.type == "meta" }) else {
            if let failure = scan.issues.first { throw failure }
            throw .invalid(context: source.name, reason: "no meta box")
        }
        if metaBox.isTruncated {
            throw .truncated(
                context: "meta box", needed: metaBox.size,
                available: source.size > metaBox.fileOffset ? source.size - metaBox.fileOffset : 0)
        }
        try limits.checkMetadataSize(metaBox.size, context: "meta box")
        let bytes = try source.readExactly(at: metaBox.fileOffset, count: Int(metaBox.size), context: "meta box")
        meta = try HEIFMeta(box: bytes, fileOffset: metaBox.fileOffset, limits: limits)
        topLevelBoxes = scan.boxes
        self.limits = limits
        issues = scan.issues + meta.issues
    }

    /// The first top-level box of `type`.
    public func topLevelBox(_ type: FourCC) -> TopLevelBox? { topLevelBoxes.first { $0.type == type } }

    /// Samsung's top-level `mpvd` box (motion photo video), if present.
    public var motionPhotoVideoBox: TopLevelBox? { topLevelBox("mpvd") }

    /// Samsung's top-level `sefd` box (SEF data), if present.
    public var samsungExtraDataBox: TopLevelBox? { topLevelBox("sefd") }

    /// The `mdat` boxes.
    public var mediaDataBoxes: [TopLevelBox] { topLevelBoxes.filter { $0.type == "mdat" } }

    /// The primary image item (`pitm`), if it names an item that exists.
    public var primaryItem: HEIFImageItem? { meta.primaryItemID.flatMap { meta.imageItem($0) } }

    /// Image items linked to the primary by `thmb` (smaller HEVC renditions), in file order.
    public var thumbnails: [HEIFImageItem] {
        guard let primary = meta.primaryItemID else { return [] }
        return meta.items(referringTo: primary, type: "thmb").compactMap { meta.imageItem($0) }
    }

    /// Auxiliary image items linked to the primary by `auxl` (gain maps, depth, alpha), with their `auxC` type.
    public var auxiliaryImages: [HEIFImageItem] {
        guard let primary = meta.primaryItemID else { return [] }
        return meta.items(referringTo: primary, type: "auxl").compactMap { meta.imageItem($0) }
    }

    /// The grid layout of item `id`, read from its data (usually in `idat`).
    public func grid(of id: UInt32, from source: any ByteSource) throws(FormatError) -> HEIFImageGrid {
        guard let item = meta.item(id) else {
            throw .invalid(context: "meta/iinf", reason: "no item \(id)")
        }
        guard item.type == "grid" else {
            throw .invalid(context: "item \(id)", reason: "item type \(item.type) is not grid")
        }
        let data = try itemData(id, from: source, maximumBytes: 64)
        return try HEIFImageGrid.parse(data.bytes)
    }
}
