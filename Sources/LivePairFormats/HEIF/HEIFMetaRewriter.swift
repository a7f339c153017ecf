/// Plans a HEIF file with an edited `meta` box: items can be removed, one item's data can be
/// replaced (or a new item added) with bytes stored in a new top-level `mdat`, and every
/// file-based (`iloc` construction method 0) extent is moved to where its bytes land in the output.
///
/// The output is the input's top-level boxes in order, `meta` re-serialised, and the new `mdat`
/// inserted at the end of the file, or before Samsung's trailing `mpvd`/`sefd` boxes (which must
/// stay last: their readers count from the end of the file). Every other byte is copied, so no
/// kept item's data changes; only the offsets in `iloc` do. The old bytes of a removed or replaced
/// item are not left behind: an `mdat` holding nothing else (one an earlier rewrite added) is
/// dropped, so rewriting again does not grow the file; elsewhere they are zeroed.
struct HEIFMetaRewriter {
    /// The data of one item to (re)write.
    struct ItemData {
        /// The item id (existing, or new when `newItemType` is set).
        var id: UInt32
        /// The item's new data.
        var bytes: [UInt8]
        /// For a new item: its type (an `infe` is added) and the item it describes (`cdsc`).
        var newItemType: FourCC?
        /// For a new item: the item it describes with a `cdsc` reference.
        var describes: UInt32?
        /// For a new `mime` item: its content type (`application/rdf+xml` for XMP).
        var contentType: String? = nil
        /// For a new item: its `infe` goes first in `iinf` (readers that take the first XMP item find it).
        var firstInItemInfo = false
    }

    /// One piece of the output: a range of the input or new bytes.
    enum Piece {
        case copy(Range<UInt64>)
        case bytes([UInt8])
    }

    /// The planned output.
    struct Plan {
        var pieces: [Piece]
        var size: UInt64
        /// How much `meta` grew (negative: shrank).
        var metaSizeDelta: Int64
        /// Where the new data starts in the output (nil when there is none).
        var newDataOffset: UInt64?
    }

    /// Top-level boxes that stay at the end of the file.
    static let trailingBoxTypes: Set<FourCC> = ["mpvd", "sefd"]

    let source: any ByteSource
    let file: HEIFFile
    let limits: ParseLimits

    // MARK: Planning

    /// The plan. The old bytes of `removed` items and of the item `data` replaces (those no other
    /// item shares) are dropped with their `mdat` when it holds nothing else, else zeroed.
    func plan(removing removed: Set<UInt32>, data: ItemData?) throws(FormatError) -> Plan {
        var vacated = removed
        if let data, data.newItemType == nil, file.meta.locations.contains(where: { $0.itemID == data.id }) {
            vacated.insert(data.id)
        }
        let spaces = vacated.sorted().compactMap { HEIFItemSpace(itemID: $0, file: file, sourceSize: source.size) }
        var plan = try keptBytesPlan(removing: removed, data: data, dropping: Self.vacatedDataBoxes(file.topLevelBoxes, spaces))
        for space in spaces { plan = space.blanking(plan) }
        return plan
    }

    /// The indices of the top-level `mdat` boxes whose whole payload is the data of `spaces`.
    static func vacatedDataBoxes(_ boxes: [TopLevelBox], _ spaces: [HEIFItemSpace]) -> Set<Int> {
        let ranges = spaces.flatMap(\.ranges).sorted { $0.lowerBound < $1.lowerBound }
        var dropped: Set<Int> = []
        for (index, box) in boxes.enumerated()
        where box.type == "mdat" && box.sizeEncoding != .toEnd && !box.isTruncated && box.payloadSize > 0 {
            let payload = box.payloadFileOffset..<box.fileOffset + box.size
            var covered = payload.lowerBound
            for range in ranges where range.lowerBound == covered && range.upperBound <= payload.upperBound {
                covered = range.upperBound
            }
            if covered == payload.upperBound { dropped.insert(index) }
        }
        return dropped
    }

