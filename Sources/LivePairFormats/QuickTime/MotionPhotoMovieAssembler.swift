/// Makes the MP4 embedded in a motion photo from a Live Photo movie (already stamped, with its
/// `ftyp`): what Android's readers decode, and nothing they would misread.
///
/// - Every track but the ones below keeps its boxes, and its samples are copied byte for byte (the
///   video packets are never re-encoded).
/// - Timed-metadata tracks with a `mebx` sample entry (an iPhone's still-image-time,
///   live-photo-info and still-image-transform tracks) are dropped: androidx/media3 skips them, and
///   the still time is in the motion photo's XMP.
/// - An audio track that is not AAC (`mp4a`), such as an iPhone's QuickTime `lpcm`, is replaced by
///   the first audio track of `audio` (the same sound encoded to AAC), which keeps the replaced
///   track's id and position; a further non-AAC audio track is dropped. AAC tracks stay as they are.
///
/// Only the samples of the kept tracks are written: the output is `ftyp`, one `mdat` and `moov`.
public struct MotionPhotoMovieAssembler: Sendable {
    /// What was written.
    public struct Result: Sendable, Equatable {
        /// The `mebx` tracks dropped, each as the timed-metadata keys it carried.
        public let droppedMetadataTracks: [[String]]
        /// The sample entry format of the audio track replaced by AAC (`lpcm`), when one was.
        public let replacedAudioFormat: FourCC?
        /// The formats of further non-AAC audio tracks dropped.
        public let droppedAudioFormats: [FourCC]
        /// Size of the output in bytes.
        public let outputSize: UInt64
    }

    /// The movie read.
    public let movie: any ByteSource
    /// A movie whose first audio track (AAC) replaces the movie's non-AAC one; nil keeps the audio.
    public let audio: (any ByteSource)?
    /// Limits for parsing the inputs.
    public var limits: ParseLimits

    /// An assembler of `movie`, with `audio` for its non-AAC audio track.
    public init(movie: any ByteSource, audio: (any ByteSource)?, limits: ParseLimits = .default) {
        self.movie = movie
        self.audio = audio
        self.limits = limits
    }

    /// The sample entry format of AAC audio.
    public static let aacFormat: FourCC = "mp4a"

    /// Whether `movie` has an audio track that is not AAC (one `audio` must replace).
    public static func needsAACAudio(_ movie: QuickTimeMovie) -> Bool {
        movie.tracks.contains { isNonAACAudio($0) }
    }

    /// Whether `track` is dropped as a timed-metadata track (`mebx`).
    public static func isDroppedMetadata(_ track: Track) -> Bool {
        track.handlerType == "meta" && track.sampleDescriptions.contains { $0.format == "mebx" }
    }

    private static func isNonAACAudio(_ track: Track) -> Bool {
        track.handlerType == "soun" && track.primaryDescription?.format != aacFormat
    }

