/// The idat box: item data stored inside `meta` (construction method 1).
public struct HEIFInlineData: Sendable, Equatable {
    /// The `idat` payload.
    public let bytes: [UInt8]
    /// File offset of the payload's first byte.
    public let fileOffset: UInt64

    /// Memberwise initializer.
    public init(bytes: [UInt8], fileOffset: UInt64) {
        self.bytes = bytes
        self.fileOffset = fileOffset
    }
}

/// The parsed HEIF `meta` box: items, their locations, references and properties.
///
/// Parsing is tolerant: a child box that cannot be read is skipped and its error kept in `issues`,
/// so a damaged file still gives what could be read (a partial result).
public struct HEIFMeta: Sendable, Equatable {
    /// The `hdlr` handler type (`pict` for images).
    public let handlerType: FourCC
    /// The `pitm` primary item id, if present and readable.
    public let primaryItemID: UInt32?
    /// The `iinf` items (version 2 and 3 entries), in file order.
    public let items: [HEIFItemInfo]
    /// The `iloc` entries, in file order.
    public let locations: [HEIFItemLocation]
    /// The `iref` references, in file order.
    public let references: [HEIFItemReference]
    /// The `ipco` properties, in file order (index 0 here is property index 1).
    public let properties: [HEIFItemProperty]
    /// The `ipma` associations by item id, in association order.
    public let associations: [UInt32: [HEIFPropertyAssociation]]
    /// The `idat` payload, if any.
    public let inlineData: HEIFInlineData?
    /// Problems met in parts that were skipped.
    public let issues: [FormatError]

    private let itemIndex: [UInt32: Int]
    private let locationIndex: [UInt32: Int]

    /// Parses a whole `meta` box held in `bytes` (header included), which start at `fileOffset`.
    /// Throws when the box is not an ISO `meta` full box with a `pict` handler.
    public init(box bytes: [UInt8], fileOffset: UInt64, limits: ParseLimits = .default) throws(FormatError) {
        var outer = ByteReader(bytes, baseFileOffset: fileOffset, context: "meta")
        let header = try BoxParser.readHeader(&outer)
        guard header.type == "meta" else {
            throw .invalid(context: "meta", reason: "expected a meta box, found \(header.type)")
        }
        try outer.seek(to: header.headerSize)
        var reader = try outer.subReader(count: Int(header.size) - header.headerSize, context: "meta")
        guard !BoxParser.isQuickTimeMeta(reader) else {
            throw .unsupported(context: "meta", reason: "meta box without version and flags (QuickTime form)")
        }
        _ = try FullBoxHeader(&reader)

        var handler: FourCC?
        var primary: UInt32?
        var items: [HEIFItemInfo] = []
        var locations: [HEIFItemLocation] = []
        var references: [HEIFItemReference] = []
        var properties = HEIFItemPropertiesParser.Result()
        var inline: HEIFInlineData?
        var issues: [FormatError] = []
        var childCount = 0

        while reader.remaining >= 8 {
            let start = reader.position
            let child: (type: FourCC, payload: ByteReader)
            do {
                let box = try BoxParser.readHeader(&reader)
                try reader.seek(to: start + box.headerSize)
                child = (box.type, try reader.subReader(count: Int(box.size) - box.headerSize, context: "meta/\(box.type)"))
            } catch {
                issues.append(error)
                break
            }
            childCount += 1
            if childCount > limits.maximumBoxCount {
                throw .limitExceeded(
                    context: "meta", limit: "box count", value: UInt64(childCount),
                    maximum: UInt64(limits.maximumBoxCount))
            }
            do {
                switch child.type {
                case "hdlr":
                    var payload = child.payload
                    try payload.skip(8)  // version/flags, pre_defined
                    handler = try payload.fourCC()
                case "pitm":
                    var payload = child.payload
                    let full = try FullBoxHeader(&payload)
                    primary = full.version == 0 ? UInt32(try payload.u16()) : try payload.u32()
                case "iinf":
                    items = try HEIFItemInfoParser.parse(child.payload, limits: limits)
                case "iloc":
                    locations = try HEIFItemLocationParser.parse(child.payload, limits: limits)
                case "iref":
                    references = try HEIFItemReferenceParser.parse(child.payload, limits: limits)
                case "iprp":
                    properties = try HEIFItemPropertiesParser.parse(child.payload, limits: limits)
                    issues += properties.issues
                case "idat":
                    var payload = child.payload
                    let offset = payload.currentFileOffset
                    inline = HEIFInlineData(bytes: payload.rest(), fileOffset: offset)
                default:
                    break
                }
            } catch {
                if case .limitExceeded = error { throw error }
                issues.append(error)
            }
        }
        guard let handler else { throw .invalid(context: "meta", reason: "no hdlr box") }
        guard handler == "pict" else {
            throw .unsupported(context: "meta/hdlr", reason: "handler \(handler) is not pict")
        }
        self.handlerType = handler
        self.primaryItemID = primary
        self.items = items
        self.locations = locations
        self.references = references
        self.properties = properties.properties
        self.associations = properties.associations
        self.inlineData = inline
        self.issues = issues
        var itemIndex: [UInt32: Int] = [:]
        for (index, item) in items.enumerated() where itemIndex[item.id] == nil { itemIndex[item.id] = index }
        var locationIndex: [UInt32: Int] = [:]
        for (index, location) in locations.enumerated() where locationIndex[location.itemID] == nil {
            locationIndex[location.itemID] = index
        }
        self.itemIndex = itemIndex
        self.locationIndex = locationIndex
    }

