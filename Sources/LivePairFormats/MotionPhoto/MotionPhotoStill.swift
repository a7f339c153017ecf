/// A still image read for writing a motion photo or a plain still from it: where its own bytes
/// end (an earlier embedded video, SEF trailer, `mpvd` or `sefd` are not part of it), its XMP
/// packet, and the appended items of its Container directory that belong with the image (an Ultra
/// HDR gain map) and are kept.
struct MotionPhotoStill {
    /// The file.
    let source: any ByteSource
    /// JPEG or HEIF.
    let format: MotionPhotoStillFormat
    /// `Item:Mime` of the primary image.
    let primaryMime: String
    /// The existing XMP packet, if any.
    let xmp: [UInt8]?
    /// The existing directory's primary item (its padding is kept with the kept items).
    let primaryItem: ContainerItem?
    /// Appended items kept after the image (JPEG only: a gain map), in directory order.
    let keptItems: [ContainerItem]
    /// Where the kept content ends: after EOI and the kept items (JPEG), or at the first trailing
    /// `mpvd`/`sefd` box (HEIF). Bytes from here to the end are dropped.
    let keptEnd: UInt64
    /// The JPEG's segments up to SOS.
    private let jpeg: JPEGStructure?
    /// Where the JPEG's primary image ends (after EOI); 0 for HEIF.
    private let imageEnd: UInt64
    /// The HEIF file, read from `heifSource`.
    private let heif: HEIFFile?
    /// The HEIF bytes without the trailing boxes (offsets equal the file's).
    private let heifSource: (any ByteSource)?
    /// The HEIF XMP item written or replaced.
    private let xmpItemID: UInt32?

    /// Reads the still in `source`. Throws `unsupported` when it is neither JPEG nor HEIF, and the
    /// parsers' errors when it is damaged or truncated.
    init(source: any ByteSource, limits: ParseLimits) throws(FormatError) {
        self.source = source
        let head = try source.read(at: 0, count: 12)
        if JPEGSegmentReader.isJPEG(head) {
            let structure = try JPEGSegmentReader(limits: limits).read(source)
            let imageEnd = try JPEGImageEndLocator.endOfImage(in: source, structure: structure)
            let existing = structure.xmp.map { MotionPhotoXMP($0, limits: limits) }
            let kept = Self.keptItems(existing?.containerItems ?? [], trailerLength: source.size - imageEnd)
            format = .jpeg
            primaryMime = "image/jpeg"
            xmp = structure.xmp
            primaryItem = kept.isEmpty ? nil : existing?.containerItems.first
            keptItems = kept
            let padding = UInt64(max(existing?.containerItems.first?.padding ?? 0, 0))
            keptEnd = imageEnd + (kept.isEmpty ? 0 : padding + kept.totalLength)
            jpeg = structure
            self.imageEnd = imageEnd
            heif = nil
            heifSource = nil
            xmpItemID = nil
        } else if head.count >= 8, head[4...7].elementsEqual("ftyp".utf8) {
            let boxes = try TopLevelBoxScanner(limits: limits).scan(source)
            var trailingIndex = boxes.count
            while trailingIndex > 0, HEIFMetaRewriter.trailingBoxTypes.contains(boxes[trailingIndex - 1].type) {
                trailingIndex -= 1
            }
            if boxes[..<trailingIndex].contains(where: { HEIFMetaRewriter.trailingBoxTypes.contains($0.type) }) {
                throw .unsupported(context: source.name, reason: "an mpvd or sefd box is followed by other boxes")
            }
            let end = trailingIndex < boxes.count ? boxes[trailingIndex].fileOffset : source.size
            let imageSource: any ByteSource =
                end < source.size ? SubrangeByteSource(base: source, offset: 0, length: end) : source
            let file = try HEIFFile(source: imageSource, limits: limits)
            guard let primary = file.meta.primaryItemID, file.meta.item(primary) != nil else {
                throw .invalid(context: "meta/pitm", reason: "no primary item")
            }
            // Only the primary's own XMP (a `cdsc` to it) is merged; an XMP item describing another
            // item (an iPhone's gain map) stays as it is and the primary gets its own.
            let item = try file.primaryXMPItemID.map { id throws(FormatError) in try file.itemData(id, from: imageSource) }
            let brands = Set([file.majorBrand] + file.compatibleBrands)
            format = .heif
            primaryMime = brands.contains("heic") || brands.contains("heix") || !brands.contains("avif") ? "image/heic" : "image/avif"
            xmp = item?.bytes
            primaryItem = nil
            keptItems = []
            keptEnd = end
            jpeg = nil
            imageEnd = 0
            heif = file
            heifSource = imageSource
            xmpItemID = item?.itemID
        } else {
            throw .unsupported(context: source.name, reason: "the still is neither JPEG nor HEIF")
        }
    }

