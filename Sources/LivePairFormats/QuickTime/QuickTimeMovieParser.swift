/// Reads a QuickTime or MP4 movie's structure with as little I/O as possible: the top-level box
/// headers, then `moov` (and, for the still-image time, one sample of a few bytes). `mdat` is never read.
public struct QuickTimeMovieParser: Sendable {
    /// The limits applied.
    public let limits: ParseLimits

    /// A parser applying `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// Parses the movie in `source`. Throws when there is no `moov` box or it is malformed.
    public func parse(_ source: any ByteSource) throws(FormatError) -> QuickTimeMovie {
        let scanner = TopLevelBoxScanner(limits: limits)
        let boxes = try scanner.scan(source)
        return try parse(source, topLevelBoxes: boxes)
    }

    /// Parses the movie given its already scanned top-level boxes.
    public func parse(_ source: any ByteSource, topLevelBoxes boxes: [TopLevelBox]) throws(FormatError) -> QuickTimeMovie {
        let scanner = TopLevelBoxScanner(limits: limits)
        guard let moovHeader = boxes.first(where: { $0.type == "moov" }) else {
            if let last = boxes.last, last.isTruncated {
                throw .truncated(
                    context: "movie (no moov box before the file ends)", needed: last.size,
                    available: source.size - last.fileOffset)
            }
            throw .invalid(context: "movie", reason: "no moov box")
        }
        var fileType: FileTypeBox?
        if let ftyp = boxes.first(where: { $0.type == "ftyp" }), !ftyp.isTruncated, ftyp.payloadSize <= 4096 {
            let reader = try source.reader(at: ftyp.payloadFileOffset, count: Int(ftyp.payloadSize), context: "ftyp")
            fileType = try FileTypeBox(payload: reader)
        }
        let moov = try scanner.load(moovHeader, from: source)
        return try parse(moov: moov, fileType: fileType, topLevelBoxes: boxes)
    }

    /// Interprets a parsed `moov` box.
    public func parse(moov: Box, fileType: FileTypeBox?, topLevelBoxes: [TopLevelBox]) throws(FormatError) -> QuickTimeMovie {
        guard let mvhd = moov.child("mvhd") else { throw .invalid(context: "moov", reason: "no mvhd box") }
        let header = try MovieHeader(mvhd)
        var tracks: [Track] = []
        for trak in moov.children("trak") {
            tracks.append(try Track(trak, movieTimescale: header.timescale, limits: limits))
        }
        let metadata = try moov.child("meta").map { box throws(FormatError) in
            try MetadataItemsParser.parse(box, limits: limits)
        } ?? []
        let userData = try moov.descendant(["udta", "meta"]).map { box throws(FormatError) in
            try MetadataItemsParser.parse(box, limits: limits)
        } ?? []
        return QuickTimeMovie(
            fileType: fileType, header: header, tracks: tracks, metadata: metadata, userDataMetadata: userData,
            topLevelBoxes: topLevelBoxes)
    }

    /// The still-image time of `movie`: the presentation time on the movie timeline of the first
    /// sample of the still-image-time track, with its edit list applied. Reads that sample's bytes
    /// (a few bytes) from `source` for its value. Nil when the movie has no such track or sample.
    public func stillImageTime(of movie: QuickTimeMovie, source: (any ByteSource)?) -> StillImageTime? {
        guard let track = movie.stillImageTimeTrack,
            let mediaTime = track.samples.presentationTimes(limit: 1).first,
            let seconds = track.timeline.movieTime(ofMediaTime: mediaTime)
        else { return nil }
        var value: Int8?
        if let source, let offset = track.samples.sampleOffset(at: 0), let size = track.samples.sampleSize(at: 0),
            size >= 9, size <= 4096,
            let bytes = try? source.readExactly(at: offset, count: Int(size), context: "still-image-time sample")
        {
            value = Self.stillImageValue(in: bytes, keys: track.sampleDescriptions.first?.metadataKeys ?? [])
        }
        return StillImageTime(seconds: seconds, trackID: track.header.trackID, sampleValue: value)
    }

    /// Finds the still-image-time value in a `mebx` sample: `{u32 size, u32 local key id, value}` records.
    static func stillImageValue(in sample: [UInt8], keys: [TimedMetadataKey]) -> Int8? {
        guard let key = keys.first(where: { $0.name == QuickTimeMovie.stillImageTimeKey }) else { return nil }
        var reader = ByteReader(sample, context: "mebx sample")
        while reader.remaining >= 8 {
            guard let size = try? reader.u32(), size >= 8, let id = try? reader.u32(),
                let body = try? reader.subReader(count: Int(size) - 8)
            else { return nil }
            if id == key.localID, body.remaining >= 1 { return Int8(bitPattern: body.bytes[body.position]) }
        }
        return nil
    }
}
