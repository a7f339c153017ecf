import Foundation
import LivePairFormats
import TestSupport
import Testing

@Suite("Writer: box tree serialisation")
struct BoxTreeWriterTests {
    static let isoFiles = SampleMedia.manifest.map(\.file).filter { file in
        let lower = file.lowercased()
        return (lower.hasSuffix(".mov") || lower.hasSuffix(".heic") || lower.hasSuffix(".heif")) && !file.hasPrefix("broken/")
    }

    @Test("moov and meta boxes write back byte for byte", arguments: isoFiles)
    func topLevelMetadataRoundTrip(file: String) throws {
        let source = try FileByteSource(path: SampleMedia.path(file))
        let scanner = TopLevelBoxScanner()
        let boxes = try scanner.scan(source)
        var checked = 0
        for header in boxes where header.type == "moov" || header.type == "meta" {
            let box = try scanner.load(header, from: source)
            let node = try BoxNode(box)
            let original = try source.readExactly(at: header.fileOffset, count: Int(header.size), context: "box")
            #expect(node.size == header.size)
            #expect(node.serialized() == original, "\(file): \(header.type)")
            checked += 1
        }
        #expect(checked > 0)
    }

    @Test("whole files write back byte for byte", arguments: isoFiles)
    func wholeFileRoundTrip(file: String) throws {
        let bytes = try SampleMedia.bytes(file)
        let nodes = try BoxNode.parseAll(bytes)
        #expect(BoxNode.serialize(nodes) == bytes, "\(file)")
    }

    @Test("broken files either fail to parse or round-trip")
    func brokenFiles() throws {
        for file in SampleMedia.manifest.map(\.file) where file.hasPrefix("broken/") && file.hasSuffix(".heif") {
            let bytes = try SampleMedia.bytes(file)
            guard let nodes = try? BoxNode.parseAll(bytes) else { continue }
            let written = BoxNode.serialize(nodes)
            #expect(written == Array(bytes.prefix(written.count)), "\(file)")
        }
    }

    @Test("editing recomputes sizes bottom-up and keeps other bytes")
    func editing() throws {
        let moovBytes = BoxBuilder.box(
            "moov",
            BoxBuilder.mvhd() + BoxBuilder.box("udta", BoxBuilder.box("name", [1, 2, 3]) + [0, 0, 0, 0]))
        var moov = try BoxParser().parseBox(moovBytes, fileOffset: 0).node()
        #expect(moov.serialized() == moovBytes)
        guard case let .container(_, _, trailer)? = moov.child("udta")?.content else {
            Issue.record("udta is not a container")
            return
        }
        #expect(trailer == [0, 0, 0, 0])
        moov.modify(["udta"]) { udta in udta.append(.leaf("abcd", [9, 9])) }
        let written = moov.serialized()
        let reparsed = try BoxParser().parseBox(written, fileOffset: 0)
        #expect(reparsed.size == UInt64(moovBytes.count + 10))
        #expect(reparsed.child("udta")?.size == UInt64(8 + 11 + 10 + 4))
        #expect(try reparsed.child("mvhd")?.node().serialized() == BoxBuilder.mvhd())
        moov.removeChildren { $0.type == "udta" }
        #expect(moov.serialized() == BoxBuilder.box("moov", BoxBuilder.mvhd()))
    }

    @Test("size encodings: large kept, compact switched to large only when needed, to-end only when last")
    func sizeEncodings() throws {
        let large = BoxBuilder.largeBox("free", [1, 2, 3])
        let node = try BoxParser().parseBox(large, fileOffset: 0).node()
        #expect(node.sizeEncoding == .large)
        #expect(node.serialized() == large)
        var toEnd = BoxNode(type: "mdat", sizeEncoding: .toEnd, content: .leaf([7, 7]))
        #expect(toEnd.serialized(isLast: true) == [0, 0, 0, 0] + Array("mdat".utf8) + [7, 7])
        #expect(toEnd.serialized(isLast: false) == [0, 0, 0, 10] + Array("mdat".utf8) + [7, 7])
        toEnd.sizeEncoding = .compact
        #expect(toEnd.headerSize == 8)
        let container = BoxNode.container("moov", [toEnd, .leaf("free", [])])
        #expect(container.size == 8 + 10 + 8)
    }

    @Test("64 nested boxes serialise with every level's size")
    func deepNestingIsLinear() throws {
        var node = BoxNode.leaf("udta", [1, 2, 3, 4])
        for _ in 1..<64 { node = .container("udta", [node]) }
        let bytes = node.serialized()
        #expect(bytes.count == 64 * 8 + 4)
        #expect(Array(bytes.prefix(8)) == [0, 0, 0x02, 0x04] + Array("udta".utf8))
        #expect(node.size == UInt64(bytes.count))
    }

}

extension Box {
    func node() throws -> BoxNode { try BoxNode(self) }
}
