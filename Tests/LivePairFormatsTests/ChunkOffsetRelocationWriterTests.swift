import Foundation
import LivePairFormats
import TestSupport
import Testing

@Suite("Writer: chunk offset relocation")
struct ChunkOffsetRelocationWriterTests {
    @Test("stco switches to co64 when an offset passes 2^32 - 1")
    func switchesToLargeOffsets() throws {
        let offsets: [UInt64] = [36, 0xFFFF_0000, 0xFFFF_FFF0]
        let stco = ChunkOffsetRelocation.chunkOffsetBox(offsets)
        #expect(stco.type == "stco")
        let moved = try ChunkOffsetRelocation.relocated(stco) { $0 + 0x100 }
        #expect(moved.type == "co64")
        #expect(try ChunkOffsetRelocation.offsets(of: moved) == offsets.map { $0 + 0x100 })
        #expect(moved.size == 16 + 8 * 3)
        // Small moves stay stco; an identity map keeps the very same bytes.
        let small = try ChunkOffsetRelocation.relocated(stco) { $0 >= 0x1000 ? $0 - 0x1000 : $0 }
        #expect(small.type == "stco")
        #expect(try ChunkOffsetRelocation.relocated(stco) { $0 } == stco)
        // co64 stays co64 even when the offsets would fit.
        let co64 = ChunkOffsetRelocation.chunkOffsetBox([8, 16], preferLarge: true)
        #expect(try ChunkOffsetRelocation.relocated(co64) { $0 + 1 }.type == "co64")
        // Offsets outside every moved range are an error.
        #expect(throws: FormatError.self) { try ChunkOffsetRelocation.relocated(stco) { _ in nil } }
    }

    @Test("every track of a moov is relocated through an offset map")
    func relocatesEveryTrack() throws {
        func trak(_ id: UInt32, _ offsets: [UInt64]) -> BoxNode {
            let tkhd = BoxNode.fullBox("tkhd", [0, 0, 0, 0, 0, 0, 0, 0] + ByteWriter.encode(UInt64(id), byteCount: 4) + [UInt8](repeating: 0, count: 72))
            return .container("trak", [tkhd, .container("mdia", [.container("minf", [.container("stbl", [ChunkOffsetRelocation.chunkOffsetBox(offsets)])])])])
        }
        var moov = BoxNode.container("moov", [trak(1, [100, 4_000_000_000]), trak(2, [200])])
        var map = OffsetMap()
        map.add(source: 0..<150, destination: 0)
        map.add(source: 150..<4_100_000_000, destination: 400_000_000)
        try ChunkOffsetRelocation.relocateAll(in: &moov, map: map)
        let first = try #require(moov.children[0].descendant(["mdia", "minf", "stbl"])?.children.first)
        let second = try #require(moov.children[1].descendant(["mdia", "minf", "stbl"])?.children.first)
        #expect(first.type == "co64")
        #expect(try ChunkOffsetRelocation.offsets(of: first) == [100, 4_399_999_850])
        #expect(second.type == "stco")
        #expect(try ChunkOffsetRelocation.offsets(of: second) == [400_000_050])
        #expect(OffsetMap.shift(by: -8).map(100) == 92)
    }

    @Test("OffsetMap: ranges added in file order are searched by halves, others one by one, with one answer")
    func offsetMapLookups() {
        // Every other 100-byte range of 10,000, packed together (a movie whose lpcm chunks go).
        var ascending = OffsetMap()
        for index in 0..<50 { ascending.add(source: UInt64(index * 200)..<UInt64(index * 200 + 100), destination: UInt64(index * 100)) }
        var shuffled = OffsetMap()
        for index in (0..<50).reversed() { shuffled.add(source: UInt64(index * 200)..<UInt64(index * 200 + 100), destination: UInt64(index * 100)) }
        for offset in stride(from: UInt64(0), to: 10_050, by: 7) {
            let expected: UInt64? = offset % 200 < 100 && offset < 10_000 ? offset / 200 * 100 + offset % 200 : nil
            #expect(ascending.map(offset) == expected, "\(offset)")
            #expect(shuffled.map(offset) == expected, "\(offset)")
        }
        #expect(OffsetMap(segments: ascending.segments) == ascending)
    }
}
