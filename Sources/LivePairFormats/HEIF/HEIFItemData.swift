/// The bytes of one item, read through `iloc`, with a map back to file offsets.
public struct HEIFItemData: Sendable, Equatable {
    /// One extent's place in `bytes` and in the file.
    public struct Segment: Sendable, Equatable {
        /// Index of the extent's first byte in `bytes`.
        public let dataOffset: Int
        /// File offset of the extent's first byte.
        public let fileOffset: UInt64
        /// Length in bytes.
        public let length: Int

        /// Memberwise initializer.
        public init(dataOffset: Int, fileOffset: UInt64, length: Int) {
            self.dataOffset = dataOffset
            self.fileOffset = fileOffset
            self.length = length
        }
    }

    /// The item id.
    public let itemID: UInt32
    /// The item's data: its extents concatenated.
    public let bytes: [UInt8]
    /// Where each extent came from.
    public let segments: [Segment]

    /// Memberwise initializer.
    public init(itemID: UInt32, bytes: [UInt8], segments: [Segment]) {
        self.itemID = itemID
        self.bytes = bytes
        self.segments = segments
    }

    /// The file offset of `bytes[index]`, or nil when `index` is outside the data.
    public func fileOffset(ofDataIndex index: Int) -> UInt64? {
        for segment in segments where index >= segment.dataOffset && index - segment.dataOffset < segment.length {
            return segment.fileOffset + UInt64(index - segment.dataOffset)
        }
        return nil
    }
}

/// The TIFF bytes of a HEIF Exif item, ready for a TIFF/EXIF parser.
public struct HEIFExifPayload: Sendable, Equatable {
    /// The Exif item id.
    public let itemID: UInt32
    /// The TIFF structure, from its byte-order mark (`MM\0*` or `II*\0`) to the item's end.
    public let tiff: [UInt8]
    /// File offset of the first TIFF byte.
    public let fileOffset: UInt64

    /// Memberwise initializer.
    public init(itemID: UInt32, tiff: [UInt8], fileOffset: UInt64) {
        self.itemID = itemID
        self.tiff = tiff
        self.fileOffset = fileOffset
    }
}

extension HEIFFile {
    /// Reads the data of item `id`: only its `iloc` extents. File extents (construction method 0)
    /// are read from `source`, `idat` extents (method 1) from `meta`. Method 2 (item offsets) and
    /// external data references are `unsupported`; extents past the end of the file are `truncated`;
    /// data larger than `maximumBytes` (default: the metadata limit) is `limitExceeded`.
    public func itemData(_ id: UInt32, from source: any ByteSource, maximumBytes: Int? = nil) throws(FormatError)
        -> HEIFItemData
    {
        let context = "item \(id) data"
        guard let location = meta.location(of: id) else {
            throw .invalid(context: "meta/iloc", reason: "no location for item \(id)")
        }
        guard location.dataReferenceIndex == 0 else {
            throw .unsupported(context: context, reason: "data in an external file (data reference \(location.dataReferenceIndex))")
        }
        let limit = UInt64(max(0, maximumBytes ?? limits.maximumMetadataBytes))
        let available: UInt64
        let inline: HEIFInlineData?
        switch location.constructionMethod {
        case .fileOffset:
            available = source.size
            inline = nil
        case .idatOffset:
            guard let idat = meta.inlineData else {
                throw .invalid(context: context, reason: "construction method 1 but no idat box")
            }
            available = UInt64(idat.bytes.count)
            inline = idat
        case .itemOffset:
            throw .unsupported(context: context, reason: "construction method 2 (item offsets)")
        case .other(let value):
            throw .invalid(context: context, reason: "construction method \(value)")
        }
        var ranges: [(start: UInt64, length: UInt64)] = []
        ranges.reserveCapacity(location.extents.count)
        var total: UInt64 = 0
        for extent in location.extents {
            let (start, overflow) = location.baseOffset.addingReportingOverflow(extent.offset)
            guard !overflow, start <= available else {
                throw .truncated(context: context, needed: extent.length, available: 0)
            }
            let length = extent.length == 0 && location.extents.count == 1 ? available - start : extent.length
            guard length <= available - start else {
                throw .truncated(context: context, needed: length, available: available - start)
            }
            guard length <= limit, total <= limit - length else {
                throw .limitExceeded(context: context, limit: "item size", value: total &+ length, maximum: limit)
            }
            total += length
            ranges.append((start, length))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(total))
        var segments: [HEIFItemData.Segment] = []
        for range in ranges {
            let dataOffset = bytes.count
            if let inline {
                let start = Int(range.start)
                bytes += inline.bytes[start..<start + Int(range.length)]
                segments.append(.init(dataOffset: dataOffset, fileOffset: inline.fileOffset + range.start, length: Int(range.length)))
            } else {
                bytes += try source.readExactly(at: range.start, count: Int(range.length), context: context)
                segments.append(.init(dataOffset: dataOffset, fileOffset: range.start, length: Int(range.length)))
            }
        }
        return HEIFItemData(itemID: id, bytes: bytes, segments: segments)
    }

