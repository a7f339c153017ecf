/// Makes a QuickTime movie a Live Photo movie: sets the content identifier in `moov/meta` and adds
/// (or replaces) the still-image-time track, without touching the media data.
///
/// The output is laid out like a camera file: the input's boxes (`ftyp`, `wide`, `mdat`, ...) are
/// copied through streaming reads in their order, then a small new `mdat` holds the 9-byte
/// still-image-time sample, then the new `moov` comes last. What happens to the old `moov`
/// depends on `placement`. Chunk offsets (`stco`/`co64`) of every track are relocated whenever
/// data moves; `stco` becomes `co64` when an offset passes 2^32 - 1. The input is never modified.
public struct QuickTimeMovieRewriter: Sendable {
    /// Where the new `moov` goes.
    public enum MoovPlacement: Sendable, Equatable {
        /// At the end (camera layout). The old `moov` is dropped: if it was last this truncates it
        /// away; if it was before `mdat` the data after it moves up and chunk offsets are relocated.
        case end
        /// At the end, with the old `moov` kept as a `free` box of the same size (zero-filled):
        /// nothing moves, no offset changes.
        case endKeepingFreeSpace
        /// Where the old `moov` was (fast-start layout): the data after it moves by the size
        /// difference and chunk offsets are relocated.
        case inPlace
    }

    /// What a rewrite did.
    public struct Result: Sendable, Equatable {
        /// The still-image time written (snapped to a video frame), in seconds on the movie timeline.
        public let stillImageTime: Double
        /// The presentation time (seconds, movie timeline) of the still's frame: the video frame
        /// nearest the still-image time (`StillImageTimeTrackWriter.snap`). Equal to
        /// `stillImageTime` when that was snapped; another when a kept Apple time lies between two
        /// frames (0.48 s in a movie with frames at 0.4667 s and 0.5333 s).
        public let stillFrameTime: Double
        /// The still-image time written, exactly: ticks on the movie's timescale.
        public let stillImageTicks: UInt64
        /// The movie's timescale (`mvhd`), the ticks per second of `stillImageTicks`.
        public let movieTimescale: UInt32
        /// The still-image-time track's id.
        public let stillImageTrackID: UInt32
        /// Whether sample data moved (chunk offsets were relocated).
        public let relocatedChunkOffsets: Bool
        /// Size of the output in bytes.
        public let outputSize: UInt64
    }

    /// The movie read.
    public let source: any ByteSource
    /// Where the new `moov` goes.
    public var placement: MoovPlacement
    /// Limits for parsing the input.
    public var limits: ParseLimits
    /// A complete `ftyp` box that replaces the input's, or goes first when the input has none; nil
    /// keeps the input's. Data after it moves when the sizes differ, with chunk offsets relocated.
    public var replacementFileType: [UInt8]?
    /// When true, every video track but the main one (`QuickTimeMovie.videoTrack`) is disabled
    /// (`tkhd` flag 0x1 cleared), as a Live Photo movie has one picture: a Pixel motion photo's
    /// one-frame full-resolution track would otherwise be shown over (or instead of) the motion.
    /// Metadata tracks keep their flags (an iPhone's `mebx` tracks are enabled, flags 0xF).
    public var disablesSecondaryVideoTracks = false
    /// When true, a given still-image time within the movie (0 to its duration) is written as it
    /// is, on the movie's timescale, instead of snapped to a video frame: an exact Apple time kept
    /// elsewhere (a motion photo's `LivePair:StillImageTime`) comes back to the tick.
    public var keepsStillImageTimeExact = false
    /// Metadata keys removed from the output: from `moov/meta` (with their values), and every
    /// timed-metadata track whose keys are all in this set is dropped (its samples stay, unreferenced).
    public var removedMetadataKeys: Set<String> = []
    /// Cuts the movie to a window of its timeline by edit lists (and removes its sound when
    /// asked), media data untouched: see `EditListTrim`. A given still-image time is then on the
    /// trimmed timeline (0 is the window's start); nil keeps the existing still-image time, moved
    /// with the window.
    public var trim: EditListTrim?
    /// A movie whose sound track replaces the input's sound tracks (taking the first one's track
    /// id), its samples copied into the output: an edit's sound encoded again (a volume between
    /// 0 and 1) beside the input's video packets. Its movie timescale must be the input's (its
    /// edit list and durations are kept as they are, on the output's timeline). Ignored when the
    /// input has no sound track or `trim` removes sound.
    public var replacementSound: (any ByteSource)?

