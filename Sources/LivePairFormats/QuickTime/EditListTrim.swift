/// Trims a movie without re-encoding it: every track's edit list (`elst`) is cut to a window of
/// the movie timeline, so players show only `[start, end)` of it, from time zero.
///
/// The video packets are the original's, byte for byte (a player decodes from the sync sample at
/// or before the window's start and shows nothing before it). By default the samples, the sample
/// tables and `mdat` stay as they are; with `keepsOnlyNeededSamples` the video and sound tracks
/// keep only the samples the window needs (`TrackSampleCompaction`: from the sync sample at or
/// before the window to the last frame presented in it; the sound samples overlapping it), their
/// tables rewritten and the rest of the media data left out. The movie header's and every track
/// header's durations become the window's; sound tracks can be left out (mute).
public struct EditListTrim: Sendable, Equatable {
    /// The kept part of the movie timeline, in movie ticks (`mvhd` timescale).
    public var window: Range<UInt64>
    /// Whether sound (`soun`) tracks are removed.
    public var removesSound: Bool
    /// Whether the video and sound tracks keep only the samples the window needs (the output is
    /// then smaller than the input); false keeps every sample, unreferenced outside the window.
    public var keepsOnlyNeededSamples: Bool

    /// A trim keeping `window` (movie ticks) of the movie.
    public init(window: Range<UInt64>, removesSound: Bool = false, keepsOnlyNeededSamples: Bool = false) {
        self.window = window
        self.removesSound = removesSound
        self.keepsOnlyNeededSamples = keepsOnlyNeededSamples
    }

    /// The media times (media ticks) of `track` that the window presents: one range per edit of
    /// the cut edit list that shows media (at a positive rate).
    func neededMediaTimes(of track: Track, movieTimescale: UInt32) -> [Range<Int64>] {
        let cut = Self.edits(
            track.editList, trackDuration: track.header.duration, mediaTimescale: track.media.timescale,
            movieTimescale: movieTimescale, window: window)
        return cut.compactMap { edit in
            guard !edit.isEmpty, edit.mediaRate > 0 else { return nil }
            let span = (Double(edit.segmentDuration) / Double(max(1, movieTimescale)) * edit.mediaRate
                * Double(track.media.timescale)).rounded(.up)
            guard let length = Int64(exactly: span), length > 0 else { return nil }
            let end = edit.mediaTime.addingReportingOverflow(length)
            return end.overflow ? nil : edit.mediaTime..<end.partialValue
        }
    }

    /// The edits of a track whose edit list is `edits` (empty: one edit showing the media from
    /// time zero for `trackDuration` movie ticks), cut to `window`: the parts of each edit inside
    /// the window, in order, with their media times advanced by the part cut from their start.
    public static func edits(
        _ edits: [EditListEntry], trackDuration: UInt64, mediaTimescale: UInt32, movieTimescale: UInt32,
        window: Range<UInt64>
    ) -> [EditListEntry] {
        let source = edits.isEmpty
            ? [EditListEntry(segmentDuration: trackDuration, mediaTime: 0, mediaRate: 1)] : edits
        var result: [EditListEntry] = []
        var elapsed: UInt64 = 0
        for edit in source {
            let start = elapsed
            let end = start.addingReportingOverflow(edit.segmentDuration)
            elapsed = end.overflow ? .max : end.partialValue
            let (keptStart, keptEnd) = (max(start, window.lowerBound), min(elapsed, window.upperBound))
            guard keptStart < keptEnd else { continue }
            let kept = keptStart..<keptEnd
            var mediaTime = edit.mediaTime
            if !edit.isEmpty {
                let skipped = Double(kept.lowerBound - start) / Double(max(1, movieTimescale))
                // A hostile rate or time that leaves 64 bits drops the edit rather than trapping.
                guard let advance = Int64(exactly: (skipped * edit.mediaRate * Double(mediaTimescale)).rounded()) else { continue }
                let sum = edit.mediaTime.addingReportingOverflow(advance)
                guard !sum.overflow else { continue }
                mediaTime = sum.partialValue
            }
            result.append(
                EditListEntry(segmentDuration: UInt64(kept.count), mediaTime: mediaTime, mediaRate: edit.mediaRate))
        }
        return result
    }

    /// Applies the trim to `moov` (the box of `movie`): new edit lists and durations, sound tracks
    /// removed when asked. Tracks are matched by id, so tracks already removed from `moov` or added
    /// to it (not in `movie`) are left alone. Tracks with no part in the window get an edit list
    /// of one gap. A track of `compactions` gets its sample tables cut to the samples kept, and
    /// its edits' media times moved back by the time of the first sample kept.
    public func apply(to moov: inout BoxNode, movie: QuickTimeMovie) throws(FormatError) {
        try apply(to: &moov, movie: movie, compactions: [:])
    }

