import Foundation
import LivePairFormats
import TestSupport
import Testing

@Suite("Writer: QuickTime movies")
struct MovieWriterTests {
    static let movies = ["live/train.mov", "live/IMG_3582.mov", "plain/IMG_3539.MOV", "plain/with-gps.mov"]

    /// Rewrites `input` and checks the output with LivePair's parser, ffprobe, ffmpeg and exiftool.
    @discardableResult
    func rewriteAndVerify(
        _ input: String, requested: Double?, placement: QuickTimeMovieRewriter.MoovPlacement = .end,
        quickTimeFileType: Bool = false, scratch: WriterScratch
    ) throws -> (output: String, result: QuickTimeMovieRewriter.Result) {
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let identifier = UUID().uuidString
        let output = scratch.file("out-\(UUID().uuidString).mov")
        let source = try FileByteSource(path: input)
        let original = try QuickTimeMovieParser().parse(source)
        var rewriter = QuickTimeMovieRewriter(source: source, placement: placement)
        rewriter.quickTimeFileType = quickTimeFileType
        let result = try rewriter.write(to: output, contentIdentifier: identifier, stillImageTime: requested)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before, "the input is never modified")

        // LivePair reads it back.
        let outSource = try FileByteSource(path: output)
        #expect(outSource.size == result.outputSize)
        let movie = try QuickTimeMovieParser().parse(outSource)
        #expect(movie.metadataValue(QuickTimeMovie.contentIdentifierKey)?.value.stringValue == identifier)
        #expect(movie.metadataValue(QuickTimeMovie.contentIdentifierKey)?.location == .movieMeta)
        let still = try #require(QuickTimeMovieParser().stillImageTime(of: movie, source: outSource))
        #expect(abs(still.seconds - result.stillImageTime) < 1e-9)
        #expect(still.sampleValue == -1)
        if placement != .inPlace { #expect(movie.topLevelBoxes.last?.type == "moov") }
        // Every original metadata item is still there (the identifier may have been replaced).
        for item in original.metadata where item.key != QuickTimeMovie.contentIdentifierKey {
            #expect(movie.metadata.contains(item), "\(item.key)")
        }
        #expect(movie.header.timescale == original.header.timescale)
        let video = try #require(movie.videoTrack)
        #expect(video.presentationTimes().contains { abs($0 - result.stillImageTime) < 1.0 / 600 + 1e-9 })
        let stillTrack = try #require(movie.stillImageTimeTrack)
        #expect(stillTrack.references["cdsc"] == [video.header.trackID])
        #expect(stillTrack.header.flags == 0xF)
        if let requested, let snapped = StillImageTimeTrackWriter.snap(requested, toFramesOf: video) {
            #expect(abs(snapped - result.stillImageTime) < 0.001)
        }

        guard ReferenceTool.isInstalled("ffprobe") else { return (output, result) }
        // ffprobe: the data stream's start time is the still time.
        let starts = try ReferenceTool.ffprobeStreamStartTimes(output)
        let index = try #require(movie.tracks.firstIndex { $0.header.trackID == still.trackID })
        try #require(starts.count == movie.tracks.count)
        let start = try #require(starts[index])
        #expect(abs(start - result.stillImageTime) < 0.001, "ffprobe start_time \(start)")
        // Every original stream is unchanged, except a replaced still-image-time track.
        let replaced = original.stillImageTimeTrack.map { "0x" + String($0.header.trackID, radix: 16) }
        let inputStreams = try MovieOracle.streams(input)
        let outputStreams = try MovieOracle.streams(output)
        if inputStreams.count > 1 {
            let values = Array(inputStreams.values)
            #expect(!NSDictionary(dictionary: values[0]).isEqual(to: values[1]), "the comparison can tell streams apart")
        }
        #expect(outputStreams.count == inputStreams.count + (replaced == nil ? 1 : 0))
        for (id, stream) in inputStreams where id != replaced {
            let written = try #require(outputStreams[id], "stream \(id)")
            #expect(NSDictionary(dictionary: written).isEqual(to: stream), "stream \(id) of \(input)")
        }
        #expect(try ReferenceTool.videoPacketMD5(output) == ReferenceTool.videoPacketMD5(input))
        #expect(try MovieOracle.decodedVideoMD5(output) == MovieOracle.decodedVideoMD5(input), "every frame decodes the same")
        if ReferenceTool.isInstalled("exiftool") {
            #expect(try MovieOracle.exifToolContentIdentifier(output) == identifier)
        }
        return (output, result)
    }