    private func keptBytesPlan(
        removing removed: Set<UInt32>, data: ItemData?, dropping dropped: Set<Int>
    ) throws(FormatError) -> Plan {
        let boxes = file.topLevelBoxes
        guard let last = boxes.last, last.fileOffset + last.size == source.size else {
            throw .unsupported(context: source.name, reason: "the top-level boxes do not cover the whole file")
        }
        if boxes.contains(where: \.isTruncated) {
            throw .unsupported(context: source.name, reason: "a top-level box is truncated")
        }
        if boxes.contains(where: { $0.type == "moov" || $0.type == "moof" }) {
            throw .unsupported(context: source.name, reason: "image sequences (moov) hold their own file offsets")
        }
        if data != nil, last.sizeEncoding == .toEnd, last.size > UInt64(UInt32.max) {
            throw .unsupported(context: source.name, reason: "a size-0 box larger than 4 GiB would need a larger header")
        }
        guard let metaIndex = boxes.firstIndex(where: { $0.type == "meta" }) else {
            throw .invalid(context: source.name, reason: "no meta box")
        }
        let metaBox = boxes[metaIndex]
        if let problem = file.meta.issues.first {
            // A part of meta that could not be read would be lost (or wrongly rewritten).
            throw .unsupported(context: "meta", reason: "meta is partly unreadable: \(problem)")
        }
        if boxes.filter({ $0.type == "meta" }).count > 1 {
            throw .unsupported(context: source.name, reason: "more than one top-level meta box")
        }
        let metaBytes = try source.readExactly(at: metaBox.fileOffset, count: Int(metaBox.size), context: "meta box")
        var children = try Self.splitBoxes(metaBytes, from: metaBox.headerSize + 4)
        let metaPrefix = Array(metaBytes[metaBox.headerSize..<metaBox.headerSize + 4])

        // iinf and iref (their sizes do not depend on offsets).
        guard let iinfIndex = children.firstIndex(where: { $0.type == "iinf" }),
            children.contains(where: { $0.type == "iloc" })
        else { throw .invalid(context: "meta", reason: "no iinf or iloc box") }
        if let data, let type = data.newItemType {
            children[iinfIndex].bytes = try Self.editedItemInfo(
                children[iinfIndex].bytes, removing: removed, adding: (data.id, type, data.contentType),
                first: data.firstInItemInfo)
        } else if !removed.isEmpty {
            children[iinfIndex].bytes = try Self.editedItemInfo(children[iinfIndex].bytes, removing: removed, adding: nil)
        }
        var references = file.meta.references
        var referencesChanged = false
        if !removed.isEmpty {
            references = references.compactMap { reference in
                guard !removed.contains(reference.fromItemID) else { return nil }
                let targets = reference.toItemIDs.filter { !removed.contains($0) }
                return targets.isEmpty ? nil : HEIFItemReference(type: reference.type, fromItemID: reference.fromItemID, toItemIDs: targets)
            }
            referencesChanged = references != file.meta.references
        }
        if let data, data.newItemType != nil, let target = data.describes {
            references.append(HEIFItemReference(type: "cdsc", fromItemID: data.id, toItemIDs: [target]))
            referencesChanged = true
        }
        if referencesChanged {
            let irefBytes = Self.itemReferenceBox(references)
            if let index = children.firstIndex(where: { $0.type == "iref" }) {
                children[index].bytes = irefBytes
            } else {
                children.insert(RawBox(type: "iref", bytes: irefBytes), at: iinfIndex + 1)
            }
        }

        // iloc: its header and entries; sizes widen until every value fits.
        let ilocAt = children.firstIndex(where: { $0.type == "iloc" }) ?? 0
        var header = try ItemLocationHeader(children[ilocAt].bytes)
        let originalEntries = file.meta.locations.filter { !removed.contains($0.itemID) }
        if let data, data.id > 0xFFFF || originalEntries.contains(where: { $0.itemID > 0xFFFF }) {
            header.version = 2
        }
        let insertIndex = boxes.firstIndex { Self.trailingBoxTypes.contains($0.type) && $0.fileOffset > metaBox.fileOffset } ?? boxes.count
        var guessedMetaSize = metaBox.size
        for _ in 0..<8 {
            let layout = Layout(
                boxes: boxes, metaIndex: metaIndex, newMetaSize: guessedMetaSize, insertIndex: insertIndex,
                newDataSize: data.map { UInt64($0.bytes.count + 8) } ?? 0, dropped: dropped)
            let entries = try relocated(originalEntries, layout: layout, data: data)
            let needed = header.fieldSizes(for: entries)
            var trial = children
            trial[ilocAt].bytes = Self.itemLocationBox(header: needed, entries: entries)
            let newMeta = Self.metaBox(prefix: metaPrefix, children: trial, large: metaBox.sizeEncoding == .large)
            if needed == header && UInt64(newMeta.count) == guessedMetaSize {
                return layout.plan(newMeta: newMeta, newData: data?.bytes, oldMetaSize: metaBox.size)
            }
            header = needed
            guessedMetaSize = UInt64(newMeta.count)
        }
        throw .invalid(context: "meta/iloc", reason: "field sizes did not settle")
    }