    /// The ids of the `Exif` items; the one describing the primary (`cdsc`) comes first.
    public var exifItemIDs: [UInt32] {
        let all = meta.items.filter { $0.type == "Exif" }.map(\.id)
        guard let primary = meta.primaryItemID else { return all }
        let linked = all.filter { meta.references(from: $0, type: "cdsc").contains(primary) }
        return linked + all.filter { !linked.contains($0) }
    }

    /// The ids of the XMP items (`mime`, `application/rdf+xml`); those describing the primary come first.
    public var xmpItemIDs: [UInt32] {
        let all = meta.items.filter(\.isXMP).map(\.id)
        guard let primary = meta.primaryItemID else { return all }
        let linked = all.filter { meta.references(from: $0, type: "cdsc").contains(primary) }
        return linked + all.filter { !linked.contains($0) }
    }

    /// The XMP item that describes the primary item (`cdsc` to it), if any.
    public var primaryXMPItemID: UInt32? {
        guard let primary = meta.primaryItemID else { return nil }
        return meta.items.filter(\.isXMP).map(\.id).first { meta.references(from: $0, type: "cdsc").contains(primary) }
    }

    /// Reads the primary's Exif item (or the first Exif item) and returns its TIFF bytes, or nil
    /// when the file has no Exif item. Reads only that item's extents.
    public func exif(from source: any ByteSource) throws(FormatError) -> HEIFExifPayload? {
        guard let id = exifItemIDs.first else { return nil }
        let data = try itemData(id, from: source)
        var reader = ByteReader(data.bytes, context: "Exif item \(id)")
        let headerOffset = UInt64(try reader.u32())
        guard headerOffset <= UInt64(reader.remaining) else {
            throw .invalid(context: "Exif item \(id)", reason: "TIFF header offset \(headerOffset) is past the item's end")
        }
        var start = 4 + Int(headerOffset)
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        if data.bytes.count - start >= 6, Array(data.bytes[start..<start + 6]) == exifHeader {
            start += 6  // writers that point at "Exif\0\0" rather than past it
        }
        guard data.bytes.count - start >= 8 else {
            throw .truncated(context: "Exif item \(id)", needed: 8, available: UInt64(data.bytes.count - start))
        }
        let tiff = Array(data.bytes[start...])
        guard let offset = data.fileOffset(ofDataIndex: start) else {
            throw .invalid(context: "Exif item \(id)", reason: "TIFF header outside the item's extents")
        }
        return HEIFExifPayload(itemID: id, tiff: tiff, fileOffset: offset)
    }

    /// Reads the first XMP item (the primary-linked one when there is one), or nil without XMP:
    /// what `xmp(from:).first` returns, without reading the other items.
    public func firstXMP(from source: any ByteSource) throws(FormatError) -> HEIFItemData? {
        guard let id = xmpItemIDs.first else { return nil }
        return try itemData(id, from: source)
    }

    /// Reads every XMP item (primary-linked first); each result's `bytes` is the XMP packet.
    public func xmp(from source: any ByteSource) throws(FormatError) -> [HEIFItemData] {
        var result: [HEIFItemData] = []
        for id in xmpItemIDs { result.append(try itemData(id, from: source)) }
        return result
    }
}