    /// The item with `id`.
    public func item(_ id: UInt32) -> HEIFItemInfo? { itemIndex[id].map { items[$0] } }

    /// The location of item `id`.
    public func location(of id: UInt32) -> HEIFItemLocation? { locationIndex[id].map { locations[$0] } }

    /// The properties associated with item `id`, in association order (invalid indices skipped).
    public func properties(of id: UInt32) -> [HEIFItemProperty] {
        guard let list = associations[id] else { return [] }
        return list.compactMap { association in
            let index = association.propertyIndex
            return index >= 1 && index <= properties.count ? properties[index - 1] : nil
        }
    }

    /// The targets of the first reference of `type` from `id`, in order.
    public func references(from id: UInt32, type: FourCC) -> [UInt32] {
        references.first { $0.fromItemID == id && $0.type == type }?.toItemIDs ?? []
    }

    /// The items that refer to `id` with `type` (for example the thumbnails of an image: `thmb`).
    public func items(referringTo id: UInt32, type: FourCC) -> [UInt32] {
        var result: [UInt32] = []
        for reference in references where reference.type == type && reference.toItemIDs.contains(id) {
            if !result.contains(reference.fromItemID) { result.append(reference.fromItemID) }
        }
        return result
    }

    /// A summary of image item `id` from its properties, or nil when there is no such item.
    public func imageItem(_ id: UInt32) -> HEIFImageItem? {
        guard let info = item(id) else { return nil }
        var width: Int?, height: Int?
        var rotation = 0
        var mirror: MirrorAxis?
        var clap: CleanAperture?
        var auxiliaryType: String?
        var hasConfiguration = false
        for property in properties(of: id) {
            switch property {
            case let .imageSpatialExtents(w, h):
                if width == nil {
                    width = Int(w)
                    height = Int(h)
                }
            case let .rotation(degrees): rotation = degrees
            case let .mirror(axis): mirror = axis
            case let .cleanAperture(value): clap = value
            case let .auxiliaryType(urn, _): auxiliaryType = urn
            case .hevcConfiguration: hasConfiguration = true
            default: break
            }
        }
        return HEIFImageItem(
            id: id, type: info.type, width: width, height: height, rotationDegrees: rotation, mirror: mirror,
            cleanAperture: clap, isHidden: info.isHidden, auxiliaryType: auxiliaryType,
            hasHEVCConfiguration: hasConfiguration)
    }
}