    @Test("camera and plain movies become Live Photo movies", arguments: movies)
    func rewriteSamples(file: String) throws {
        let scratch = try WriterScratch()
        let path = SampleMedia.path(file)
        let duration = try QuickTimeMovieParser().parse(FileByteSource(path: path)).header.durationSeconds
        try rewriteAndVerify(path, requested: duration * 0.37, scratch: scratch)
        #expect(try scratch.contents().allSatisfy { $0.hasPrefix("out-") }, "no temporary file left")
    }

    @Test("the exact camera layout: prefix copied, sample mdat, then moov; nothing relocated")
    func cameraLayout() throws {
        let scratch = try WriterScratch()
        let path = SampleMedia.path("live/train.mov")
        let (output, result) = try rewriteAndVerify(path, requested: 0.7, scratch: scratch)
        #expect(!result.relocatedChunkOffsets)
        let input = try FileByteSource(path: path)
        let boxes = try TopLevelBoxScanner().scan(input)
        let moov = try #require(boxes.first { $0.type == "moov" })
        let written = try FileByteSource(path: output)
        let prefix = try written.readExactly(at: 0, count: Int(moov.fileOffset), context: "prefix")
        #expect(prefix == (try input.readExactly(at: 0, count: Int(moov.fileOffset), context: "prefix")))
        let sampleBox = try written.readExactly(at: moov.fileOffset, count: 17, context: "sample")
        #expect(sampleBox == [0, 0, 0, 17] + Array("mdat".utf8) + StillImageTimeTrackWriter.sampleBytes)
        // The replaced track keeps its id; its timing follows the request (0.7 s snapped to a frame).
        let movie = try QuickTimeMovieParser().parse(written)
        #expect(result.stillImageTrackID == 4)
        #expect(movie.tracks.count == 4)
        #expect(abs(result.stillImageTime - 0.7) <= 1.0 / 30)
    }

    @Test("without a requested time an existing still-image-time track is kept")
    func keepsExistingStillTime() throws {
        let scratch = try WriterScratch()
        let (_, result) = try rewriteAndVerify(SampleMedia.path("live/IMG_3582.mov"), requested: nil, scratch: scratch)
        #expect(abs(result.stillImageTime - 799.0 / 600) < 1e-9)
    }