    /// The items after the primary that stay with the image: those before the video item when
    /// their lengths (plus the primary's padding) fit the bytes after EOI. Empty otherwise.
    private static func keptItems(_ items: [ContainerItem], trailerLength: UInt64) -> [ContainerItem] {
        guard items.count > 1 else { return [] }
        let end = items.firstIndex(where: \.isMotionPhotoVideo) ?? items.count
        guard end > 1 else { return [] }
        let candidates = Array(items[1..<end])
        guard candidates.allSatisfy({ ($0.length ?? 0) > 0 }) else { return [] }
        return candidates.totalLength + UInt64(max(items[0].padding ?? 0, 0)) <= trailerLength ? candidates : []
    }

    /// The output plan of the still with `packet` as its XMP (nil: no XMP at all), without the
    /// bytes after `keptEnd`.
    func plan(xmp packet: [UInt8]?, limits: ParseLimits) throws(FormatError) -> MotionPhotoOutputPlan {
        var plan = MotionPhotoOutputPlan()
        if let jpeg {
            var segment: [UInt8] = []
            if let packet {
                segment = try JPEGSegment.application1(
                    signature: JPEGSegmentReader.xmpSignature, payload: packet, context: "XMP APP1")
            }
            let replaced = Self.xmpSegmentRange(jpeg)
            var parts: (before: [JPEGMultiPictureIndex.Part], after: [JPEGMultiPictureIndex.Part]) = (
                [.copy(0..<replaced.lowerBound)], [.copy(replaced.upperBound..<keptEnd)]
            )
            // An MPF index (an Ultra HDR gain map) gets the primary's new length and the images' new offsets.
            if let index = JPEGMultiPictureIndex.read(jpeg, from: source) {
                parts = index.parts(replacing: replaced, newLength: segment.count, end: keptEnd, imageEnd: imageEnd)
            }
            plan.append(parts.before, from: source)
            plan.append(segment)
            plan.append(parts.after, from: source)
        } else if let heif, let heifSource {
            if packet == xmp {
                // Nothing in meta changes: the image is copied as it is.
                plan.copy(source, 0..<keptEnd)
                return plan
            }
            let rewriter = HEIFMetaRewriter(source: heifSource, file: heif, limits: limits)
            if let packet {
                let item: HEIFMetaRewriter.ItemData
                if let xmpItemID {
                    item = .init(id: xmpItemID, bytes: packet, newItemType: nil, describes: nil)
                } else {
                    let ids = heif.meta.items.map(\.id) + heif.meta.locations.map(\.itemID)
                        + heif.meta.references.flatMap { [$0.fromItemID] + $0.toItemIDs }
                    let maximum = ids.max() ?? 0
                    guard maximum < UInt32.max else {
                        throw .limitExceeded(
                            context: "meta/iinf", limit: "item id", value: UInt64(maximum) + 1, maximum: UInt64(UInt32.max))
                    }
                    item = .init(
                        id: maximum + 1, bytes: packet, newItemType: "mime", describes: heif.meta.primaryItemID,
                        contentType: "application/rdf+xml", firstInItemInfo: true)
                }
                plan.append(try rewriter.plan(removing: [], data: item), source: heifSource)
            } else if let xmpItemID {
                plan.append(try rewriter.plan(removing: [xmpItemID], data: nil), source: heifSource)
            } else {
                plan.copy(source, 0..<keptEnd)
            }
        }
        return plan
    }

    /// The bytes of the standard XMP APP1 segment, or the empty range where one is inserted:
    /// after the Exif APP1, else after a leading JFIF APP0, else after SOI.
    private static func xmpSegmentRange(_ jpeg: JPEGStructure) -> Range<UInt64> {
        if let packetOffset = jpeg.xmpFileOffset,
            let segment = jpeg.segments.first(where: {
                $0.marker == 0xE1 && $0.payloadFileOffset + UInt64(JPEGSegmentReader.xmpSignature.count) == packetOffset
            })
        {
            return segment.fileOffset..<segment.payloadFileOffset + UInt64(segment.payloadLength)
        }
        var insertion: UInt64 = 2
        if let tiffOffset = jpeg.exifTIFFFileOffset,
            let exif = jpeg.segments.first(where: { $0.marker == 0xE1 && $0.payloadFileOffset + 6 == tiffOffset })
        {
            insertion = exif.payloadFileOffset + UInt64(exif.payloadLength)
        } else if jpeg.segments.count > 1, jpeg.segments[1].marker == 0xE0 {
            insertion = jpeg.segments[1].payloadFileOffset + UInt64(jpeg.segments[1].payloadLength)
        }
        return insertion..<insertion
    }
}

extension [ContainerItem] {
    /// The sum of the items' lengths.
    fileprivate var totalLength: UInt64 { reduce(0) { $0 + UInt64(Swift.max($1.length ?? 0, 0)) } }
}
