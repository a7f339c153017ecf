/// A track's sample tables (`stbl`): timing, sizes and where the samples are in the file.
public struct SampleTable: Sendable, Equatable {
    /// `stts`: runs of (sample count, sample delta in media ticks).
    public let timeToSample: [(count: UInt32, delta: UInt32)]
    /// `ctts`: runs of (sample count, composition offset); empty when absent.
    public let compositionOffsets: [(count: UInt32, offset: Int32)]
    /// `stsz`: one size for all samples (when not 0) ...
    public let constantSampleSize: UInt32
    /// ... or one size per sample.
    public let sampleSizes: [UInt32]
    /// `stsz`'s sample count.
    public let sampleCount: UInt32
    /// `stsc`: runs of (first chunk, 1-based; samples per chunk; sample description index).
    public let sampleToChunk: [(firstChunk: UInt32, samplesPerChunk: UInt32, descriptionIndex: UInt32)]
    /// `stco`/`co64`: file offset of each chunk.
    public let chunkOffsets: [UInt64]
    /// True when chunk offsets came from `co64`.
    public let usesLargeChunkOffsets: Bool
    /// `stss`: 1-based sync sample numbers; nil when absent (every sample is a sync sample).
    public let syncSamples: [UInt32]?
    /// The most samples expanded from `stts` when `stsz` gives no count (the parse's table-entry limit).
    let maximumSamples: Int

    /// Compares tables entry by entry.
    public static func == (lhs: SampleTable, rhs: SampleTable) -> Bool {
        lhs.timeToSample.elementsEqual(rhs.timeToSample) { $0 == $1 }
            && lhs.compositionOffsets.elementsEqual(rhs.compositionOffsets) { $0 == $1 }
            && lhs.constantSampleSize == rhs.constantSampleSize && lhs.sampleSizes == rhs.sampleSizes
            && lhs.sampleCount == rhs.sampleCount
            && lhs.sampleToChunk.elementsEqual(rhs.sampleToChunk) { $0 == $1 }
            && lhs.chunkOffsets == rhs.chunkOffsets && lhs.usesLargeChunkOffsets == rhs.usesLargeChunkOffsets
            && lhs.syncSamples == rhs.syncSamples
    }

    /// An empty table (a track without `stbl`).
    static let empty = SampleTable(
        timeToSample: [], compositionOffsets: [], constantSampleSize: 0, sampleSizes: [], sampleCount: 0,
        sampleToChunk: [], chunkOffsets: [], usesLargeChunkOffsets: false, syncSamples: nil,
        maximumSamples: ParseLimits.default.maximumTableEntries)

    private init(
        timeToSample: [(count: UInt32, delta: UInt32)], compositionOffsets: [(count: UInt32, offset: Int32)],
        constantSampleSize: UInt32, sampleSizes: [UInt32], sampleCount: UInt32,
        sampleToChunk: [(firstChunk: UInt32, samplesPerChunk: UInt32, descriptionIndex: UInt32)],
        chunkOffsets: [UInt64], usesLargeChunkOffsets: Bool, syncSamples: [UInt32]?, maximumSamples: Int
    ) {
        self.timeToSample = timeToSample
        self.compositionOffsets = compositionOffsets
        self.constantSampleSize = constantSampleSize
        self.sampleSizes = sampleSizes
        self.sampleCount = sampleCount
        self.sampleToChunk = sampleToChunk
        self.chunkOffsets = chunkOffsets
        self.usesLargeChunkOffsets = usesLargeChunkOffsets
        self.syncSamples = syncSamples
        self.maximumSamples = maximumSamples
    }

    /// Reads the tables of an `stbl` box. Every count is checked against the bytes present and the limits.
    init(_ stbl: Box, limits: ParseLimits) throws(FormatError) {
        func table(_ type: FourCC, entrySize: Int) throws(FormatError) -> (ByteReader, UInt32)? {
            guard let box = stbl.child(type) else { return nil }
            var reader = try box.payloadReader()
            _ = try FullBoxHeader(&reader)
            let count = try reader.u32()
            try limits.checkTable(UInt64(count), entrySize: entrySize, available: reader.remaining, context: "\(type)")
            return (reader, count)
        }
        var stts: [(count: UInt32, delta: UInt32)] = []
        if case (var reader, let count)? = try table("stts", entrySize: 8) {
            stts.reserveCapacity(Int(count))
            for _ in 0..<count { stts.append((try reader.u32(), try reader.u32())) }
        }
        var ctts: [(count: UInt32, offset: Int32)] = []
        if case (var reader, let count)? = try table("ctts", entrySize: 8) {
            ctts.reserveCapacity(Int(count))
            for _ in 0..<count { ctts.append((try reader.u32(), try reader.i32())) }
        }
        var stsc: [(firstChunk: UInt32, samplesPerChunk: UInt32, descriptionIndex: UInt32)] = []
        if case (var reader, let count)? = try table("stsc", entrySize: 12) {
            stsc.reserveCapacity(Int(count))
            for _ in 0..<count { stsc.append((try reader.u32(), try reader.u32(), try reader.u32())) }
        }
        var offsets: [UInt64] = []
        var large = false
        if case (var reader, let count)? = try table("co64", entrySize: 8) {
            large = true
            offsets.reserveCapacity(Int(count))
            for _ in 0..<count { offsets.append(try reader.u64()) }
        } else if case (var reader, let count)? = try table("stco", entrySize: 4) {
            offsets.reserveCapacity(Int(count))
            for _ in 0..<count { offsets.append(UInt64(try reader.u32())) }
        }
        var sync: [UInt32]?
        if case (var reader, let count)? = try table("stss", entrySize: 4) {
            var numbers: [UInt32] = []
            numbers.reserveCapacity(Int(count))
            for _ in 0..<count { numbers.append(try reader.u32()) }
            sync = numbers
        }
        var constant: UInt32 = 0
        var sizes: [UInt32] = []
        var sampleCount: UInt32 = 0
        if let box = stbl.child("stsz") {
            var reader = try box.payloadReader()
            _ = try FullBoxHeader(&reader)
            constant = try reader.u32()
            sampleCount = try reader.u32()
            if constant == 0 {
                try limits.checkTable(UInt64(sampleCount), entrySize: 4, available: reader.remaining, context: "stsz")
                sizes.reserveCapacity(Int(sampleCount))
                for _ in 0..<sampleCount { sizes.append(try reader.u32()) }
            } else if sampleCount > UInt32(limits.maximumTableEntries) {
                throw .limitExceeded(
                    context: "stsz", limit: "sample count", value: UInt64(sampleCount),
                    maximum: UInt64(limits.maximumTableEntries))
            }
        } else if let box = stbl.child("stz2") {
            throw .unsupported(context: "\(box.type)", reason: "compact sample sizes (stz2) are not supported")
        }
        self.init(
            timeToSample: stts, compositionOffsets: ctts, constantSampleSize: constant, sampleSizes: sizes,
            sampleCount: sampleCount, sampleToChunk: stsc, chunkOffsets: offsets, usesLargeChunkOffsets: large,
            syncSamples: sync, maximumSamples: limits.maximumTableEntries)
    }

