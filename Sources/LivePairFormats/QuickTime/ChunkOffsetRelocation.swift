/// Where byte ranges of an input file land in an output file: the map a movie rewriter uses to
/// move sample data and fix every chunk offset that pointed into it.
public struct OffsetMap: Sendable, Equatable {
    /// One moved range: input `source` now starts at `destination` in the output.
    public struct Segment: Sendable, Equatable {
        /// The input range.
        public let source: Range<UInt64>
        /// Where its first byte is in the output.
        public let destination: UInt64

        /// Memberwise initializer.
        public init(source: Range<UInt64>, destination: UInt64) {
            self.source = source
            self.destination = destination
        }
    }

    /// The moved ranges.
    public private(set) var segments: [Segment]
    /// True while every segment starts at or after the end of the one before: `map` then searches
    /// by halves (a movie of thousands of chunks is mapped in thousands of steps, not millions).
    private var isAscending: Bool

    /// A map of `segments` (ranges should not overlap).
    public init(segments: [Segment] = []) {
        self.segments = segments
        isAscending = zip(segments, segments.dropFirst()).allSatisfy { $0.source.upperBound <= $1.source.lowerBound }
    }

    /// A map that moves everything by `delta` bytes (for tests and simple shifts).
    public static func shift(by delta: Int64) -> OffsetMap {
        let start: UInt64 = delta < 0 ? UInt64(-delta) : 0
        let destination: UInt64 = delta < 0 ? 0 : UInt64(delta)
        return OffsetMap(segments: [Segment(source: start..<UInt64.max, destination: destination)])
    }

    /// Adds a moved range.
    public mutating func add(source: Range<UInt64>, destination: UInt64) {
        guard !source.isEmpty else { return }
        if let last = segments.last, last.source.upperBound > source.lowerBound { isAscending = false }
        segments.append(Segment(source: source, destination: destination))
    }

    /// The output offset of input offset `offset`, or nil when it is in no moved range.
    public func map(_ offset: UInt64) -> UInt64? {
        if isAscending {
            var low = 0, high = segments.count
            while low < high {
                let middle = (low + high) / 2
                if segments[middle].source.upperBound <= offset { low = middle + 1 } else { high = middle }
            }
            guard low < segments.count, segments[low].source.contains(offset) else { return nil }
            return segments[low].destination + (offset - segments[low].source.lowerBound)
        }
        for segment in segments where segment.source.contains(offset) {
            return segment.destination + (offset - segment.source.lowerBound)
        }
        return nil
    }

    /// True when every range lands where it was (nothing moves).
    public var isIdentity: Bool { segments.allSatisfy { $0.source.lowerBound == $0.destination } }
}

/// Rewrites the chunk offset tables (`stco`, `co64`) of a movie's tracks when sample data moves.
///
/// `stco` (32-bit offsets) is switched to `co64` when an offset no longer fits 32 bits; `co64`
/// stays `co64`. Offsets that point outside every moved range are an error: the rewrite would
/// make them point at the wrong bytes.
public enum ChunkOffsetRelocation {
    /// The offsets of an `stco` or `co64` box.
    public static func offsets(of box: BoxNode) throws(FormatError) -> [UInt64] {
        var reader = box.payloadReader()
        _ = try FullBoxHeader(&reader)
        let count = try reader.u32()
        let large = box.type == "co64"
        try ParseLimits.default.checkTable(
            UInt64(count), entrySize: large ? 8 : 4, available: reader.remaining, context: "\(box.type)")
        var offsets: [UInt64] = []
        offsets.reserveCapacity(Int(count))
        for _ in 0..<count { offsets.append(large ? try reader.u64() : UInt64(try reader.u32())) }
        return offsets
    }

    /// A chunk offset box holding `offsets`: `stco` when they all fit 32 bits and `preferLarge`
    /// is false, else `co64`.
    public static func chunkOffsetBox(_ offsets: [UInt64], preferLarge: Bool = false) -> BoxNode {
        let large = preferLarge || offsets.contains { $0 > UInt64(UInt32.max) }
        var writer = ByteWriter(capacity: 8 + offsets.count * (large ? 8 : 4))
        writer.fullBoxHeader(version: 0, flags: 0)
        writer.u32(UInt32(offsets.count))
        for offset in offsets {
            if large { writer.u64(offset) } else { writer.u32(UInt32(offset)) }
        }
        return .leaf(large ? "co64" : "stco", writer.bytes)
    }

    /// `box` (an `stco` or `co64`) with every offset passed through `map`. Unchanged when nothing
    /// moves (so an identity map keeps the bytes); `stco` becomes `co64` when needed.
    public static func relocated(
        _ box: BoxNode, _ map: (UInt64) -> UInt64?
    ) throws(FormatError) -> BoxNode {
        let original = try offsets(of: box)
        var moved: [UInt64] = []
        moved.reserveCapacity(original.count)
        for offset in original {
            guard let target = map(offset) else {
                throw .invalid(context: "\(box.type)", reason: "chunk offset \(offset) is not in any data kept in the output")
            }
            moved.append(target)
        }
        if moved == original { return box }
        var result = chunkOffsetBox(moved, preferLarge: box.type == "co64")
        result.sizeEncoding = box.sizeEncoding == .large ? .large : .compact
        return result
    }

    /// Relocates the chunk offsets of every track in `moov` (`trak/mdia/minf/stbl/stco|co64`).
    /// `skipping` names track ids left alone (tracks whose offsets are already final).
    public static func relocateAll(
        in moov: inout BoxNode, map: OffsetMap, skipping: Set<UInt32> = []
    ) throws(FormatError) {
        var tracks = moov.children
        for index in tracks.indices where tracks[index].type == "trak" {
            if !skipping.isEmpty, let id = trackID(of: tracks[index]), skipping.contains(id) { continue }
            try tracks[index].modify(["mdia", "minf", "stbl"]) { (stbl: inout BoxNode) throws(FormatError) in
                var children = stbl.children
                for childIndex in children.indices where children[childIndex].type == "stco" || children[childIndex].type == "co64" {
                    children[childIndex] = try relocated(children[childIndex]) { map.map($0) }
                }
                stbl.children = children
            }
        }
        moov.children = tracks
    }

    /// The track id in a `trak`'s `tkhd`, or nil when it cannot be read.
    public static func trackID(of trak: BoxNode) -> UInt32? {
        guard let tkhd = trak.child("tkhd") else { return nil }
        var reader = tkhd.payloadReader()
        guard let header = try? FullBoxHeader(&reader) else { return nil }
        guard (try? reader.skip(header.version == 1 ? 16 : 8)) != nil else { return nil }
        return try? reader.u32()
    }
}