    /// `apply(to:movie:)` with the tracks of `compactions` (by track id) compacted.
    func apply(
        to moov: inout BoxNode, movie: QuickTimeMovie, compactions: [UInt32: TrackSampleCompaction]
    ) throws(FormatError) {
        guard !window.isEmpty else { throw .invalid(context: "trim", reason: "the trim window keeps no time") }
        let timescale = movie.header.timescale
        let span = window.upperBound - window.lowerBound
        var soundIDs: Set<UInt32> = []
        let tracks = Dictionary(movie.tracks.map { ($0.header.trackID, $0) }, uniquingKeysWith: { first, _ in first })
        for index in moov.children.indices where moov.children[index].type == "trak" {
            guard let id = ChunkOffsetRelocation.trackID(of: moov.children[index]), let track = tracks[id] else { continue }
            if track.handlerType == "soun" { soundIDs.insert(track.header.trackID) }
            var cut = Self.edits(
                track.editList, trackDuration: track.header.duration, mediaTimescale: track.media.timescale,
                movieTimescale: timescale, window: window)
            if cut.isEmpty { cut = [EditListEntry(segmentDuration: span, mediaTime: -1, mediaRate: 1)] }
            let compaction = compactions[id]
            if let shift = compaction?.mediaTimeShift, shift != 0 {
                cut = cut.map { edit in
                    edit.isEmpty
                        ? edit
                        : EditListEntry(segmentDuration: edit.segmentDuration, mediaTime: edit.mediaTime - shift, mediaRate: edit.mediaRate)
                }
            }
            let duration = cut.reduce(UInt64(0)) { $0 &+ $1.segmentDuration }
            var trak = moov.children[index]
            let edts = BoxNode.container("edts", [Self.editListBox(cut)])
            if let existing = trak.childIndex("edts") {
                trak.children[existing] = edts
            } else {
                trak.insert(edts, at: (trak.childIndex("tkhd") ?? -1) + 1)
            }
            try trak.modify(["tkhd"]) { (header: inout BoxNode) throws(FormatError) in
                try Self.setDuration(duration, in: &header, versionOneOffset: 28, versionZeroOffset: 20)
            }
            try compaction?.rewrite(&trak, track: track)
            moov.children[index] = trak
        }
        try moov.modify(["mvhd"]) { (header: inout BoxNode) throws(FormatError) in
            try Self.setDuration(span, in: &header, versionOneOffset: 24, versionZeroOffset: 16)
        }
        if removesSound {
            moov.children.removeAll {
                $0.type == "trak" && ChunkOffsetRelocation.trackID(of: $0).map(soundIDs.contains) == true
            }
        }
    }

    /// An `elst` box of `entries` (version 1 when a value does not fit 32 bits).
    static func editListBox(_ entries: [EditListEntry]) -> BoxNode {
        let large = entries.contains {
            $0.segmentDuration > UInt64(UInt32.max) || $0.mediaTime > Int64(Int32.max) || $0.mediaTime < Int64(Int32.min)
        }
        var writer = ByteWriter(capacity: 8 + entries.count * 20)
        writer.u32(UInt32(entries.count))
        for entry in entries {
            if large {
                writer.u64(entry.segmentDuration)
                writer.i64(entry.mediaTime)
            } else {
                writer.u32(UInt32(entry.segmentDuration))
                writer.i32(Int32(entry.mediaTime))
            }
            writer.u32(UInt32(bitPattern: Int32((entry.mediaRate * 65536).rounded())))
        }
        return .fullBox("elst", version: large ? 1 : 0, writer.bytes)
    }

    /// Sets the duration field of a full box (`mvhd`, `tkhd`, `mdhd`) at the offsets of its two versions.
    static func setDuration(
        _ ticks: UInt64, in box: inout BoxNode, versionOneOffset: Int, versionZeroOffset: Int
    ) throws(FormatError) {
        guard var payload = box.payload, payload.count >= versionOneOffset + 8 || payload.count >= versionZeroOffset + 4,
            let version = payload.first
        else {
            throw .invalid(context: "\(box.type)", reason: "too short for a header with a duration")
        }
        if version == 1 {
            guard payload.count >= versionOneOffset + 8 else {
                throw .invalid(context: "\(box.type)", reason: "too short for a version 1 header")
            }
            payload.replaceSubrange(versionOneOffset..<versionOneOffset + 8, with: ByteWriter.encode(ticks, byteCount: 8))
        } else {
            guard ticks <= UInt64(UInt32.max) else {
                throw .unsupported(context: "\(box.type)", reason: "duration \(ticks) does not fit a version 0 header")
            }
            payload.replaceSubrange(versionZeroOffset..<versionZeroOffset + 4, with: ByteWriter.encode(ticks, byteCount: 4))
        }
        box.content = .leaf(payload)
    }
}