    /// The new locations: file extents moved with the bytes they point at, the written item at the new data.
    private func relocated(
        _ entries: [HEIFItemLocation], layout: Layout, data: ItemData?
    ) throws(FormatError) -> [HEIFItemLocation] {
        var result: [HEIFItemLocation] = []
        result.reserveCapacity(entries.count + 1)
        let newData = data.map { HEIFItemLocation(
            itemID: $0.id, constructionMethod: .fileOffset, dataReferenceIndex: 0, baseOffset: 0,
            extents: [HEIFExtent(index: 0, offset: layout.newDataOffset + 8, length: UInt64($0.bytes.count))]) }
        for entry in entries {
            if let newData, entry.itemID == newData.itemID {
                result.append(newData)
                continue
            }
            guard entry.constructionMethod == .fileOffset, entry.dataReferenceIndex == 0 else {
                result.append(entry)
                continue
            }
            let newBase = entry.baseOffset == 0 ? 0 : try layout.map(entry.baseOffset, context: "item \(entry.itemID) base offset")
            var extents: [HEIFExtent] = []
            for extent in entry.extents {
                let start = entry.baseOffset + extent.offset
                var length = extent.length
                if length == 0 {
                    guard entry.extents.count == 1, start <= source.size else {
                        throw .unsupported(context: "item \(entry.itemID)", reason: "zero-length extent among several")
                    }
                    length = source.size - start
                }
                let newStart = try layout.map(start, context: "item \(entry.itemID) data")
                if length > 0 {
                    let newLast = try layout.map(start + length - 1, context: "item \(entry.itemID) data")
                    guard newLast - newStart == length - 1 else {
                        throw .unsupported(context: "item \(entry.itemID)", reason: "an extent spans a moved box boundary")
                    }
                }
                guard newStart >= newBase else {
                    throw .unsupported(context: "item \(entry.itemID)", reason: "extent before its base offset")
                }
                extents.append(HEIFExtent(index: extent.index, offset: newStart - newBase, length: length))
            }
            result.append(HEIFItemLocation(
                itemID: entry.itemID, constructionMethod: .fileOffset, dataReferenceIndex: 0, baseOffset: newBase,
                extents: extents))
        }
        if let newData, !result.contains(where: { $0.itemID == newData.itemID }) { result.append(newData) }
        return result
    }

    // MARK: Layout

    /// Where each top-level box goes in the output.
    struct Layout {
        /// Each input box with its output offset.
        var placed: [(box: TopLevelBox, newOffset: UInt64)] = []
        let boxes: [TopLevelBox]
        let metaIndex: Int
        let newMetaSize: UInt64
        let insertIndex: Int
        let newDataSize: UInt64
        /// Indices of boxes left out (an `mdat` that held only vacated item data).
        let dropped: Set<Int>
        var newDataOffset: UInt64 = 0
        var total: UInt64 = 0