    /// Writes the MP4 to `sink` (front to back).
    @discardableResult
    public func write(to sink: any ByteSink) throws(FormatError) -> Result {
        let source = try Self.load(movie, limits: limits)
        var moov = source.moov
        let trakIndices = moov.children.indices.filter { moov.children[$0].type == "trak" }
        guard trakIndices.count == source.movie.tracks.count else {
            throw .invalid(context: "moov", reason: "the tracks do not read one by one")
        }
        var droppedMetadata: [[String]] = []
        var droppedAudio: [FourCC] = []
        var replaced: (index: Int, trackID: UInt32, format: FourCC, duration: UInt64)?
        var removed: Set<Int> = []
        var kept: [Track] = []
        for (track, index) in zip(source.movie.tracks, trakIndices) {
            if Self.isDroppedMetadata(track) {
                droppedMetadata.append(track.metadataKeyNames)
                removed.insert(index)
            } else if audio != nil, Self.isNonAACAudio(track) {
                let format = track.primaryDescription?.format ?? "    "
                if replaced == nil {
                    replaced = (index, track.header.trackID, format, track.header.duration)
                } else {
                    droppedAudio.append(format)
                }
                removed.insert(index)
            } else {
                kept.append(track)
            }
        }

        // The new track first: its samples follow the movie's in the one mdat.
        var audioTrak: BoxNode?
        var audioSource: LoadedMovie?
        if let audio, replaced != nil {
            let loaded = try Self.load(audio, limits: limits)
            guard let position = zip(loaded.movie.tracks, loaded.moov.children.indices.filter({ loaded.moov.children[$0].type == "trak" }))
                .first(where: { $0.0.handlerType == "soun" && $0.0.primaryDescription?.format == Self.aacFormat })
            else {
                throw .invalid(context: "AAC audio", reason: "the encoded movie has no AAC audio track")
            }
            audioTrak = loaded.moov.children[position.1]
            audioSource = loaded
        }

        let movieRanges = try Self.sampleRanges(of: kept, size: movie.size)
        let audioRanges = try audioSource.map { loaded throws(FormatError) in
            try Self.sampleRanges(of: loaded.movie.tracks.filter { $0.handlerType == "soun" && $0.primaryDescription?.format == Self.aacFormat }.prefix(1), size: loaded.source.size)
        } ?? []
        let dataSize = (movieRanges + audioRanges).reduce(UInt64(0)) { $0 + UInt64($1.count) }
        let mdatHeader = dataSize + 8 > UInt64(UInt32.max)
            ? ByteWriter.encode(1, byteCount: 4) + FourCC("mdat").bytes + ByteWriter.encode(dataSize + 16, byteCount: 8)
            : ByteWriter.encode(dataSize + 8, byteCount: 4) + FourCC("mdat").bytes
        let fileType = try source.fileTypeBytes(limits: limits)
        var position = UInt64(fileType.count + mdatHeader.count)
        var movieMap = OffsetMap()
        for range in movieRanges {
            movieMap.add(source: range, destination: position)
            position += UInt64(range.count)
        }
        var audioMap = OffsetMap()
        for range in audioRanges {
            audioMap.add(source: range, destination: position)
            position += UInt64(range.count)
        }

        for index in removed.sorted(by: >) { moov.children.remove(at: index) }
        try ChunkOffsetRelocation.relocateAll(in: &moov, map: movieMap)
        if let replaced, var trak = audioTrak, let audioSource {
            var holder = BoxNode.container("moov", [trak])
            try ChunkOffsetRelocation.relocateAll(in: &holder, map: audioMap)
            trak = holder.children[0]
            try Self.retime(
                &trak, from: audioSource.movie.header.timescale, to: source.movie.header.timescale, trackID: replaced.trackID,
                endingBy: replaced.duration)
            let at = replaced.index - removed.filter { $0 < replaced.index }.count
            moov.insert(trak, at: at)
        }
        let moovBytes = moov.serialized()

        try sink.write(fileType)
        try sink.write(mdatHeader)
        for range in movieRanges { try sink.copy(from: movie, range: range) }
        if let audio { for range in audioRanges { try sink.copy(from: audio, range: range) } }
        try sink.write(moovBytes)
        return Result(
            droppedMetadataTracks: droppedMetadata, replacedAudioFormat: replaced?.format, droppedAudioFormats: droppedAudio,
            outputSize: position + UInt64(moovBytes.count))
    }

    // MARK: Reading

    private struct LoadedMovie {
        let source: any ByteSource
        let boxes: [TopLevelBox]
        let moov: BoxNode
        let movie: QuickTimeMovie

        /// The input's `ftyp` box, or the MPEG-4 one when it has none.
        func fileTypeBytes(limits: ParseLimits) throws(FormatError) -> [UInt8] {
            guard let ftyp = boxes.first(where: { $0.type == "ftyp" }), ftyp.size <= 4096 else {
                return QuickTimeMovieRewriter.mpeg4FileTypeBox
            }
            var reader = try source.reader(at: ftyp.fileOffset, count: Int(ftyp.size), context: "ftyp")
            return reader.rest()
        }
    }

    private static func load(_ source: any ByteSource, limits: ParseLimits) throws(FormatError) -> LoadedMovie {
        let scanner = TopLevelBoxScanner(limits: limits)
        let boxes = try scanner.scan(source)
        guard let moovHeader = boxes.first(where: { $0.type == "moov" }) else {
            throw .invalid(context: "movie", reason: "no moov box")
        }
        let moovBox = try scanner.load(moovHeader, from: source)
        let movie = try QuickTimeMovieParser(limits: limits).parse(moov: moovBox, fileType: nil, topLevelBoxes: boxes)
        return LoadedMovie(source: source, boxes: boxes, moov: try BoxNode(moovBox), movie: movie)
    }