    /// When true, the output gets Apple's file type box (`quickTimeFileTypeBox`) in place of the
    /// input's (an MP4's `isom`/`mp42`).
    public var quickTimeFileType: Bool {
        get { replacementFileType == Self.quickTimeFileTypeBox }
        set { replacementFileType = newValue ? Self.quickTimeFileTypeBox : nil }
    }

    /// Apple's `ftyp` box: `qt  `, minor version 0, compatible `qt  `.
    public static let quickTimeFileTypeBox: [UInt8] = BoxNode.leaf(
        "ftyp", FourCC("qt  ").bytes + [0, 0, 0, 0] + FourCC("qt  ").bytes).serialized()

    /// An MPEG-4 `ftyp` box (major brand `mp42`, minor version 0, compatible `isom` and `mp42`),
    /// what Android motion photos embed.
    public static let mpeg4FileTypeBox: [UInt8] = BoxNode.leaf(
        "ftyp", FourCC("mp42").bytes + [0, 0, 0, 0] + FourCC("isom").bytes + FourCC("mp42").bytes).serialized()

    /// A rewriter of the movie in `source`.
    public init(source: any ByteSource, placement: MoovPlacement = .end, limits: ParseLimits = .default) {
        self.source = source
        self.placement = placement
        self.limits = limits
    }

    /// A rewriter of the movie at `path` (opened read-only).
    public init(path: String, placement: MoovPlacement = .end, limits: ParseLimits = .default) throws(FormatError) {
        self.init(source: try FileByteSource(path: path), placement: placement, limits: limits)
    }

    /// Writes the Live Photo movie to `path` atomically (temporary file, fsync, rename).
    ///
    /// - Parameters:
    ///   - contentIdentifier: written as `com.apple.quicktime.content.identifier` (UTF-8).
    ///   - stillImageTime: seconds on the movie timeline, snapped to the nearest presentation time
    ///     of a main video frame. Nil keeps an existing still-image-time track as it is, or, when
    ///     there is none, uses the frame nearest the middle of the movie.
    ///   - extraMetadata: further `moov/meta` values to set.
    ///   - interpose: wraps the output sink (tests inject failures).
    @discardableResult
    public func write(
        to path: String, contentIdentifier: String, stillImageTime: Double?, extraMetadata: [MovieMetadataEntry] = [],
        interpose: ((any ByteSink) -> any ByteSink)? = nil
    ) throws(FormatError) -> Result {
        let plan = try makePlan(
            contentIdentifier: contentIdentifier, stillImageTime: stillImageTime, extraMetadata: extraMetadata)
        try AtomicFileWriter.write(to: path, interpose: interpose) { sink throws(FormatError) in
            try emit(plan, to: sink)
        }
        return plan.result
    }

    /// Writes the Live Photo movie to `sink` (front to back).
    @discardableResult
    public func write(
        to sink: any ByteSink, contentIdentifier: String, stillImageTime: Double?,
        extraMetadata: [MovieMetadataEntry] = []
    ) throws(FormatError) -> Result {
        let plan = try makePlan(
            contentIdentifier: contentIdentifier, stillImageTime: stillImageTime, extraMetadata: extraMetadata)
        try emit(plan, to: sink)
        return plan.result
    }

    // MARK: Planning

