@testable import LivePairFormats
import TestSupport
import Testing

/// `EditListTrim.keepsOnlyNeededSamples` through `QuickTimeMovieRewriter`: the trimmed movie keeps
/// only the samples its window needs (`TrackSampleCompaction`), and a movie whose tables disagree
/// is trimmed by edit lists alone, never a trap.
@Suite("Trimmed movies keep only the samples they need")
struct TrackSampleCompactionTests {
    /// The bytes of `samples` (all when nil) of the first track with `handler` in the movie `bytes`,
    /// read chunk by chunk through its tables, in decode order, with the track.
    static func sampleBytes(_ bytes: [UInt8], handler: FourCC, samples: Range<Int>? = nil) throws -> (bytes: [UInt8], track: Track) {
        let movie = try QuickTimeMovieParser().parse(MemoryByteSource(bytes))
        let track = try #require(movie.tracks.first { $0.handlerType == handler })
        let table = track.samples
        let wanted = samples ?? 0..<Int(table.sampleCount)
        let size = { (index: Int) in Int(table.constantSampleSize != 0 ? table.constantSampleSize : table.sampleSizes[index]) }
        var result: [UInt8] = []
        for chunk in try #require(TrackSampleCompaction.chunks(of: table)) {
            var offset = Int(chunk.offset)
            for index in chunk.first..<chunk.first + chunk.count {
                if wanted.contains(index) { result += bytes[offset..<offset + size(index)] }
                offset += size(index)
            }
        }
        return (result, track)
    }

    /// `bytes` trimmed to `window` (movie ticks), keeping only the samples needed.
    static func trimmed(_ bytes: [UInt8], window: Range<UInt64>) throws -> [UInt8] {
        var rewriter = QuickTimeMovieRewriter(source: MemoryByteSource(bytes))
        rewriter.trim = EditListTrim(window: window, keepsOnlyNeededSamples: true)
        let sink = MemoryByteSink()
        try rewriter.write(to: sink, contentIdentifier: "E905E6C6-C747-4805-942F-9904A0281F02", stillImageTime: 0.1)
        return sink.bytes
    }

    @Test("train.mov (H.264 + PCM) trimmed to 0.2-0.8 s: a run of the video and sound samples, byte for byte, from a sync sample; smaller")
    func trainTrimmed() throws {
        let original = try SampleMedia.bytes("live/train.mov")
        let movie = try QuickTimeMovieParser().parse(MemoryByteSource(original))
        let timescale = UInt64(movie.header.timescale)
        let output = try Self.trimmed(original, window: timescale / 5..<timescale * 4 / 5)
        #expect(output.count < original.count)
        let trimmedMovie = try QuickTimeMovieParser().parse(MemoryByteSource(output))
        #expect(trimmedMovie.header.duration == timescale * 3 / 5)
        let window = timescale / 5..<timescale * 4 / 5
        for handler: FourCC in ["vide", "soun"] {
            let track = try #require(movie.tracks.first { $0.handlerType == handler })
            let compaction = try #require(
                TrackSampleCompaction(track: track, needed: EditListTrim(window: window).neededMediaTimes(of: track, movieTimescale: movie.header.timescale)))
            let kept = compaction.kept
            #expect(!kept.isEmpty && kept.count < Int(track.samples.sampleCount), "\(handler): \(kept) of \(track.samples.sampleCount)")
            // The kept samples' bytes, the original's of that run byte for byte.
            let (output, trimmedTrack) = try Self.sampleBytes(output, handler: handler)
            #expect(trimmedTrack.samples.sampleCount == UInt32(kept.count))
            #expect(output == (try Self.sampleBytes(original, handler: handler, samples: kept)).bytes, "\(handler)")
            // The run starts at a sync sample and covers 0.2-0.8 s of media.
            #expect(track.samples.syncSamples.map { $0.contains(UInt32(kept.lowerBound + 1)) } ?? true)
            let times = track.samples.presentationTimes(limit: Int(track.samples.sampleCount))
            let mediaScale = Double(track.media.timescale)
            #expect(Double(times[kept.lowerBound]) <= 0.2 * mediaScale + 1 && Double(times[kept.upperBound - 1]) < 0.8 * mediaScale)
            #expect(kept.upperBound == times.count || Double(times[kept.upperBound]) >= 0.8 * mediaScale - 1)
        }
        let video = try #require(trimmedMovie.videoTrack)
        #expect(video.samples.syncSamples.map { $0.first == 1 } ?? true)
        // The edit list still starts at the first frame presented at or after 0.2 s.
        let originalVideo = try #require(movie.videoTrack)
        let compaction = try #require(
            TrackSampleCompaction(
                track: originalVideo, needed: EditListTrim(window: window).neededMediaTimes(of: originalVideo, movieTimescale: movie.header.timescale)))
        #expect(video.editList.first?.mediaTime == (originalVideo.editList.first?.mediaTime ?? 0)
            + Int64((0.2 * Double(originalVideo.media.timescale)).rounded()) - compaction.mediaTimeShift)
    }

    @Test("a sample-to-chunk table claiming more samples than the sizes give: trimmed by edit lists alone, every sample kept")
    func disagreeingTablesKeepEverySample() throws {
        var original = try SampleMedia.bytes("live/train.mov")
        // The first stsc's first entry claims 1,000 more samples per chunk.
        let stsc = try #require((0..<original.count - 4).first { Array(original[$0..<$0 + 4]) == Array("stsc".utf8) })
        let samplesPerChunk = stsc + 4 + 4 + 4 + 4
        let value = original[samplesPerChunk..<samplesPerChunk + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } + 1000
        original.replaceSubrange(samplesPerChunk..<samplesPerChunk + 4, with: (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) })
        let movie = try QuickTimeMovieParser().parse(MemoryByteSource(original))
        let timescale = UInt64(movie.header.timescale)
        let output = try Self.trimmed(original, window: timescale / 5..<timescale * 4 / 5)
        let trimmedMovie = try QuickTimeMovieParser().parse(MemoryByteSource(output))
        let sampleCounts = { (movie: QuickTimeMovie) in movie.tracks.filter { $0.handlerType != "meta" }.map(\.samples.sampleCount) }
        #expect(sampleCounts(trimmedMovie) == sampleCounts(movie))
        #expect(trimmedMovie.header.duration == timescale * 3 / 5)
    }
}