    @Test("fast-start movies: moov moved to the end, kept in place, or left as free space")
    func fastStart() throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let scratch = try WriterScratch()
        let faststart = scratch.file("faststart.mov")
        _ = try ReferenceTool.run(
            "ffmpeg", ["-v", "error", "-i", SampleMedia.path("live/train.mov"), "-map", "0:v", "-map", "0:a", "-c", "copy",
                "-movflags", "+faststart", faststart])
        let boxes = try TopLevelBoxScanner().scan(FileByteSource(path: faststart))
        let moovIndex = try #require(boxes.firstIndex { $0.type == "moov" })
        let mdatIndex = try #require(boxes.firstIndex { $0.type == "mdat" })
        try #require(moovIndex < mdatIndex, "ffmpeg wrote moov first")
        for placement: QuickTimeMovieRewriter.MoovPlacement in [.end, .inPlace, .endKeepingFreeSpace] {
            let (output, result) = try rewriteAndVerify(faststart, requested: 0.5, placement: placement, scratch: scratch)
            #expect(result.relocatedChunkOffsets == (placement != .endKeepingFreeSpace), "\(placement)")
            let written = try TopLevelBoxScanner().scan(FileByteSource(path: output))
            switch placement {
            case .end: #expect(written.map(\.type) == ["ftyp", "wide", "mdat", "mdat", "moov"].map(FourCC.init))
            case .inPlace: #expect(written.map(\.type) == ["ftyp", "moov", "wide", "mdat", "mdat"].map(FourCC.init))
            case .endKeepingFreeSpace:
                #expect(written.map(\.type) == ["ftyp", "free", "wide", "mdat", "mdat", "moov"].map(FourCC.init))
            }
        }
    }

    @Test("an MP4 gets Apple's file type and stays playable")
    func mp4ToQuickTime() throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let scratch = try WriterScratch()
        let mp4 = scratch.file("movie.mp4")
        _ = try ReferenceTool.run(
            "ffmpeg", ["-v", "error", "-i", SampleMedia.path("live/IMG_3582.mov"), "-map", "0:v:0", "-c", "copy", "-f", "mp4", mp4])
        let input = try FileByteSource(path: mp4)
        #expect(try QuickTimeMovieParser().parse(input).fileType?.majorBrand != "qt  ")
        let (output, result) = try rewriteAndVerify(mp4, requested: 1.0, quickTimeFileType: true, scratch: scratch)
        let movie = try QuickTimeMovieParser().parse(FileByteSource(path: output))
        #expect(movie.fileType?.majorBrand == "qt  ")
        #expect(result.relocatedChunkOffsets)
        let written = try FileByteSource(path: output).readExactly(at: 0, count: 20, context: "ftyp")
        #expect(written == QuickTimeMovieRewriter.quickTimeFileTypeBox)
    }

    @Test("a failing write leaves no output, no temporary file, and the input intact")
    func failingWrite() throws {
        let scratch = try WriterScratch()
        let input = SampleMedia.path("live/train.mov")
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let output = scratch.file("never.mov")
        #expect(throws: FormatError.self) {
            try QuickTimeMovieRewriter(source: FileByteSource(path: input))
                .write(to: output, contentIdentifier: UUID().uuidString, stillImageTime: 0.5) { sink in
                    FailingSink(sink, failAfter: 100_000)
                }
        }
        #expect(try scratch.contents().isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
        // An existing destination survives a failed replacement untouched.
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: output))
        #expect(throws: FormatError.self) {
            try QuickTimeMovieRewriter(source: FileByteSource(path: input))
                .write(to: output, contentIdentifier: UUID().uuidString, stillImageTime: 0.5) { sink in
                    FailingSink(sink, failAfter: 1_000_000)
                }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data([1, 2, 3]))
        #expect(try scratch.contents() == ["never.mov"])
        // A directory that does not exist cannot be written.
        #expect(throws: FormatError.self) {
            try QuickTimeMovieRewriter(source: FileByteSource(path: input))
                .write(to: scratch.file("missing/dir/out.mov"), contentIdentifier: "X", stillImageTime: 0.5)
        }
    }

    @Test("restamping a rewritten movie again does not grow it")
    func restampTwice() throws {
        let scratch = try WriterScratch()
        let (first, firstResult) = try rewriteAndVerify(SampleMedia.path("plain/IMG_3539.MOV"), requested: 0.2, scratch: scratch)
        let (second, secondResult) = try rewriteAndVerify(first, requested: 0.4, scratch: scratch)
        #expect(secondResult.outputSize == firstResult.outputSize)
        #expect(secondResult.stillImageTrackID == firstResult.stillImageTrackID)
        let (_, thirdResult) = try rewriteAndVerify(second, requested: nil, scratch: scratch)
        #expect(thirdResult.outputSize == firstResult.outputSize)
        #expect(thirdResult.stillImageTime == secondResult.stillImageTime)
        let types = try TopLevelBoxScanner().scan(FileByteSource(path: second)).map(\.type)
        #expect(types == ["ftyp", "wide", "mdat", "mdat", "moov"].map(FourCC.init))
    }

    @Test("rewriting a file over itself (in place) is atomic and keeps its permissions")
    func inPlace() throws {
        let scratch = try WriterScratch()
        let path = scratch.file("movie.mov")
        try FileManager.default.copyItem(atPath: SampleMedia.path("live/IMG_3582.mov"), toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try QuickTimeMovieRewriter(path: path).write(to: path, contentIdentifier: "IN-PLACE", stillImageTime: 1.0)
        let movie = try QuickTimeMovieParser().parse(FileByteSource(path: path))
        #expect(movie.metadataValue(QuickTimeMovie.contentIdentifierKey)?.value.stringValue == "IN-PLACE")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try scratch.contents() == ["movie.mov"])
    }

    @Test("metadata: existing keys kept, an existing identifier replaced, a new meta created")
    func metadata() throws {
        let moovBytes = BoxBuilder.box("moov", BoxBuilder.mvhd())
        var moov = try BoxNode(BoxParser().parseBox(moovBytes, fileOffset: 0))
        try MovieMetadataWriter.set([.utf8("com.example.a", "first"), .contentIdentifier("ONE")], in: &moov)
        try MovieMetadataWriter.set([.contentIdentifier("TWO"), .utf8("com.example.b", "second")], in: &moov)
        let bytes = moov.serialized()
        let box = try BoxParser().parseBox(bytes, fileOffset: 0)
        let movie = try QuickTimeMovieParser().parse(moov: box, fileType: nil, topLevelBoxes: [])
        #expect(movie.metadata.map(\.key) == ["com.example.a", QuickTimeMovie.contentIdentifierKey, "com.example.b"])
        #expect(movie.metadataValue(QuickTimeMovie.contentIdentifierKey)?.value.stringValue == "TWO")
        #expect(movie.metadataValue("com.example.a")?.value.stringValue == "first")
        // QuickTime form: hdlr directly after the meta header, no version and flags.
        let meta = try #require(box.child("meta"))
        #expect(BoxParser.isQuickTimeMeta(try meta.payloadReader()))
        #expect(meta.children.map(\.type) == ["hdlr", "keys", "ilst"])
    }
}
