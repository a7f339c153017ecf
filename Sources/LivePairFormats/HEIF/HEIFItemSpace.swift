/// Where an item's data lives in a HEIF file, so that a rewrite reuses or clears its bytes instead
/// of leaving them behind: a new Exif payload that fits is written over the old one (zero-padded,
/// same length, no `iloc` change); a larger one goes to a new `mdat`, and the bytes of a replaced
/// or removed item are zeroed, so an old identifier, GPS position, date or motion-photo XMP never
/// survives unreferenced in the file.
struct HEIFItemSpace {
    /// The input byte ranges of the existing Exif item (file-offset extents only).
    let ranges: [Range<UInt64>]

    /// The space of `itemID` in `file`; nil when its data is not plain file extents that no other
    /// item shares (then it is left as it is).
    init?(itemID: UInt32, file: HEIFFile, sourceSize: UInt64) {
        guard let location = file.meta.locations.first(where: { $0.itemID == itemID }),
            location.constructionMethod == .fileOffset, location.dataReferenceIndex == 0, !location.extents.isEmpty
        else { return nil }
        var ranges: [Range<UInt64>] = []
        for extent in location.extents {
            let (start, overflow) = location.baseOffset.addingReportingOverflow(extent.offset)
            guard !overflow, extent.length > 0, start <= sourceSize, extent.length <= sourceSize - start else { return nil }
            ranges.append(start..<start + extent.length)
        }
        for other in file.meta.locations where other.itemID != itemID && other.constructionMethod == .fileOffset {
            for extent in other.extents {
                let start = other.baseOffset &+ extent.offset
                let end = extent.length == 0 ? sourceSize : start &+ extent.length
                if ranges.contains(where: { $0.overlaps(start..<max(start, end)) }) { return nil }
            }
        }
        self.ranges = ranges
    }

    /// Total bytes of the existing item.
    var capacity: UInt64 { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }

    /// The whole file with `payload` (zero-padded to `capacity`) written over the old item.
    func overwritePlan(payload: [UInt8], sourceSize: UInt64) -> HEIFMetaRewriter.Plan {
        var padded = payload + [UInt8](repeating: 0, count: Int(capacity) - payload.count)
        var pieces: [HEIFMetaRewriter.Piece] = []
        var position: UInt64 = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if range.lowerBound > position { pieces.append(.copy(position..<range.lowerBound)) }
            let count = Int(range.upperBound - range.lowerBound)
            pieces.append(.bytes(Array(padded.prefix(count))))
            padded.removeFirst(count)
            position = range.upperBound
        }
        if position < sourceSize { pieces.append(.copy(position..<sourceSize)) }
        return HEIFMetaRewriter.Plan(
            pieces: pieces, size: sourceSize, metaSizeDelta: 0, newDataOffset: ranges.first?.lowerBound)
    }

    /// `plan` with the old item's bytes (input ranges, wherever the plan copies them) zeroed.
    func blanking(_ plan: HEIFMetaRewriter.Plan) -> HEIFMetaRewriter.Plan {
        var result = plan
        result.pieces = []
        for piece in plan.pieces {
            guard case let .copy(range) = piece else {
                result.pieces.append(piece)
                continue
            }
            var position = range.lowerBound
            for blank in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where blank.overlaps(range) {
                let start = max(blank.lowerBound, range.lowerBound), end = min(blank.upperBound, range.upperBound)
                if start > position { result.pieces.append(.copy(position..<start)) }
                result.pieces.append(.bytes([UInt8](repeating: 0, count: Int(end - start))))
                position = end
            }
            if position < range.upperBound { result.pieces.append(.copy(position..<range.upperBound)) }
        }
        return result
    }
}
