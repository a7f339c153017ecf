/// The samples of one track that a trimmed movie keeps, and the track's sample tables rewritten
/// to hold only them (`EditListTrim.keepsOnlyNeededSamples`): a video track keeps its samples in
/// decode order from the sync sample at or before the first one presented in the window to the
/// last one presented in it; a sound track the samples overlapping the window. Their bytes are
/// copied as they are; the edit list's media times move back by the decode time of the first
/// sample kept (`mediaTimeShift`), so the window shows the same frames.
struct TrackSampleCompaction: Sendable, Equatable {
    /// One chunk of the rewritten track: where its first sample is in the input, how many samples
    /// it holds, its sample description.
    struct Chunk: Sendable, Equatable {
        let sourceOffset: UInt64
        let byteCount: UInt64
        let sampleCount: UInt32
        let descriptionIndex: UInt32
    }

    /// The track's id.
    let trackID: UInt32
    /// The samples kept, 0-based in decode order.
    let kept: Range<Int>
    /// The decode time of the first sample kept, in media ticks.
    let mediaTimeShift: Int64
    /// The chunks of the kept samples, in the track's order.
    let chunks: [Chunk]
    /// The decode deltas of the kept samples.
    let deltas: [UInt32]
    /// The composition offsets of the kept samples (empty when the track has none).
    let compositionOffsets: [Int32]

    /// The most samples a track may have to be compacted (beyond, it is kept whole).
    static let maximumSamples = 8_000_000

    /// Every chunk of `table` with its samples, or nil when the tables disagree (then nothing is
    /// compacted): `(first sample, count, description index, offset)`.
    static func chunks(of table: SampleTable) -> [(first: Int, count: Int, descriptionIndex: UInt32, offset: UInt64)]? {
        let total = Int(table.sampleCount)
        guard total <= maximumSamples, table.constantSampleSize != 0 || table.sampleSizes.count == total else { return nil }
        var result: [(first: Int, count: Int, descriptionIndex: UInt32, offset: UInt64)] = []
        result.reserveCapacity(table.chunkOffsets.count)
        var sample = 0
        for (runIndex, run) in table.sampleToChunk.enumerated() {
            let nextFirst = runIndex + 1 < table.sampleToChunk.count
                ? Int(table.sampleToChunk[runIndex + 1].firstChunk) : table.chunkOffsets.count + 1
            guard run.firstChunk >= 1, Int(run.firstChunk) <= nextFirst, nextFirst <= table.chunkOffsets.count + 1 else { return nil }
            for chunk in Int(run.firstChunk) - 1..<nextFirst - 1 {
                guard sample <= total - Int(run.samplesPerChunk) else { return nil }
                result.append((sample, Int(run.samplesPerChunk), run.descriptionIndex, table.chunkOffsets[chunk]))
                sample += Int(run.samplesPerChunk)
            }
        }
        return sample == total ? result : nil
    }

    /// The byte ranges every sample of `table` occupies, one per chunk; nil when the tables disagree.
    static func byteRanges(of table: SampleTable) -> [Range<UInt64>]? {
        guard let chunks = chunks(of: table) else { return nil }
        var ranges: [Range<UInt64>] = []
        for chunk in chunks {
            guard let size = bytes(of: table, chunk.first..<chunk.first + chunk.count) else { return nil }
            let (end, overflow) = chunk.offset.addingReportingOverflow(size)
            guard !overflow else { return nil }
            ranges.append(chunk.offset..<end)
        }
        return ranges
    }

    /// The bytes of `samples` of `table`, or nil on overflow.
    private static func bytes(of table: SampleTable, _ samples: Range<Int>) -> UInt64? {
        if table.constantSampleSize != 0 {
            let (total, overflow) = UInt64(table.constantSampleSize).multipliedReportingOverflow(by: UInt64(samples.count))
            return overflow ? nil : total
        }
        return table.sampleSizes[samples].reduce(UInt64(0)) { $0 + UInt64($1) }
    }