        init(
            boxes: [TopLevelBox], metaIndex: Int, newMetaSize: UInt64, insertIndex: Int, newDataSize: UInt64,
            dropped: Set<Int> = []
        ) {
            self.boxes = boxes
            self.metaIndex = metaIndex
            self.newMetaSize = newMetaSize
            self.insertIndex = insertIndex
            self.newDataSize = newDataSize
            self.dropped = dropped
            var offset = boxes.first?.fileOffset ?? 0
            for (index, box) in boxes.enumerated() {
                if index == insertIndex {
                    newDataOffset = offset
                    offset += newDataSize
                }
                placed.append((box, offset))
                if dropped.contains(index) { continue }
                offset += index == metaIndex ? newMetaSize : box.size
            }
            if insertIndex == boxes.count {
                newDataOffset = offset
                offset += newDataSize
            }
            total = offset
        }

        /// The output offset of input byte `offset` (which must lie in a copied box, not in `meta`).
        func map(_ offset: UInt64, context: String) throws(FormatError) -> UInt64 {
            if let first = boxes.first, offset < first.fileOffset { return offset }
            for (index, entry) in placed.enumerated() where offset >= entry.box.fileOffset && offset < entry.box.fileOffset + entry.box.size {
                guard index != metaIndex else {
                    throw .unsupported(context: context, reason: "file offset \(offset) points inside meta")
                }
                guard !dropped.contains(index) else {
                    throw .unsupported(context: context, reason: "file offset \(offset) points inside a dropped mdat")
                }
                return entry.newOffset + (offset - entry.box.fileOffset)
            }
            if let last = placed.last, offset == last.box.fileOffset + last.box.size {
                return last.newOffset + (dropped.contains(placed.count - 1) ? 0 : last.box.size)
            }
            throw .invalid(context: context, reason: "file offset \(offset) is past the end of the file")
        }

        /// The output pieces.
        func plan(newMeta: [UInt8], newData: [UInt8]?, oldMetaSize: UInt64) -> Plan {
            var pieces: [Piece] = []
            if let first = boxes.first, first.fileOffset > 0 { pieces.append(.copy(0..<first.fileOffset)) }
            let outputCount = boxes.count - dropped.count + (newData == nil ? 0 : 1)
            var written = 0
            func emitData() {
                guard let newData else { return }
                var writer = ByteWriter(capacity: 8)
                writer.u32(UInt32(newData.count + 8))
                writer.fourCC("mdat")
                pieces.append(.bytes(writer.bytes))
                pieces.append(.bytes(newData))
                written += 1
            }
            for (index, box) in boxes.enumerated() {
                if index == insertIndex { emitData() }
                if dropped.contains(index) { continue }
                written += 1
                if index == metaIndex {
                    pieces.append(.bytes(newMeta))
                } else if box.sizeEncoding == .toEnd && written < outputCount {
                    // A size-0 box that is no longer last gets its size written out.
                    var writer = ByteWriter(capacity: 8)
                    writer.u32(UInt32(box.size))
                    writer.fourCC(box.type)
                    pieces.append(.bytes(writer.bytes))
                    pieces.append(.copy(box.fileOffset + 8..<box.fileOffset + box.size))
                } else {
                    pieces.append(.copy(box.fileOffset..<box.fileOffset + box.size))
                }
            }
            if insertIndex == boxes.count { emitData() }
            return Plan(
                pieces: pieces, size: total, metaSizeDelta: Int64(newMetaSize) - Int64(oldMetaSize),
                newDataOffset: newData == nil ? nil : newDataOffset + 8)
        }
    }

    // MARK: Raw boxes

    /// A child box kept as bytes (header included).
    struct RawBox {
        var type: FourCC
        var bytes: [UInt8]
    }

    /// Splits `bytes[start...]` into whole boxes.
    static func splitBoxes(_ bytes: [UInt8], from start: Int) throws(FormatError) -> [RawBox] {
        var reader = ByteReader(bytes, context: "meta")
        try reader.seek(to: start)
        var boxes: [RawBox] = []
        while reader.remaining > 0 {
            let begin = reader.position
            guard reader.remaining >= 8 else {
                throw .unsupported(context: "meta", reason: "\(reader.remaining) bytes after the last box")
            }
            let header = try BoxParser.readHeader(&reader)
            if header.encoding == .toEnd {
                throw .unsupported(context: "meta/\(header.type)", reason: "a size-0 box inside meta")
            }
            boxes.append(RawBox(type: header.type, bytes: Array(bytes[begin..<begin + Int(header.size)])))
            try reader.seek(to: begin + Int(header.size))
        }
        return boxes
    }