    /// The byte ranges holding the samples of `tracks`, sorted and merged.
    static func sampleRanges<S: Sequence<Track>>(of tracks: S, size: UInt64) throws(FormatError) -> [Range<UInt64>] {
        var ranges: [Range<UInt64>] = []
        for track in tracks {
            guard let chunks = track.samples.chunkRanges() else {
                throw .invalid(context: "trak \(track.header.trackID)", reason: "its sample tables do not describe its chunks")
            }
            for chunk in chunks where !chunk.isEmpty {
                guard chunk.upperBound <= size else {
                    throw .invalid(context: "trak \(track.header.trackID)", reason: "a chunk ends past the end of the movie")
                }
                ranges.append(chunk)
            }
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<UInt64>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    // MARK: Writing the new track

    /// Gives `trak` the id `trackID` and moves its `tkhd` duration and edit list from the movie
    /// timescale `from` to `to` (its media timescale is its own and stays). The track ends by
    /// `end` (ticks of `to`, the replaced track's duration) when it is longer: the encoder's
    /// padding after the last sound is cut by the edit list, as the priming before it is.
    static func retime(
        _ trak: inout BoxNode, from: UInt32, to: UInt32, trackID: UInt32, endingBy end: UInt64
    ) throws(FormatError) {
        func rescale(_ value: UInt64) -> UInt64 {
            let (product, overflow) = value.multipliedReportingOverflow(by: UInt64(to))
            guard from > 0, !overflow else { return value }
            return (product + UInt64(from) / 2) / UInt64(from)
        }
        var start: UInt64 = 0
        try trak.modify(["tkhd"]) { (tkhd: inout BoxNode) throws(FormatError) in
            guard var payload = tkhd.payload, payload.count >= 4 else {
                throw .invalid(context: "tkhd", reason: "too short for a track header")
            }
            let large = payload[0] == 1
            let idOffset = large ? 20 : 12
            let durationOffset = idOffset + 8
            let width = large ? 8 : 4
            guard payload.count >= durationOffset + width else {
                throw .invalid(context: "tkhd", reason: "too short for a track header")
            }
            payload.replaceSubrange(idOffset..<idOffset + 4, with: ByteWriter.encode(UInt64(trackID), byteCount: 4))
            var reader = ByteReader(payload, context: "tkhd")
            try reader.seek(to: durationOffset)
            let duration = large ? try reader.u64() : UInt64(try reader.u32())
            let scaled = end > 0 ? min(rescale(duration), end) : rescale(duration)
            guard large || scaled <= UInt64(UInt32.max) else {
                throw .unsupported(context: "tkhd", reason: "duration \(scaled) does not fit a version 0 header")
            }
            payload.replaceSubrange(durationOffset..<durationOffset + width, with: ByteWriter.encode(scaled, byteCount: width))
            tkhd.content = .leaf(payload)
        }
        guard trak.descendant(["edts", "elst"]) != nil else { return }
        try trak.modify(["edts", "elst"]) { (elst: inout BoxNode) throws(FormatError) in
            guard var payload = elst.payload, payload.count >= 8 else {
                throw .invalid(context: "elst", reason: "too short for an edit list")
            }
            let large = payload[0] == 1
            var reader = ByteReader(payload, context: "elst")
            try reader.seek(to: 4)
            let count = Int(try reader.u32())
            let entrySize = large ? 20 : 12
            guard payload.count >= 8 + count * entrySize else {
                throw .invalid(context: "elst", reason: "\(count) entries do not fit")
            }
            for entry in 0..<count {
                let offset = 8 + entry * entrySize
                try reader.seek(to: offset)
                let duration = large ? try reader.u64() : UInt64(try reader.u32())
                // Each edit keeps its place; the last one that would pass `end` stops there.
                var scaled = rescale(duration)
                if end > 0 { scaled = min(scaled, end > start ? end - start : 0) }
                start += scaled
                guard large || scaled <= UInt64(UInt32.max) else {
                    throw .unsupported(context: "elst", reason: "duration \(scaled) does not fit a version 0 edit")
                }
                payload.replaceSubrange(offset..<offset + (large ? 8 : 4), with: ByteWriter.encode(scaled, byteCount: large ? 8 : 4))
            }
            elst.content = .leaf(payload)
        }
    }
}

extension SampleTable {
    /// The byte range of every chunk (from its offset, the sizes of its samples), in chunk order;
    /// nil when `stsc` does not fit the chunk and sample counts.
    func chunkRanges() -> [Range<UInt64>]? {
        var ranges: [Range<UInt64>] = []
        ranges.reserveCapacity(chunkOffsets.count)
        var sample = 0
        for (runIndex, run) in sampleToChunk.enumerated() {
            guard run.firstChunk >= 1, run.samplesPerChunk > 0 else { return nil }
            let nextFirst = runIndex + 1 < sampleToChunk.count
                ? Int(sampleToChunk[runIndex + 1].firstChunk) : chunkOffsets.count + 1
            guard nextFirst >= Int(run.firstChunk), nextFirst - 1 <= chunkOffsets.count else { return nil }
            for chunk in Int(run.firstChunk) - 1..<nextFirst - 1 {
                var size: UInt64 = 0
                for _ in 0..<Int(run.samplesPerChunk) {
                    guard let sampleSize = sampleSize(at: sample) else { return nil }
                    size += UInt64(sampleSize)
                    sample += 1
                }
                let start = chunkOffsets[chunk]
                let (end, overflow) = start.addingReportingOverflow(size)
                guard !overflow else { return nil }
                ranges.append(start..<end)
            }
        }
        return sample == Int(sampleCount) ? ranges : nil
    }
}