    /// The compaction of `track` keeping what presents `needed` (ranges of media time, in media
    /// ticks), or nil when the track is kept whole (its tables disagree, are too large, nothing of
    /// it is presented in the window, or the edits would reach before its first kept sample).
    init?(track: Track, needed: [Range<Int64>]) {
        let table = track.samples
        let total = Int(table.sampleCount)
        guard total > 0, !needed.isEmpty, let allChunks = Self.chunks(of: table) else { return nil }
        var deltas: [UInt32] = []
        deltas.reserveCapacity(total)
        for run in table.timeToSample where deltas.count < total {
            deltas.append(contentsOf: repeatElement(run.delta, count: min(Int(run.count), total - deltas.count)))
        }
        guard deltas.count == total else { return nil }
        var offsets: [Int32] = []
        if !table.compositionOffsets.isEmpty {
            offsets.reserveCapacity(total)
            for run in table.compositionOffsets where offsets.count < total {
                offsets.append(contentsOf: repeatElement(run.offset, count: min(Int(run.count), total - offsets.count)))
            }
            offsets.append(contentsOf: repeatElement(0, count: total - offsets.count))
        }
        var decodeTimes: [Int64] = []
        decodeTimes.reserveCapacity(total)
        var time: Int64 = 0
        for delta in deltas {
            decodeTimes.append(time)
            time &+= Int64(delta)
        }
        var first: Int?, last: Int?
        for index in 0..<total {
            let start = decodeTimes[index] &+ Int64(offsets.isEmpty ? 0 : offsets[index])
            let end = start &+ Int64(max(deltas[index], 1))
            guard needed.contains(where: { $0.lowerBound < end && start < $0.upperBound }) else { continue }
            first = min(first ?? index, index)
            last = max(last ?? index, index)
        }
        guard var first, let last else { return nil }
        if track.handlerType == "vide", let sync = table.syncSamples {
            guard let previous = sync.last(where: { Int($0) >= 1 && Int($0) - 1 <= first }) else { return nil }
            first = Int(previous) - 1
        }
        let kept = first..<last + 1
        let shift = decodeTimes[first]
        guard needed.allSatisfy({ $0.lowerBound >= shift }) else { return nil }
        var chunks: [Chunk] = []
        for chunk in allChunks {
            let (lower, upper) = (max(chunk.first, kept.lowerBound), min(chunk.first + chunk.count, kept.upperBound))
            guard lower < upper else { continue }
            let samples = lower..<upper
            guard let skipped = Self.bytes(of: table, chunk.first..<samples.lowerBound),
                let size = Self.bytes(of: table, samples)
            else { return nil }
            let (offset, overflow) = chunk.offset.addingReportingOverflow(skipped)
            guard !overflow, offset <= UInt64.max - size else { return nil }
            chunks.append(Chunk(sourceOffset: offset, byteCount: size, sampleCount: UInt32(samples.count), descriptionIndex: chunk.descriptionIndex))
        }
        trackID = track.header.trackID
        self.kept = kept
        mediaTimeShift = shift
        self.chunks = chunks
        self.deltas = Array(deltas[kept])
        compositionOffsets = offsets.isEmpty ? [] : Array(offsets[kept])
        guard Self.bytes(of: table, kept) != nil else { return nil }
    }

    /// The byte ranges of the kept samples in the input.
    var byteRanges: [Range<UInt64>] { chunks.map { $0.sourceOffset..<$0.sourceOffset + $0.byteCount } }