    /// A `meta` box of `prefix` (version and flags) and `children`.
    static func metaBox(prefix: [UInt8], children: [RawBox], large: Bool) -> [UInt8] {
        let payload = prefix.count + children.reduce(0) { $0 + $1.bytes.count }
        var writer = ByteWriter(capacity: payload + 16)
        if large || payload + 8 > Int(UInt32.max) {
            writer.u32(1)
            writer.fourCC("meta")
            writer.u64(UInt64(payload + 16))
        } else {
            writer.u32(UInt32(payload + 8))
            writer.fourCC("meta")
        }
        writer.append(prefix)
        for child in children { writer.append(child.bytes) }
        return writer.bytes
    }

    /// A compact box of `type` with `payload`.
    static func leafBox(_ type: FourCC, _ payload: [UInt8]) -> [UInt8] {
        BoxNode.leaf(type, payload).serialized()
    }

    /// `iinf` without the entries of `removed`, plus a new `infe` for `adding` (a `mime` item gets
    /// its content type), last or, with `first`, first.
    static func editedItemInfo(
        _ box: [UInt8], removing removed: Set<UInt32>, adding: (id: UInt32, type: FourCC, contentType: String?)?,
        first: Bool = false
    ) throws(FormatError) -> [UInt8] {
        var reader = ByteReader(box, context: "meta/iinf")
        _ = try BoxParser.readHeader(&reader)
        let full = try FullBoxHeader(&reader)
        _ = full.version == 0 ? UInt32(try reader.u16()) : try reader.u32()
        var entries = try splitBoxes(box, from: reader.position)
        entries.removeAll { entry in
            guard entry.type == "infe", entry.bytes.count >= 16 else { return false }
            var entryReader = ByteReader(entry.bytes)
            guard (try? entryReader.skip(8)) != nil, let version = try? entryReader.u8(), (try? entryReader.skip(3)) != nil,
                version >= 2
            else { return false }
            let id = version == 2 ? (try? entryReader.u16()).map(UInt32.init) : try? entryReader.u32()
            return id.map(removed.contains) ?? false
        }
        if let adding {
            var payload = ByteWriter()
            if adding.id > 0xFFFF { payload.u32(adding.id) } else { payload.u16(UInt16(adding.id)) }
            payload.u16(0)
            payload.fourCC(adding.type)
            payload.u8(0)
            if adding.type == "mime" {
                payload.append((adding.contentType ?? "").utf8)
                payload.u8(0)
            }
            let infe = BoxNode.fullBox("infe", version: adding.id > 0xFFFF ? 3 : 2, flags: 0, payload.bytes)
            entries.insert(RawBox(type: "infe", bytes: infe.serialized()), at: first ? 0 : entries.count)
        }
        let version: UInt8 = full.version == 0 && entries.count <= 0xFFFF ? 0 : 1
        var writer = ByteWriter()
        writer.fullBoxHeader(version: version, flags: full.flags)
        if version == 0 { writer.u16(UInt16(entries.count)) } else { writer.u32(UInt32(entries.count)) }
        for entry in entries { writer.append(entry.bytes) }
        return leafBox("iinf", writer.bytes)
    }

    /// An `iref` box holding `references` (version 1 when an id does not fit 16 bits).
    static func itemReferenceBox(_ references: [HEIFItemReference]) -> [UInt8] {
        let wide = references.contains { $0.fromItemID > 0xFFFF || $0.toItemIDs.contains { $0 > 0xFFFF } }
        var writer = ByteWriter()
        writer.fullBoxHeader(version: wide ? 1 : 0, flags: 0)
        for reference in references {
            var entry = ByteWriter()
            func id(_ value: UInt32) { if wide { entry.u32(value) } else { entry.u16(UInt16(value)) } }
            id(reference.fromItemID)
            entry.u16(UInt16(clamping: reference.toItemIDs.count))
            for target in reference.toItemIDs.prefix(0xFFFF) { id(target) }
            writer.append(leafBox(reference.type, entry.bytes))
        }
        return leafBox("iref", writer.bytes)
    }