    /// One piece of the output.
    enum Piece {
        case copy(Range<UInt64>)
        /// Bytes of `replacementSound`.
        case copyReplacement(Range<UInt64>)
        case bytes([UInt8])
        case zeros(UInt64)
    }

    struct Plan {
        var pieces: [Piece]
        var result: Result
    }

    private struct Layout {
        var pieces: [Piece] = []
        var map = OffsetMap()
        /// Where the replacement sound's samples went.
        var replacementMap = OffsetMap()
        var sampleOffset: UInt64 = 0
        var moovPieceIndex = 0
        var size: UInt64 = 0
    }

    func makePlan(
        contentIdentifier: String, stillImageTime: Double?, extraMetadata: [MovieMetadataEntry]
    ) throws(FormatError) -> Plan {
        let scanner = TopLevelBoxScanner(limits: limits)
        let boxes = try scanner.scan(source)
        if let truncated = boxes.first(where: \.isTruncated) {
            throw .truncated(
                context: "\(truncated.type) box at \(truncated.fileOffset)", needed: truncated.size,
                available: source.size - truncated.fileOffset)
        }
        guard let moovIndex = boxes.firstIndex(where: { $0.type == "moov" }) else {
            throw .invalid(context: "movie", reason: "no moov box")
        }
        let moovBox = try scanner.load(boxes[moovIndex], from: source)
        let movie = try QuickTimeMovieParser(limits: limits).parse(moov: moovBox, fileType: nil, topLevelBoxes: boxes)
        let original = try BoxNode(moovBox)
        guard let mvhd = original.child("mvhd") else { throw .invalid(context: "moov", reason: "no mvhd box") }
        guard let video = movie.videoTrack else {
            throw .unsupported(context: "movie", reason: "no video track to place the still-image time on")
        }

        // Which track to replace, and the still time.
        let existing = movie.stillImageTimeTrack
        let existingTime = existing == nil ? nil : QuickTimeMovieParser(limits: limits).stillImageTime(of: movie, source: source)
        // A track that also carries removed keys (an iPhone 15's still-image transform) is
        // replaced by one holding only the still-image time, at the same time.
        let carriesRemovedKeys = existing.map { !Set($0.metadataKeyNames).isDisjoint(with: removedMetadataKeys) } ?? false
        let keepExisting = trim == nil && stillImageTime == nil && existingTime != nil && !carriesRemovedKeys
        // A trimmed movie's times are the original's less the window's start.
        let shift = trim.map { Double($0.window.lowerBound) / Double(movie.header.timescale) } ?? 0
        let duration = trim.map { Double($0.window.upperBound - $0.window.lowerBound) / Double(movie.header.timescale) } ?? movie.header.durationSeconds
        let seconds: Double
        if trim == nil, stillImageTime == nil, let existingTime {
            seconds = existingTime.seconds
        } else {
            let requested = stillImageTime ?? existingTime.map { $0.seconds - shift } ?? duration / 2
            guard requested.isFinite else {
                throw .invalid(context: "still-image time", reason: "\(requested) is not a number of seconds")
            }
            guard let snapped = StillImageTimeTrackWriter.snap(requested + shift, toFramesOf: video) else {
                throw .unsupported(context: "movie", reason: "the video track presents no frames")
            }
            let exact = keepsStillImageTimeExact && stillImageTime != nil && requested >= 0 && requested <= duration
            seconds = exact ? requested : max(0, snapped - shift)
        }
        let timescale = movie.header.timescale
        let scaled = (seconds * Double(timescale)).rounded()
        guard scaled.isFinite, scaled < Double(UInt64(1) << 53) else {
            throw .invalid(context: "still-image time", reason: "\(seconds) s is not a time on this movie's timeline")
        }
        let ticks = UInt64(max(0, scaled))
        let maxID = movie.tracks.map(\.header.trackID).max() ?? 0
        let trackID: UInt32
        if let existing {
            trackID = existing.header.trackID
        } else {
            let next = try MovieHeaderEditing.nextTrackID(of: mvhd)
            guard maxID < UInt32.max - 1 else {
                throw .unsupported(context: "moov", reason: "no track id is left for the still-image-time track")
            }
            trackID = next > maxID && next < UInt32.max ? next : maxID + 1
        }
        let trakIndices = original.children.indices.filter { original.children[$0].type == "trak" }
        let existingTrakIndex = existing.flatMap { track in
            movie.tracks.firstIndex(of: track).map { trakIndices[$0] }
        }
        // A replaced track whose sample sits alone in a small mdat (written by an earlier rewrite)
        // leaves that mdat orphaned: drop it, so restamping again does not grow the file.
        var dropped: Set<Int> = []
        if !keepExisting, let existing, let offset = existing.samples.sampleOffset(at: 0),
            let index = boxes.firstIndex(where: {
                $0.type == "mdat" && $0.headerSize == 8 && $0.payloadFileOffset == offset
                    && $0.payloadSize == UInt64(StillImageTimeTrackWriter.sampleBytes.count)
            }),
            !movie.tracks.contains(where: { $0 != existing && $0.samples.chunkOffsets.contains(offset) })
        {
            dropped.insert(index)
        }

        // A trim keeping only the samples it needs: the video and sound tracks compacted, the data
        // of every track kept copied into one new mdat in place of the input's.
        var leftOut: Set<UInt32> = keepExisting ? [] : Set(existing.map { [$0.header.trackID] } ?? [])
        let soundIDs = movie.tracks.filter { $0.handlerType == "soun" }.map(\.header.trackID)
        let replacement = trim?.removesSound == true || soundIDs.isEmpty
            ? nil : try replacementSound.map { source throws(FormatError) in try Self.soundTrack(in: source, timescale: movie.header.timescale) }
        if trim?.removesSound == true || replacement != nil { leftOut.formUnion(soundIDs) }
        let compacted = trim.flatMap { $0.keepsOnlyNeededSamples
                ? Self.compactedData(of: movie, trim: $0, leavingOut: leftOut, sourceSize: source.size) : nil }

        func buildMoov(_ layout: Layout) throws(FormatError) -> BoxNode {
            var moov = original
            if disablesSecondaryVideoTracks {
                for (track, index) in zip(movie.tracks, trakIndices)
                where track.handlerType == "vide" && track != video && track.header.isEnabled {
                    try moov.children[index].modify(["tkhd"]) { (header: inout BoxNode) throws(FormatError) in
                        try TrackHeader.clearEnabledFlag(in: &header)
                    }
                }
            }
            if !keepExisting, let existingTrakIndex { moov.children.remove(at: existingTrakIndex) }
            try trim?.apply(to: &moov, movie: movie, compactions: compacted?.compactions ?? [:])
            // The replaced sound tracks go before relocation (their samples are not kept).
            let isSound = { (box: BoxNode) in box.type == "trak" && ChunkOffsetRelocation.trackID(of: box).map(soundIDs.contains) == true }
            let soundPosition = replacement == nil ? nil : moov.children.firstIndex(where: isSound)
            if replacement != nil { moov.children.removeAll(where: isSound) }
            try ChunkOffsetRelocation.relocateAll(in: &moov, map: layout.map)
            if let replacement, let first = soundIDs.first {
                var holder = BoxNode.container("moov", [replacement.trak])
                try ChunkOffsetRelocation.relocateAll(in: &holder, map: layout.replacementMap)
                var trak = holder.children[0]
                try trak.modify(["tkhd"]) { (header: inout BoxNode) throws(FormatError) in try Self.setTrackID(first, in: &header) }
                moov.insert(trak, at: min(soundPosition ?? moov.children.count, moov.children.count))
            }
            // One keys table (ffmpeg reads only the first): udta/meta's keys join moov/meta's.
            try MovieMetadataWriter.mergeUserData(in: &moov)
            try MovieMetadataWriter.remove(keys: removedMetadataKeys, in: &moov)
            try MovieMetadataWriter.set([.contentIdentifier(contentIdentifier)] + extraMetadata, in: &moov)
            if !keepExisting {
                let trak = StillImageTimeTrackWriter.track(
                    .init(
                        trackID: trackID, videoTrackID: video.header.trackID, movieTicks: ticks,
                        movieTimescale: timescale, creationTime: MovieHeaderEditing.creationTime(of: mvhd),
                        sampleOffset: layout.sampleOffset))
                let position = existingTrakIndex ?? ((moov.children.lastIndex { $0.type == "trak" } ?? 0) + 1)
                moov.insert(trak, at: min(position, moov.children.count))
                try moov.modify(["mvhd"]) { (header: inout BoxNode) throws(FormatError) in
                    let next = try MovieHeaderEditing.nextTrackID(of: header)
                    if next <= trackID, trackID < UInt32.max {
                        try MovieHeaderEditing.setNextTrackID(trackID + 1, in: &header)
                    }
                    try MovieHeaderEditing.extendDuration(toAtLeast: ticks + 1, in: &header)
                }
            }
            if !removedMetadataKeys.isEmpty {
                let droppedIDs = Set(movie.tracks.filter { track in
                    track.handlerType == "meta" && track != existing && !track.metadataKeyNames.isEmpty
                        && track.metadataKeyNames.allSatisfy(removedMetadataKeys.contains)
                }.map(\.header.trackID))
                moov.children.removeAll {
                    $0.type == "trak" && ChunkOffsetRelocation.trackID(of: $0).map(droppedIDs.contains) == true
                }
            }
            return moov
        }

        var moovSize = UInt64(boxes[moovIndex].size)
        for _ in 0..<8 {
            var layout = try self.layout(
                boxes: boxes, moovIndex: moovIndex, dropping: dropped, appendingSample: !keepExisting,
                newMoovSize: moovSize, keptData: compacted?.ranges, replacementData: replacement?.ranges)
            let moov = try buildMoov(layout)
            if moov.size == moovSize {
                layout.pieces[layout.moovPieceIndex] = .bytes(moov.serialized())
                let written = Double(ticks) / Double(timescale)
                let frame = StillImageTimeTrackWriter.snap(written + shift, toFramesOf: video).map { $0 - shift }
                let result = Result(
                    stillImageTime: written, stillFrameTime: frame ?? written, stillImageTicks: ticks,
                    movieTimescale: timescale, stillImageTrackID: trackID,
                    relocatedChunkOffsets: !layout.map.isIdentity, outputSize: layout.size)
                return Plan(pieces: layout.pieces, result: result)
            }
            moovSize = moov.size
        }
        throw .invalid(context: "moov", reason: "the new movie box's size did not settle")
    }

