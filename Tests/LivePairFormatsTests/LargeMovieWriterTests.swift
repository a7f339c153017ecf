import Foundation
import LivePairFormats
import TestSupport
import Testing

/// A movie of more than 4 GiB that exists only as a header: the media data reads as zeros.
struct VirtualLargeMovie: ByteSource {
    let head: [UInt8]
    let size: UInt64
    var name: String { "virtual large movie" }

    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let wanted = Int(min(UInt64(count), size - offset))
        var bytes = [UInt8](repeating: 0, count: wanted)
        if offset < UInt64(head.count) {
            let available = min(wanted, head.count - Int(offset))
            bytes.replaceSubrange(0..<available, with: head[Int(offset)..<Int(offset) + available])
        }
        return bytes
    }
}

/// A sink that keeps only the first `keep` bytes and counts the rest.
final class PrefixSink: ByteSink {
    let keep: Int
    private(set) var prefix: [UInt8] = []
    private(set) var bytesWritten: UInt64 = 0

    init(keep: Int) { self.keep = keep }

    func write(_ bytes: ArraySlice<UInt8>) throws(FormatError) {
        if prefix.count < keep { prefix.append(contentsOf: bytes.prefix(keep - prefix.count)) }
        bytesWritten += UInt64(bytes.count)
    }
}

@Suite("Writer: movies over 4 GiB")
struct LargeMovieWriterTests {
    static let mediaSize: UInt64 = (1 << 32) + 1000

    /// ftyp, a fast-start moov whose second chunk sits just below 2^32, and a large-size mdat.
    static func movie() -> VirtualLargeMovie {
        func build(chunkOffsets: [UInt64]) -> [UInt8] {
            let stbl: [[UInt8]] = [
                BoxBuilder.table("stsd", count: 0),
                BoxBuilder.table("stts", count: 1, BoxBuilder.u32(2) + BoxBuilder.u32(300)),
                BoxBuilder.table("stsc", count: 1, BoxBuilder.u32(1) + BoxBuilder.u32(1) + BoxBuilder.u32(1)),
                BoxBuilder.stsz(constantSize: 100, count: 2),
                BoxBuilder.table("stco", count: 2, chunkOffsets.flatMap { BoxBuilder.u32(UInt32($0)) }),
            ]
            return BoxBuilder.movie([BoxBuilder.trak(trackID: 1, stblChildren: stbl)])
        }
        let headSize = UInt64(build(chunkOffsets: [0, 0]).count + 16)
        let head = build(chunkOffsets: [headSize, (1 << 32) - 100]) + BoxBuilder.largeBox("mdat", declaredSize: mediaSize + 16, [])
        return VirtualLargeMovie(head: head, size: UInt64(head.count) + mediaSize)
    }

    func rewrite(_ placement: QuickTimeMovieRewriter.MoovPlacement) throws -> (QuickTimeMovie, UInt64, PrefixSink, [UInt64]) {
        let source = Self.movie()
        let original = try QuickTimeMovieParser().parse(source)
        let sink = PrefixSink(keep: 1 << 16)
        let result = try QuickTimeMovieRewriter(source: source, placement: placement)
            .write(to: sink, contentIdentifier: "C0FFEE00-0000-4000-8000-000000000000", stillImageTime: 0.5)
        #expect(sink.bytesWritten == result.outputSize)
        #expect(result.stillImageTime == 0.5)
        return (original, result.outputSize, sink, original.tracks[0].samples.chunkOffsets)
    }

    @Test("moov kept in front: offsets pushed past 2^32 switch stco to co64")
    func inPlaceSwitchesToLargeOffsets() throws {
        let (original, outputSize, sink, before) = try rewrite(.inPlace)
        let moovOffset = UInt64(original.topLevelBoxes[1].fileOffset)
        let head = Array(sink.prefix[Int(moovOffset)...])
        let moovSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let moov = try BoxParser().parseBox(Array(head[0..<moovSize]), fileOffset: moovOffset)
        let movie = try QuickTimeMovieParser().parse(moov: moov, fileType: nil, topLevelBoxes: [])
        let delta = UInt64(moovSize) - original.topLevelBoxes[1].size
        let video = try #require(movie.videoTrack)
        #expect(video.samples.usesLargeChunkOffsets)
        #expect(video.samples.chunkOffsets == before.map { $0 + delta })
        #expect(before[1] <= UInt64(UInt32.max) && before[1] + delta > UInt64(UInt32.max))
        let still = try #require(movie.stillImageTimeTrack)
        #expect(still.samples.usesLargeChunkOffsets)
        #expect(still.samples.chunkOffsets == [outputSize - 9])
        #expect(movie.metadataValue(QuickTimeMovie.contentIdentifierKey)?.value.stringValue == "C0FFEE00-0000-4000-8000-000000000000")
    }

    @Test("moov moved to the end: offsets move down and stay 32-bit where they fit")
    func endKeepsSmallOffsets() throws {
        let (original, outputSize, sink, before) = try rewrite(.end)
        // ftyp, then the mdat moved up by the old moov's size.
        let removed = original.topLevelBoxes[1].size
        #expect(Array(sink.prefix[0..<20]) == Array(BoxBuilder.ftyp(major: "qt  ", compatible: ["qt  "])))
        #expect(Array(sink.prefix[24..<28]) == Array("mdat".utf8))
        #expect(before.map { $0 - removed }.allSatisfy { $0 <= UInt64(UInt32.max) })
        #expect(outputSize > 1 << 32)
    }
}
