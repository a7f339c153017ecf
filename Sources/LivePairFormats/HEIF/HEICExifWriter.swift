/// Writes the Live Photo content identifier into a HEIC still: Apple's maker note (EXIF 0x927C,
/// tag 0x0011) inside the Exif item, creating the maker note, or the whole Exif item, when absent.
/// The input is never modified.
///
/// The new Exif item payload (a 4-byte offset 6, `Exif\0\0`, then the TIFF block) is written over
/// the existing Exif item's bytes when it fits (zero-padded: the file keeps its size and `meta` does
/// not change, so restamping again never grows it). Otherwise it goes into a new top-level `mdat`
/// at the end of the file (before Samsung's trailing `mpvd`/`sefd` boxes, which must stay last),
/// the Exif item's `iloc` entry points at it, and the old item's bytes are zeroed (no old
/// identifier, date or GPS position survives unreferenced). No other item's data changes:
/// when `meta` changes size (a new item, wider `iloc` fields), every file-based extent after it is
/// moved by the difference, and the bytes are streamed unchanged.
///
/// - An existing Exif item (the primary's `cdsc` one first) keeps every tag; its maker note gets
///   the identifier (`JPEGMakerNoteWriter.updatedTIFF`: an Apple note keeps all its entries).
/// - Without Exif, a new `Exif` item (id: the largest id plus one) is added to `iinf` and `iloc`,
///   with a `cdsc` reference to the primary item (`iref` is created when absent).
///
/// Files with `moov` (image sequences), more than one `meta`, or damaged top-level boxes are
/// `unsupported`.
public struct HEICExifWriter: Sendable {
    /// What a write did.
    public struct Result: Sendable, Equatable {
        /// How the TIFF block was produced.
        public let method: JPEGMakerNoteWriter.Method
        /// The Exif item id written.
        public let exifItemID: UInt32
        /// True when the Exif item was created.
        public let createdItem: Bool
        /// How much `meta` grew in bytes (0 when only `iloc` values changed).
        public let metaSizeDelta: Int64
        /// Output file offset of the new Exif item payload.
        public let exifFileOffset: UInt64
        /// Output size in bytes.
        public let outputSize: UInt64
    }

    /// The HEIC read.
    public let source: any ByteSource
    /// Limits for parsing.
    public var limits: ParseLimits
    /// A capture date and place written into the Exif with the identifier (`CaptureStamp`); nil
    /// keeps the still's own.
    public var captureStamp: CaptureStamp?

    /// A writer for the HEIC in `source`.
    public init(source: any ByteSource, limits: ParseLimits = .default) {
        self.source = source
        self.limits = limits
    }

    /// Writes the HEIC with `contentIdentifier` to `path` atomically (temporary file, fsync, rename).
    /// `interpose` wraps the file sink (tests inject failures).
    @discardableResult
    public func write(
        to path: String, contentIdentifier: String, interpose: ((any ByteSink) -> any ByteSink)? = nil
    ) throws(FormatError) -> Result {
        let (plan, result) = try makePlan(contentIdentifier: contentIdentifier)
        try AtomicFileWriter.write(to: path, interpose: interpose) { sink throws(FormatError) in
            try emit(plan, to: sink)
        }
        return result
    }

    /// Writes the HEIC with `contentIdentifier` to `sink`.
    @discardableResult
    public func write(to sink: any ByteSink, contentIdentifier: String) throws(FormatError) -> Result {
        let (plan, result) = try makePlan(contentIdentifier: contentIdentifier)
        try emit(plan, to: sink)
        return result
    }

    /// Writes the HEIC without its Exif items (their `infe`, `iloc` entries and references are
    /// removed; their bytes stay, unreferenced, in `mdat`) to `path` atomically. Returns the
    /// removed item ids.
    @discardableResult
    public func writeRemovingExif(to path: String) throws(FormatError) -> [UInt32] {
        let file = try HEIFFile(source: source, limits: limits)
        let removed = file.exifItemIDs
        let plan = try HEIFMetaRewriter(source: source, file: file, limits: limits)
            .plan(removing: Set(removed), data: nil)
        try AtomicFileWriter.write(to: path) { sink throws(FormatError) in try emit(plan, to: sink) }
        return removed
    }

    /// The Exif item payload for `tiff`: offset 6 to the TIFF header, `Exif\0\0`, the TIFF block.
    public static func exifItemPayload(tiff: [UInt8]) -> [UInt8] {
        [0, 0, 0, 6, 0x45, 0x78, 0x69, 0x66, 0, 0] + tiff
    }

    // MARK: Planning and output

    private func makePlan(contentIdentifier: String) throws(FormatError) -> (HEIFMetaRewriter.Plan, Result) {
        let file = try HEIFFile(source: source, limits: limits)
        guard let primary = file.meta.primaryItemID, file.meta.item(primary) != nil else {
            throw .invalid(context: "meta/pitm", reason: "no primary item")
        }
        let existing = try file.exif(from: source)
        var defaults = JPEGMakerNoteWriter.NewExifDefaults()
        if existing == nil, let image = file.primaryItem {
            defaults = JPEGMakerNoteWriter.NewExifDefaults(width: image.width, height: image.height)
        }
        let (tiff, method) = try JPEGMakerNoteWriter.updatedTIFF(
            existing?.tiff, contentIdentifier: contentIdentifier, defaults: defaults, capture: captureStamp,
            limits: limits)
        let payload = Self.exifItemPayload(tiff: tiff)
        let space = existing.flatMap { HEIFItemSpace(itemID: $0.itemID, file: file, sourceSize: source.size) }
        if let existing, let space, UInt64(payload.count) <= space.capacity {
            let plan = space.overwritePlan(payload: payload, sourceSize: source.size)
            let result = Result(
                method: method, exifItemID: existing.itemID, createdItem: false, metaSizeDelta: 0,
                exifFileOffset: plan.newDataOffset ?? 0, outputSize: plan.size)
            return (plan, result)
        }
        let item: HEIFMetaRewriter.ItemData
        if let existing {
            item = .init(id: existing.itemID, bytes: payload, newItemType: nil, describes: nil)
        } else {
            let ids = file.meta.items.map(\.id) + file.meta.locations.map(\.itemID)
                + file.meta.references.flatMap { [$0.fromItemID] + $0.toItemIDs }
            let maximum = ids.max() ?? 0
            guard maximum < UInt32.max else {
                throw .limitExceeded(context: "meta/iinf", limit: "item id", value: UInt64(maximum) + 1, maximum: UInt64(UInt32.max))
            }
            item = .init(id: maximum + 1, bytes: payload, newItemType: "Exif", describes: primary)
        }
        var plan = try HEIFMetaRewriter(source: source, file: file, limits: limits).plan(removing: [], data: item)
        if let space { plan = space.blanking(plan) }
        let result = Result(
            method: method, exifItemID: item.id, createdItem: existing == nil, metaSizeDelta: plan.metaSizeDelta,
            exifFileOffset: plan.newDataOffset ?? 0, outputSize: plan.size)
        return (plan, result)
    }

    private func emit(_ plan: HEIFMetaRewriter.Plan, to sink: any ByteSink) throws(FormatError) {
        for piece in plan.pieces {
            switch piece {
            case let .copy(range): try sink.copy(from: source, range: range)
            case let .bytes(bytes): try sink.write(bytes)
            }
        }
    }
}