    /// The compactions of `movie`'s video and sound tracks for `trim`, and the byte ranges (sorted,
    /// merged) of every sample of the tracks kept (all but `leavingOut`): the compacted tracks'
    /// kept samples, the others' every sample. Nil when a kept track's tables disagree or point
    /// past the input's `sourceSize` bytes (the movie is then trimmed by edit lists alone).
    static func compactedData(
        of movie: QuickTimeMovie, trim: EditListTrim, leavingOut: Set<UInt32>, sourceSize: UInt64
    ) -> (compactions: [UInt32: TrackSampleCompaction], ranges: [Range<UInt64>])? {
        var compactions: [UInt32: TrackSampleCompaction] = [:]
        var ranges: [Range<UInt64>] = []
        for track in movie.tracks where !leavingOut.contains(track.header.trackID) {
            if track.handlerType == "vide" || track.handlerType == "soun",
                let compaction = TrackSampleCompaction(
                    track: track, needed: trim.neededMediaTimes(of: track, movieTimescale: movie.header.timescale))
            {
                compactions[track.header.trackID] = compaction
                ranges += compaction.byteRanges
            } else {
                guard let whole = TrackSampleCompaction.byteRanges(of: track.samples) else { return nil }
                ranges += whole
            }
        }
        var merged: [Range<UInt64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        guard merged.allSatisfy({ $0.upperBound <= sourceSize }) else { return nil }
        return (compactions, merged)
    }

    /// The sound track of the movie in `source`: its `trak` (chunk offsets in `source`) and the
    /// byte ranges of its samples. Throws when it has none, its tables disagree or point past the
    /// file, or its movie timescale is not `timescale`.
    static func soundTrack(in source: any ByteSource, timescale: UInt32) throws(FormatError) -> (trak: BoxNode, ranges: [Range<UInt64>]) {
        let scanner = TopLevelBoxScanner(limits: .default)
        let boxes = try scanner.scan(source)
        guard let moovBox = boxes.first(where: { $0.type == "moov" }) else {
            throw .invalid(context: "replacement sound", reason: "no moov box")
        }
        let loaded = try scanner.load(moovBox, from: source)
        let movie = try QuickTimeMovieParser().parse(moov: loaded, fileType: nil, topLevelBoxes: boxes)
        guard movie.header.timescale == timescale else {
            throw .unsupported(context: "replacement sound", reason: "its movie timescale \(movie.header.timescale) is not \(timescale)")
        }
        let moov = try BoxNode(loaded)
        guard let track = movie.tracks.first(where: { $0.handlerType == "soun" }),
            let trak = moov.children.first(where: { $0.type == "trak" && ChunkOffsetRelocation.trackID(of: $0) == track.header.trackID }),
            let ranges = TrackSampleCompaction.byteRanges(of: track.samples), ranges.allSatisfy({ $0.upperBound <= source.size })
        else {
            throw .invalid(context: "replacement sound", reason: "no sound track whose samples are in the file")
        }
        return (trak, ranges)
    }

    /// Sets the track id of a `tkhd` box.
    static func setTrackID(_ id: UInt32, in header: inout BoxNode) throws(FormatError) {
        guard var payload = header.payload, let version = payload.first else {
            throw .invalid(context: "tkhd", reason: "empty")
        }
        let offset = version == 1 ? 20 : 12
        guard payload.count >= offset + 4 else { throw .invalid(context: "tkhd", reason: "too short for a track id") }
        payload.replaceSubrange(offset..<offset + 4, with: ByteWriter.encode(UInt64(id), byteCount: 4))
        header.content = .leaf(payload)
    }

    /// Lays out the output for a new `moov` of `newMoovSize` bytes (whose bytes are filled in later):
    /// the input's boxes except `dropping`, the sample's own `mdat` when `appendingSample`, and `moov`.
    /// With `keptData`, the input's `mdat` boxes are left out and one `mdat` holding those byte
    /// ranges of the input takes the first one's place.
    private func layout(
        boxes: [TopLevelBox], moovIndex: Int, dropping: Set<Int>, appendingSample: Bool, newMoovSize: UInt64,
        keptData: [Range<UInt64>]? = nil, replacementData: [Range<UInt64>]? = nil
    ) throws(FormatError) -> Layout {
        var layout = Layout()
        var out: UInt64 = 0
        let sampleBox = BoxNode.leaf("mdat", StillImageTimeTrackWriter.sampleBytes)
        var keptDataWritten = keptData == nil

        /// An `mdat` of `ranges` (of the input, or of the replacement sound), mapped.
        func writeData(_ ranges: [Range<UInt64>], replacement: Bool) {
            let payload = ranges.reduce(UInt64(0)) { $0 + ($1.upperBound - $1.lowerBound) }
            let header = payload + 8 > UInt64(UInt32.max)
                ? ByteWriter.encode(1, byteCount: 4) + FourCC("mdat").bytes + ByteWriter.encode(payload + 16, byteCount: 8)
                : ByteWriter.encode(payload + 8, byteCount: 4) + FourCC("mdat").bytes
            layout.pieces.append(.bytes(header))
            out += UInt64(header.count)
            for range in ranges {
                if replacement {
                    layout.replacementMap.add(source: range, destination: out)
                    layout.pieces.append(.copyReplacement(range))
                } else {
                    layout.map.add(source: range, destination: out)
                    layout.pieces.append(.copy(range))
                }
                out += range.upperBound - range.lowerBound
            }
        }

        func writeKeptData() {
            guard let keptData, !keptDataWritten else { return }
            keptDataWritten = true
            writeData(keptData, replacement: false)
        }

        func copy(_ box: TopLevelBox) throws(FormatError) {
            let range = box.fileOffset..<box.fileOffset + box.size
            layout.map.add(source: range, destination: out)
            if box.sizeEncoding == .toEnd {
                // Size 0 means "to the end of the file", which is no longer true: count it.
                guard box.size <= UInt64(UInt32.max) else {
                    throw .unsupported(context: "\(box.type) box", reason: "a to-end box over 4 GiB cannot be followed")
                }
                layout.pieces.append(.bytes(ByteWriter.encode(box.size, byteCount: 4) + box.type.bytes))
                layout.pieces.append(.copy(range.lowerBound + 8..<range.upperBound))
            } else {
                layout.pieces.append(.copy(range))
            }
            out += box.size
        }

        if let replacementFileType, !boxes.contains(where: { $0.type == "ftyp" }) {
            layout.pieces.append(.bytes(replacementFileType))
            out += UInt64(replacementFileType.count)
        }
        for (index, box) in boxes.enumerated() where !dropping.contains(index) {
            if let replacementFileType, box.type == "ftyp" {
                layout.pieces.append(.bytes(replacementFileType))
                out += UInt64(replacementFileType.count)
                continue
            }
            if index == moovIndex {
                switch placement {
                case .end:
                    continue
                case .endKeepingFreeSpace:
                    // A free box of exactly the old size: same header form, zero payload.
                    let free = box.headerSize == 16
                        ? ByteWriter.encode(1, byteCount: 4) + FourCC("free").bytes + ByteWriter.encode(box.size, byteCount: 8)
                        : ByteWriter.encode(box.size, byteCount: 4) + FourCC("free").bytes
                    layout.pieces.append(.bytes(free))
                    layout.pieces.append(.zeros(box.size - UInt64(free.count)))
                    out += box.size
                    continue
                case .inPlace:
                    layout.moovPieceIndex = layout.pieces.count
                    layout.pieces.append(.bytes([]))
                    out += newMoovSize
                    continue
                }
            }
            if keptData != nil, box.type == "mdat" {
                writeKeptData()
                continue
            }
            try copy(box)
        }
        writeKeptData()
        if let replacementData { writeData(replacementData, replacement: true) }
        if appendingSample {
            layout.pieces.append(.bytes(sampleBox.serialized()))
            layout.sampleOffset = out + 8
            out += sampleBox.size
        }
        if placement != .inPlace {
            layout.moovPieceIndex = layout.pieces.count
            layout.pieces.append(.bytes([]))
            out += newMoovSize
        }
        layout.size = out
        return layout
    }

    // MARK: Output

    func emit(_ plan: Plan, to sink: any ByteSink) throws(FormatError) {
        let zeroChunk = [UInt8](repeating: 0, count: 1 << 16)
        for piece in plan.pieces {
            switch piece {
            case let .copy(range):
                try sink.copy(from: source, range: range)
            case let .copyReplacement(range):
                guard let replacementSound else { throw .invalid(context: "movie", reason: "no replacement sound to copy") }
                try sink.copy(from: replacementSound, range: range)
            case let .bytes(bytes):
                try sink.write(bytes)
            case var .zeros(count):
                while count > 0 {
                    let step = Int(min(count, UInt64(zeroChunk.count)))
                    try sink.write(zeroChunk[0..<step])
                    count -= UInt64(step)
                }
            }
        }
    }
}