    /// The `iloc` version, flags and field sizes.
    struct ItemLocationHeader: Equatable {
        var version: UInt8
        var flags: UInt32
        var offsetSize: Int
        var lengthSize: Int
        var baseOffsetSize: Int
        var indexSize: Int

        /// Reads them from a whole `iloc` box.
        init(_ box: [UInt8]) throws(FormatError) {
            var reader = ByteReader(box, context: "meta/iloc")
            _ = try BoxParser.readHeader(&reader)
            let full = try FullBoxHeader(&reader)
            guard full.version <= 2 else {
                throw .unsupported(context: "meta/iloc", reason: "iloc version \(full.version)")
            }
            version = full.version
            flags = full.flags
            let sizes = try reader.u8(), sizes2 = try reader.u8()
            offsetSize = Int(sizes >> 4)
            lengthSize = Int(sizes & 0x0F)
            baseOffsetSize = Int(sizes2 >> 4)
            indexSize = full.version >= 1 ? Int(sizes2 & 0x0F) : 0
        }

        /// These sizes, widened where a value of `entries` does not fit.
        func fieldSizes(for entries: [HEIFItemLocation]) -> ItemLocationHeader {
            func fits(_ value: UInt64, _ size: Int) -> Bool { size >= 8 || value < (UInt64(1) << (8 * UInt64(size))) }
            func widened(_ size: Int, _ value: UInt64) -> Int {
                if fits(value, size) { return size }
                return value <= UInt64(UInt32.max) ? 4 : 8
            }
            var result = self
            for entry in entries {
                result.baseOffsetSize = widened(result.baseOffsetSize, entry.baseOffset)
                for extent in entry.extents {
                    result.offsetSize = widened(result.offsetSize, extent.offset)
                    result.lengthSize = widened(result.lengthSize, extent.length)
                    result.indexSize = widened(result.indexSize, extent.index)
                }
                if entry.constructionMethod != .fileOffset, result.version == 0 { result.version = 1 }
                if entry.itemID > 0xFFFF { result.version = 2 }
            }
            if result.indexSize > 0, result.version == 0 { result.version = 1 }
            return result
        }
    }

    /// An `iloc` box of `entries` with `header`'s version and field sizes.
    static func itemLocationBox(header: ItemLocationHeader, entries: [HEIFItemLocation]) -> [UInt8] {
        var writer = ByteWriter()
        writer.fullBoxHeader(version: header.version, flags: header.flags)
        writer.u8(UInt8(header.offsetSize << 4 | header.lengthSize))
        writer.u8(UInt8(header.baseOffsetSize << 4 | (header.version >= 1 ? header.indexSize : 0)))
        if header.version < 2 { writer.u16(UInt16(clamping: entries.count)) } else { writer.u32(UInt32(entries.count)) }
        func value(_ number: UInt64, _ size: Int) {
            writer.append(ByteWriter.encode(number, byteCount: size))
        }
        for entry in entries {
            if header.version < 2 { writer.u16(UInt16(truncatingIfNeeded: entry.itemID)) } else { writer.u32(entry.itemID) }
            if header.version >= 1 {
                let method: UInt16
                switch entry.constructionMethod {
                case .fileOffset: method = 0
                case .idatOffset: method = 1
                case .itemOffset: method = 2
                case .other(let raw): method = UInt16(raw)
                }
                writer.u16(method)
            }
            writer.u16(entry.dataReferenceIndex)
            value(entry.baseOffset, header.baseOffsetSize)
            writer.u16(UInt16(clamping: entry.extents.count))
            for extent in entry.extents {
                if header.version >= 1 { value(extent.index, header.indexSize) }
                value(extent.offset, header.offsetSize)
                value(extent.length, header.lengthSize)
            }
        }
        return leafBox("iloc", writer.bytes)
    }
}
