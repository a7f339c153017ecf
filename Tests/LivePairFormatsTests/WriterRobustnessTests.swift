import Foundation
import LivePairFormats
import TestSupport
import Testing

/// A small deterministic generator, so damaged inputs are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Writer: damaged inputs never crash the writers")
struct WriterRobustnessTests {
    /// `bytes` with `flips` random bytes of `range` replaced.
    static func damaged(_ bytes: [UInt8], in range: Range<Int>, flips: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix(state: seed)
        var copy = bytes
        for _ in 0..<flips {
            copy[Int.random(in: range, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        }
        return copy
    }

    @Test("movies with damaged moov boxes: the rewriter throws or writes a parsable movie")
    func damagedMovies() throws {
        for file in ["live/train.mov", "plain/with-gps.mov"] {
            let bytes = try SampleMedia.bytes(file)
            let moov = try #require(try TopLevelBoxScanner().scan(MemoryByteSource(bytes)).first { $0.type == "moov" })
            let range = Int(moov.fileOffset)..<Int(moov.fileOffset + moov.size)
            var written = 0
            for seed in 0..<60 as Range<UInt64> {
                let input = Self.damaged(bytes, in: range, flips: 1 + Int(seed % 8), seed: seed)
                let sink = MemoryByteSink()
                guard (try? QuickTimeMovieRewriter(source: MemoryByteSource(input))
                    .write(to: sink, contentIdentifier: "X", stillImageTime: Double(seed) / 30)) != nil
                else { continue }
                let movie = try QuickTimeMovieParser().parse(MemoryByteSource(sink.bytes))
                #expect(movie.metadataValue(QuickTimeMovie.contentIdentifierKey)?.value.stringValue == "X")
                written += 1
            }
            #expect(written > 0, "some damage is harmless and still written")
        }
    }

    @Test("odd requests are refused, not trapped on")
    func oddRequests() throws {
        let source = try FileByteSource(path: SampleMedia.path("live/train.mov"))
        for time in [Double.nan, .infinity, -.infinity] {
            #expect(throws: FormatError.self) {
                try QuickTimeMovieRewriter(source: source).write(to: MemoryByteSink(), contentIdentifier: "X", stillImageTime: time)
            }
        }
        // Negative and far too late times snap to the first and last frames.
        let early = try QuickTimeMovieRewriter(source: source).write(to: MemoryByteSink(), contentIdentifier: "X", stillImageTime: -5)
        #expect(early.stillImageTime == 0)
        let late = try QuickTimeMovieRewriter(source: source).write(to: MemoryByteSink(), contentIdentifier: "X", stillImageTime: 1e12)
        #expect(late.stillImageTime < 1.25)
        #expect(throws: FormatError.self) {
            try JPEGMakerNoteWriter(source: FileByteSource(path: SampleMedia.path("live/train.jpg")))
                .write(to: MemoryByteSink(), contentIdentifier: "not\u{0}ascii")
        }
        #expect(throws: FormatError.self) {
            try JPEGMakerNoteWriter(source: FileByteSource(path: SampleMedia.path("live/train.mov")))
                .write(to: MemoryByteSink(), contentIdentifier: "X")
        }
    }

    @Test("JPEGs with damaged Exif: the writer throws or writes a readable identifier")
    func damagedJPEGs() throws {
        for file in ["live/train.jpg", "plain/pixel_8.jpg"] {
            let bytes = try SampleMedia.bytes(file)
            let structure = try JPEGSegmentReader().read(MemoryByteSource(bytes))
            let start = Int(try #require(structure.exifTIFFFileOffset))
            let range = start..<start + (structure.exifTIFF?.count ?? 0)
            var written = 0
            for seed in 0..<80 as Range<UInt64> {
                let input = Self.damaged(bytes, in: range, flips: 1 + Int(seed % 6), seed: seed)
                let sink = MemoryByteSink()
                guard (try? JPEGMakerNoteWriter(source: MemoryByteSource(input))
                    .write(to: sink, contentIdentifier: "C0FFEE00-0000-4000-8000-000000000000")) != nil
                else { continue }
                let output = try JPEGSegmentReader().read(MemoryByteSource(sink.bytes))
                let tiff = try #require(output.exifTIFF)
                #expect(try ExifMetadata.read(tiffBytes: tiff).appleMakerNote?.contentIdentifier == "C0FFEE00-0000-4000-8000-000000000000")
                written += 1
            }
            #expect(written > 0, "some damage is harmless and still written")
        }
    }
}
