/// One `elst` entry.
public struct EditListEntry: Sendable, Equatable {
    /// Duration of the edit on the movie timeline, in the movie's timescale.
    public let segmentDuration: UInt64
    /// Start of the edit in media time (track timescale); -1 for an empty edit.
    public let mediaTime: Int64
    /// Playback rate (16.16 fixed converted); 1 for normal edits.
    public let mediaRate: Double

    /// Memberwise initializer.
    public init(segmentDuration: UInt64, mediaTime: Int64, mediaRate: Double) {
        self.segmentDuration = segmentDuration
        self.mediaTime = mediaTime
        self.mediaRate = mediaRate
    }

    /// True for an empty edit (a gap on the timeline).
    public var isEmpty: Bool { mediaTime == -1 }

    /// Reads an `elst` box.
    static func parse(_ box: Box, limits: ParseLimits) throws(FormatError) -> [EditListEntry] {
        var reader = try box.payloadReader()
        let full = try FullBoxHeader(&reader)
        let count = try reader.u32()
        let entrySize = full.version == 1 ? 20 : 12
        try limits.checkTable(UInt64(count), entrySize: entrySize, available: reader.remaining, context: "elst")
        var entries: [EditListEntry] = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let duration: UInt64
            let mediaTime: Int64
            if full.version == 1 {
                duration = try reader.u64()
                mediaTime = try reader.i64()
            } else {
                duration = UInt64(try reader.u32())
                mediaTime = Int64(try reader.i32())
            }
            let rate = Double(try reader.i32()) / 65536
            entries.append(EditListEntry(segmentDuration: duration, mediaTime: mediaTime, mediaRate: rate))
        }
        return entries
    }
}

/// Maps media times of one track onto the movie timeline through its edit list.
public struct TrackTimeline: Sendable, Equatable {
    /// The track's edits; empty when the track has no `elst` (media time equals movie time).
    public let edits: [EditListEntry]
    /// The movie timescale (edit durations).
    public let movieTimescale: UInt32
    /// The media timescale (media times).
    public let mediaTimescale: UInt32

    /// Memberwise initializer.
    public init(edits: [EditListEntry], movieTimescale: UInt32, mediaTimescale: UInt32) {
        self.edits = edits
        self.movieTimescale = movieTimescale
        self.mediaTimescale = mediaTimescale
    }

    /// The movie-timeline time, in seconds, at which media time `mediaTime` (track ticks) is
    /// presented; nil when no edit shows that media time.
    public func movieTime(ofMediaTime mediaTime: Int64) -> Double? {
        guard !edits.isEmpty else { return Double(mediaTime) / Double(mediaTimescale) }
        var elapsed = 0.0  // seconds on the movie timeline
        for edit in edits {
            let editSeconds = Double(edit.segmentDuration) / Double(movieTimescale)
            if !edit.isEmpty {
                let rate = edit.mediaRate == 0 ? 1 : edit.mediaRate
                let mediaSpan = editSeconds * rate * Double(mediaTimescale)
                let offset = Double(mediaTime) - Double(edit.mediaTime)  // no Int64 overflow for hostile media times
                // A dwell (rate 0) or a one-tick edit still shows its first media sample.
                if offset >= 0 && (offset < max(mediaSpan, 1)) {
                    return elapsed + offset / (rate * Double(mediaTimescale))
                }
            }
            elapsed += editSeconds
        }
        return nil
    }
}
