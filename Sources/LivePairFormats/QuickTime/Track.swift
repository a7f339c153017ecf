/// One track of a QuickTime movie (`trak`).
public struct Track: Sendable, Equatable {
    /// `tkhd`.
    public let header: TrackHeader
    /// `mdhd`.
    public let media: MediaHeader
    /// The `hdlr` handler type: `vide`, `soun`, `meta`, `auxv`, ...
    public let handlerType: FourCC
    /// The `hdlr` component name, when present.
    public let handlerName: String
    /// `edts/elst`; empty without an edit list.
    public let editList: [EditListEntry]
    /// `stsd` entries.
    public let sampleDescriptions: [SampleDescription]
    /// The sample tables.
    public let samples: SampleTable
    /// `tref` references by type (for example `cdsc` -> [video track id]).
    public let references: [FourCC: [UInt32]]
    /// The movie timescale, for the timeline.
    public let movieTimescale: UInt32

    /// The first sample description, which describes every sample in camera files.
    public var primaryDescription: SampleDescription? { sampleDescriptions.first }

    /// The timeline mapping media time to movie time.
    public var timeline: TrackTimeline {
        TrackTimeline(edits: editList, movieTimescale: movieTimescale, mediaTimescale: media.timescale)
    }

    /// Media duration in seconds.
    public var mediaDurationSeconds: Double { Double(media.duration) / Double(media.timescale) }

    /// Samples per second over the media duration (for video: the frame rate), or nil without samples.
    public var sampleRate: Double? {
        let count = samples.timedSampleCount
        let ticks = samples.totalDuration > 0 ? samples.totalDuration : media.duration
        guard count > 0, ticks > 0 else { return nil }
        return Double(count) * Double(media.timescale) / Double(ticks)
    }

    /// The timed-metadata keys of this track's `mebx` descriptions.
    public var metadataKeyNames: [String] { sampleDescriptions.flatMap { $0.metadataKeys.map(\.name) } }

    /// Movie-timeline presentation times in seconds of the first `limit` samples, in presentation
    /// order, skipping samples that no edit shows.
    public func presentationTimes(limit: Int = .max) -> [Double] {
        let timeline = self.timeline
        return samples.presentationTimes(limit: limit).compactMap { timeline.movieTime(ofMediaTime: $0) }.sorted()
    }

    /// Parses a `trak` box.
    init(_ trak: Box, movieTimescale: UInt32, limits: ParseLimits) throws(FormatError) {
        guard let tkhd = trak.child("tkhd") else { throw .invalid(context: "trak", reason: "no tkhd box") }
        guard let mdia = trak.child("mdia") else { throw .invalid(context: "trak", reason: "no mdia box") }
        guard let mdhd = mdia.child("mdhd") else { throw .invalid(context: "trak/mdia", reason: "no mdhd box") }
        header = try TrackHeader(tkhd)
        media = try MediaHeader(mdhd)
        self.movieTimescale = movieTimescale
        var handler: FourCC = "    "
        var name = ""
        if let hdlr = mdia.child("hdlr") {
            var reader = try hdlr.payloadReader()
            _ = try FullBoxHeader(&reader)
            try reader.skip(4)  // component type (QuickTime) or pre_defined (ISO)
            handler = try reader.fourCC()
            if reader.remaining > 12 {
                try reader.skip(12)
                var text = reader.rest()
                // QuickTime writes a Pascal string, ISO a C string.
                if let first = text.first, Int(first) == text.count - 1 { text.removeFirst() }
                name = String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        handlerType = handler
        handlerName = name
        editList = try trak.descendant(["edts", "elst"]).map { box throws(FormatError) in
            try EditListEntry.parse(box, limits: limits)
        } ?? []
        if let stbl = mdia.descendant(["minf", "stbl"]) {
            samples = try SampleTable(stbl, limits: limits)
            sampleDescriptions = try stbl.child("stsd").map { box throws(FormatError) in
                try SampleDescription.parseAll(box, handler: handler, limits: limits)
            } ?? []
        } else {
            samples = .empty
            sampleDescriptions = []
        }
        var refs: [FourCC: [UInt32]] = [:]
        if let tref = trak.child("tref") {
            for reference in tref.children {
                var reader = try reference.payloadReader()
                var ids: [UInt32] = []
                while reader.remaining >= 4 { ids.append(try reader.u32()) }
                refs[reference.type, default: []].append(contentsOf: ids)
            }
        }
        references = refs
    }
}
