import LivePairFormats
import Synchronization
import TestSupport
import Testing

/// The prefetched head answers reads inside it; a read that starts in it and ends past it reads
/// only the rest from the file (issue 13: the reads the formats need, no byte read twice).
@Suite("Head-cached byte source")
struct HeadCachedByteSourceTests {
    /// A source over bytes that records each read's offset and count.
    final class RecordingSource: ByteSource {
        let memory: MemoryByteSource
        let reads = Mutex<[(offset: UInt64, count: Int)]>([])
        init(_ bytes: [UInt8]) { memory = MemoryByteSource(bytes, name: "sample") }
        var size: UInt64 { memory.size }
        var name: String { memory.name }
        func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
            reads.withLock { $0.append((offset, count)) }
            return try memory.read(at: offset, count: count)
        }
    }

    @Test("reads inside, across and past the head give the file's bytes; across the head only the rest is read")
    func readsAcrossTheHead() throws {
        let bytes = try SampleMedia.bytes("live/train.jpg")
        let base = RecordingSource(bytes)
        let source = try HeadCachedByteSource(base, prefetchSize: 32_768)
        #expect(base.reads.withLock { $0.map(\.offset) } == [0])
        #expect(try source.read(at: 100, count: 1000) == Array(bytes[100..<1100]))
        #expect(base.reads.withLock { $0.count } == 1)
        // A 64 KiB window at 0: the head's 32 KiB and one read of the next 32 KiB.
        #expect(try source.read(at: 0, count: 65_536) == Array(bytes[0..<65_536]))
        #expect(try source.read(at: 30_000, count: 5_000) == Array(bytes[30_000..<35_000]))
        #expect(try source.read(at: 1_000_000, count: 10) == Array(bytes[1_000_000..<1_000_010]))
        let reads = base.reads.withLock { $0.map { "\($0.offset)+\($0.count)" } }
        #expect(reads == ["0+32768", "32768+32768", "32768+2232", "1000000+10"])
        // Past the end: what there is.
        #expect(try source.read(at: UInt64(bytes.count) - 4, count: 100) == Array(bytes.suffix(4)))
    }
}