    /// Number of samples according to `stts` (which may differ from `stsz` in broken files).
    public var timedSampleCount: UInt64 { timeToSample.reduce(0) { $0 + UInt64($1.count) } }

    /// Sum of all sample deltas, in media ticks.
    /// Saturates at `UInt64.max` for hostile tables (2^32 - 1 runs of 2^32 - 1 ticks).
    public var totalDuration: UInt64 {
        timeToSample.reduce(0) { total, run in
            let (sum, overflow) = total.addingReportingOverflow(UInt64(run.count) * UInt64(run.delta))
            return overflow ? .max : sum
        }
    }

    /// Presentation times (media ticks: decode time plus composition offset) of the first `limit`
    /// samples, in decode order.
    /// The count never exceeds `stsz`'s sample count (or, without one, the table-entry limit the
    /// table was parsed with): a damaged `stts` may claim 2^32 samples, which would be 32 GB of times.
    public func presentationTimes(limit: Int) -> [Int64] {
        let limit = min(limit, sampleCount > 0 ? Int(sampleCount) : maximumSamples)
        var times: [Int64] = []
        times.reserveCapacity(min(limit, Int(min(timedSampleCount, 4096))))
        var decodeTime: Int64 = 0
        outer: for run in timeToSample {
            for _ in 0..<run.count {
                if times.count >= limit { break outer }
                times.append(decodeTime)
                decodeTime &+= Int64(run.delta)
            }
        }
        // Visit only the runs that cover the times kept: a run may claim 2^32 - 1 samples.
        var index = 0
        for run in compositionOffsets {
            guard index < times.count else { break }
            for _ in 0..<min(Int(run.count), times.count - index) {
                times[index] &+= Int64(run.offset)
                index += 1
            }
        }
        return times
    }

    /// Size in bytes of sample `index` (0-based), or nil when out of range.
    public func sampleSize(at index: Int) -> UInt32? {
        guard index >= 0, UInt32(clamping: index) < sampleCount else { return nil }
        return constantSampleSize != 0 ? constantSampleSize : sampleSizes[index]
    }

    /// File offset of sample `index` (0-based), derived from `stsc`, `stco`/`co64` and `stsz`; nil
    /// when the tables do not reach it.
    public func sampleOffset(at index: Int) -> UInt64? {
        guard index >= 0, UInt32(clamping: index) < sampleCount, !sampleToChunk.isEmpty else { return nil }
        var sampleNumber = 0
        for (runIndex, run) in sampleToChunk.enumerated() {
            guard run.firstChunk >= 1, run.samplesPerChunk > 0 else { return nil }
            let nextFirst = runIndex + 1 < sampleToChunk.count
                ? Int(sampleToChunk[runIndex + 1].firstChunk) : chunkOffsets.count + 1
            let chunksInRun = nextFirst - Int(run.firstChunk)
            guard chunksInRun >= 0 else { return nil }
            // Hostile runs may claim 2^32 chunks of 2^32 samples: compare without overflowing.
            let (samplesInRun, overflow) = chunksInRun.multipliedReportingOverflow(by: Int(run.samplesPerChunk))
            if overflow || index - sampleNumber < samplesInRun {
                let withinRun = index - sampleNumber
                let chunk = Int(run.firstChunk) - 1 + withinRun / Int(run.samplesPerChunk)
                let firstSampleOfChunk = index - withinRun % Int(run.samplesPerChunk)
                guard chunk < chunkOffsets.count else { return nil }
                var offset = chunkOffsets[chunk]
                for sample in firstSampleOfChunk..<index {
                    guard let size = sampleSize(at: sample) else { return nil }
                    let (next, overflow) = offset.addingReportingOverflow(UInt64(size))
                    guard !overflow else { return nil }
                    offset = next
                }
                return offset
            }
            sampleNumber += samplesInRun
        }
        return nil
    }
}