    /// `trak` (the box of `track`) with its sample tables holding only the kept samples (chunk
    /// offsets still the input's: relocate them with the output's `OffsetMap`) and its media
    /// duration theirs. Sample-to-group, partial sync, sub-sample and auxiliary-information tables
    /// are left out (they would describe the samples cut); other boxes are kept.
    func rewrite(_ trak: inout BoxNode, track: Track) throws(FormatError) {
        let table = track.samples
        try trak.modify(["mdia", "minf", "stbl"]) { (stbl: inout BoxNode) throws(FormatError) in
            var children: [BoxNode] = []
            for child in stbl.children {
                switch child.type {
                case "stts": children.append(timeToSampleBox())
                case "ctts": children.append(compositionOffsetBox(version: child.payload?.first ?? 0))
                case "stss": if let box = syncSampleBox(table) { children.append(box) }
                case "stsz", "stz2": children.append(sampleSizeBox(table))
                case "stsc": children.append(sampleToChunkBox())
                case "stco", "co64":
                    children.append(ChunkOffsetRelocation.chunkOffsetBox(chunks.map(\.sourceOffset), preferLarge: child.type == "co64"))
                case "sdtp":
                    guard let payload = child.payload, payload.count >= 4 + kept.upperBound else { continue }
                    children.append(.leaf("sdtp", Array(payload[0..<4]) + payload[4 + kept.lowerBound..<4 + kept.upperBound]))
                case "sbgp", "csgp", "stps", "cslg", "subs", "saiz", "saio": continue
                default: children.append(child)
                }
            }
            stbl.children = children
        }
        let duration = deltas.reduce(UInt64(0)) { $0 + UInt64($1) }
        try trak.modify(["mdia", "mdhd"]) { (header: inout BoxNode) throws(FormatError) in
            try EditListTrim.setDuration(duration, in: &header, versionOneOffset: 24, versionZeroOffset: 16)
        }
    }

    private func timeToSampleBox() -> BoxNode {
        let runs = Self.runs(deltas)
        var writer = ByteWriter(capacity: 8 + runs.count * 8)
        writer.u32(UInt32(runs.count))
        for run in runs {
            writer.u32(run.count)
            writer.u32(run.value)
        }
        return .fullBox("stts", writer.bytes)
    }

    private func compositionOffsetBox(version: UInt8) -> BoxNode {
        let runs = Self.runs(compositionOffsets)
        var writer = ByteWriter(capacity: 8 + runs.count * 8)
        writer.u32(UInt32(runs.count))
        for run in runs {
            writer.u32(run.count)
            writer.i32(run.value)
        }
        return .fullBox("ctts", version: version, writer.bytes)
    }

    private func syncSampleBox(_ table: SampleTable) -> BoxNode? {
        guard let sync = table.syncSamples else { return nil }
        let numbers = sync.filter { Int($0) - 1 >= kept.lowerBound && Int($0) - 1 < kept.upperBound }
            .map { UInt32(Int($0) - kept.lowerBound) }
        var writer = ByteWriter(capacity: 4 + numbers.count * 4)
        writer.u32(UInt32(numbers.count))
        for number in numbers { writer.u32(number) }
        return .fullBox("stss", writer.bytes)
    }

    private func sampleSizeBox(_ table: SampleTable) -> BoxNode {
        var writer = ByteWriter(capacity: 8 + (table.constantSampleSize == 0 ? kept.count * 4 : 0))
        writer.u32(table.constantSampleSize)
        writer.u32(UInt32(kept.count))
        if table.constantSampleSize == 0 {
            for size in table.sampleSizes[kept] { writer.u32(size) }
        }
        return .fullBox("stsz", writer.bytes)
    }

    private func sampleToChunkBox() -> BoxNode {
        var entries: [(firstChunk: UInt32, samples: UInt32, description: UInt32)] = []
        for (index, chunk) in chunks.enumerated()
        where entries.last.map({ ($0.samples, $0.description) != (chunk.sampleCount, chunk.descriptionIndex) }) ?? true {
            entries.append((UInt32(index + 1), chunk.sampleCount, chunk.descriptionIndex))
        }
        var writer = ByteWriter(capacity: 4 + entries.count * 12)
        writer.u32(UInt32(entries.count))
        for entry in entries {
            writer.u32(entry.firstChunk)
            writer.u32(entry.samples)
            writer.u32(entry.description)
        }
        return .fullBox("stsc", writer.bytes)
    }

    /// `values` as runs of equal values.
    private static func runs<Value: Equatable>(_ values: [Value]) -> [(count: UInt32, value: Value)] {
        var runs: [(count: UInt32, value: Value)] = []
        for value in values {
            if let last = runs.last, last.value == value {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((1, value))
            }
        }
        return runs
    }
}
