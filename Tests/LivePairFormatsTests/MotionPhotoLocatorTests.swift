import Foundation
import LivePairFormats
import TestSupport
import Testing

@Suite("Motion photo locator")
struct MotionPhotoLocatorTests {
    /// ffprobe's format duration of `bytes` written to a temporary file.
    func ffprobeDuration(_ bytes: [UInt8]) throws -> Double? {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-mp-\(UUID().uuidString).mp4")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let output = try ReferenceTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path])
        return Double(output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func lookupJPEG(_ file: String) throws -> (MotionPhotoLookup, FileByteSource) {
        let source = try FileByteSource(path: SampleMedia.path(file))
        let jpeg = try JPEGSegmentReader().read(source)
        let xmp = jpeg.xmp.map { MotionPhotoXMP($0) }
        return (try MotionPhotoLocator().locate(in: source, xmp: xmp), source)
    }

    @Test func pixelContainerDirectory() throws {
        let (lookup, source) = try lookupJPEG("motion/PXL_20200710_061629144.MP.jpg")
        let video = try #require(lookup.video)
        #expect(video.vendor == .google)
        #expect(video.method == .containerDirectory)
        #expect(video.length == 1_317_283)
        #expect(video.fileOffset == source.size - 1_317_283)
        #expect(video.presentationTimestampUs == 0)
        #expect(video.ftypVerified)
        #expect(video.warnings.isEmpty)
        let bytes = try source.readExactly(at: video.fileOffset, count: Int(video.length), context: "video")
        #expect(bytes[4..<8] == Array("ftyp".utf8)[...])
        guard ReferenceTool.isInstalled("ffprobe") else { return }
        let duration = try #require(try ffprobeDuration(bytes))
        #expect(abs(duration - 0.763) < 0.01)
    }

    @Test func brokenMicroVideoIsClaimedButMissing() throws {
        let (lookup, _) = try lookupJPEG("broken/google_motion_photo_broken.jpg")
        guard case let .claimedButMissing(reasons) = lookup else {
            Issue.record("expected claimedButMissing, got \(lookup)")
            return
        }
        #expect(reasons.contains { $0.contains("MicroVideoOffset") })
    }

    @Test(arguments: ["plain/pixel_8.jpg", "live/train.jpg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg"])
    func notMotionPhotos(file: String) throws {
        #expect(try lookupJPEG(file).0 == .notMotionPhoto)
    }

    @Test(arguments: [
        ("motion/motionphoto.heic", 2_056_590 as Int64), ("motion/photo-sg22-ultra.heic", 2_990_844),
        ("motion/samsung-one-ui-6.heic", 3_000_000),
    ])
    func samsungHEICUsesTheMPVDBox(file: String, timestamp: Int64) throws {
        let source = try FileByteSource(path: SampleMedia.path(file))
        let boxes = try TopLevelBoxScanner().scan(source)
        let whole = try SampleMedia.bytes(file)
        let xmp = Self.embeddedXMP(whole).map { MotionPhotoXMP($0) }
        #expect(xmp?.claimsMotionPhoto == true)
        let video = try #require(try MotionPhotoLocator().locate(in: source, xmp: xmp, topLevelBoxes: boxes).video)
        #expect(video.method == .mpvdBox)
        #expect(video.vendor == .samsung)
        #expect(video.ftypVerified)
        #expect(video.presentationTimestampUs == timestamp)
        let mpvd = try #require(boxes.first { $0.type == "mpvd" })
        #expect(video.fileOffset == mpvd.payloadFileOffset)
        let bytes = Array(whole[Int(video.fileOffset)..<Int(video.fileOffset + video.length)])
        #expect(bytes[4..<8] == Array("ftyp".utf8)[...])
        // The video ends where the SEF data begins (sefd inside mpvd, or the end of mpvd).
        #expect(!bytes.suffix(8).elementsEqual(Array("SEFT".utf8)))
        guard ReferenceTool.isInstalled("ffprobe") else { return }
        let expected = try #require(SampleMedia.entry(file)?.duration)
        let duration = try #require(try ffprobeDuration(bytes))
        #expect(abs(duration - expected) < 0.05)
    }

    @Test func samsungHEICWithoutXMPStillFindsTheVideo() throws {
        let source = try FileByteSource(path: SampleMedia.path("motion/samsung-one-ui-6.heic"))
        let boxes = try TopLevelBoxScanner().scan(source)
        let video = try #require(try MotionPhotoLocator().locate(in: source, xmp: nil, topLevelBoxes: boxes).video)
        #expect(video.method == .mpvdBox)
        #expect(video.presentationTimestampUs == nil)
        let trailer = try #require(try SamsungSEFTrailer.read(source))
        #expect(trailer.entries.contains { $0.name == "MotionPhoto_Data" })
    }

    @Test func plainHEICIsNotAMotionPhoto() throws {
        let source = try FileByteSource(path: SampleMedia.path("plain/sewing-threads.heic"))
        let boxes = try TopLevelBoxScanner().scan(source)
        #expect(try MotionPhotoLocator().locate(in: source, xmp: nil, topLevelBoxes: boxes) == .notMotionPhoto)
    }

    // MARK: Built files

    static func embeddedXMP(_ bytes: [UInt8]) -> [UInt8]? {
        let open = Array("<x:xmpmeta".utf8), close = Array("</x:xmpmeta>".utf8)
        guard let start = find(open, in: bytes, from: 0), let end = find(close, in: bytes, from: start) else { return nil }
        return Array(bytes[start..<end + close.count])
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    static let fakeMP4: [UInt8] =
        [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isommp42".utf8)
        + [0, 0, 0, 16] + Array("mdat".utf8) + [1, 2, 3, 4, 5, 6, 7, 8]

    static func still(xmp: String?) -> [UInt8] {
        var builder = JPEGBuilder()
        if let xmp { builder.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8)) }
        builder.frame(width: 8, height: 8)
        builder.scan()
        return builder.bytes
    }

    static func cameraXMP(_ body: String) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
          xmlns:Container="http://ns.google.com/photos/1.0/container/"
          xmlns:Item="http://ns.google.com/photos/1.0/container/item/" \(body)
        </rdf:RDF></x:xmpmeta>
        """
    }

    func locate(_ bytes: [UInt8]) throws -> MotionPhotoLookup {
        let source = MemoryByteSource(bytes)
        let jpeg = try JPEGSegmentReader().read(source)
        return try MotionPhotoLocator().locate(in: source, xmp: jpeg.xmp.map { MotionPhotoXMP($0) })
    }

    @Test func microVideoOffset() throws {
        let xmp = Self.cameraXMP(
            "GCamera:MicroVideo=\"1\" GCamera:MicroVideoOffset=\"\(Self.fakeMP4.count)\" GCamera:MicroVideoPresentationTimestampUs=\"7\"/>")
        let still = Self.still(xmp: xmp)
        let video = try #require(try locate(still + Self.fakeMP4).video)
        #expect(video.method == .microVideoOffset)
        #expect(video.fileOffset == UInt64(still.count))
        #expect(video.length == UInt64(Self.fakeMP4.count))
        #expect(video.presentationTimestampUs == 7)
    }

    @Test func wrongDirectoryLengthFallsBackToTheScan() throws {
        let xmp = Self.cameraXMP(
            """
            GCamera:MotionPhoto="1"><Container:Directory><rdf:Seq>
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary"/></rdf:li>
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="5"/></rdf:li>
            </rdf:Seq></Container:Directory></rdf:Description>
            """)
        let still = Self.still(xmp: xmp)
        let video = try #require(try locate(still + Self.fakeMP4).video)
        #expect(video.method == .ftypScan)
        #expect(video.fileOffset == UInt64(still.count))
        #expect(video.length == UInt64(Self.fakeMP4.count))
        #expect(video.warnings.count == 2)

        // The same directory with the right length is used directly.
        let right = Self.still(xmp: xmp.replacingOccurrences(of: "Item:Length=\"5\"", with: "Item:Length=\"\(Self.fakeMP4.count)\""))
        let direct = try #require(try locate(right + Self.fakeMP4).video)
        #expect(direct.method == .containerDirectory)
        #expect(direct.fileOffset == UInt64(right.count))
    }

    @Test func claimWithoutVideoIsReported() throws {
        let still = Self.still(xmp: Self.cameraXMP("GCamera:MotionPhoto=\"1\"/>"))
        guard case .claimedButMissing = try locate(still + [UInt8](repeating: 0, count: 4096)) else {
            Issue.record("expected claimedButMissing")
            return
        }
        #expect(try locate(Self.still(xmp: nil)) == .notMotionPhoto)
        // An unclaimed file is only scanned on request.
        let unclaimed = Self.still(xmp: nil) + Self.fakeMP4
        #expect(try locate(unclaimed) == .notMotionPhoto)
        let scanned = try MotionPhotoLocator(scansUnclaimedFiles: true).locate(in: MemoryByteSource(unclaimed), xmp: nil)
        #expect(scanned.video?.method == .ftypScan)
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = payload.count + 8
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array(type.utf8) + payload
    }

    @Test func builtMPVDBoxes() throws {
        let head = Self.box("ftyp", Array("heic\0\0\0\0mif1heic".utf8)) + Self.box("mdat", [1, 2, 3])
        // mpvd holding an MP4 and a sefd child, without a SEF trailer at the end of the file.
        let withSEFD = head + Self.box("mpvd", Self.fakeMP4 + Self.box("sefd", [9, 9, 9, 9]))
        let source = MemoryByteSource(withSEFD)
        let video = try #require(
            try MotionPhotoLocator().locate(in: source, xmp: nil, topLevelBoxes: TopLevelBoxScanner().scan(source)).video)
        #expect(video.method == .mpvdBox)
        #expect(video.vendor == .samsung)
        #expect(video.fileOffset == UInt64(head.count + 8))
        #expect(video.length == UInt64(Self.fakeMP4.count))

        // A movie without ftyp (starting with wide) is returned unverified rather than lost.
        let movie = Self.box("wide", []) + Self.box("mdat", [1, 2, 3, 4])
        let noFTYP = MemoryByteSource(head + Self.box("mpvd", movie))
        let unverified = try #require(
            try MotionPhotoLocator().locate(in: noFTYP, xmp: nil, topLevelBoxes: TopLevelBoxScanner().scan(noFTYP)).video)
        #expect(unverified.method == .mpvdBox)
        #expect(unverified.vendor == .google)
        #expect(!unverified.ftypVerified)
        #expect(unverified.length == UInt64(movie.count))

        // An mpvd box holding zeros is a claim without a video.
        let empty = MemoryByteSource(head + Self.box("mpvd", [UInt8](repeating: 0, count: 64)))
        let lookup = try MotionPhotoLocator().locate(in: empty, xmp: nil, topLevelBoxes: TopLevelBoxScanner().scan(empty))
        guard case .claimedButMissing = lookup else {
            Issue.record("expected claimedButMissing, got \(lookup)")
            return
        }
    }

    /// A Samsung SEF trailer holding `blocks` (type, name, data) placed after `prefix`.
    static func withSEF(_ prefix: [UInt8], blocks: [(UInt16, String, [UInt8])]) -> [UInt8] {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var bytes = prefix
        var placed: [(type: UInt16, start: Int, size: Int)] = []
        for (type, name, data) in blocks {
            let start = bytes.count
            bytes += [0, 0] + le16(type) + le32(name.utf8.count) + Array(name.utf8) + data
            placed.append((type, start, bytes.count - start))
        }
        let directory = bytes.count
        var sefh = Array("SEFH".utf8) + le32(107) + le32(placed.count)
        for block in placed { sefh += [0, 0] + le16(block.type) + le32(directory - block.start) + le32(block.size) }
        bytes += sefh + le32(sefh.count) + Array("SEFT".utf8)
        return bytes
    }

    @Test func samsungSEFTrailer() throws {
        let still = Self.still(xmp: nil)
        let bytes = Self.withSEF(
            still, blocks: [(0x0A01, "Image_UTC_Data", Array("1696508863000".utf8)), (0x0A30, "MotionPhoto_Data", Self.fakeMP4)])
        let source = MemoryByteSource(bytes)
        let trailer = try #require(try SamsungSEFTrailer.read(source))
        #expect(trailer.version == 107)
        #expect(trailer.entries.map(\.name) == ["Image_UTC_Data", "MotionPhoto_Data"])
        #expect(trailer.startFileOffset == UInt64(still.count))
        let video = try #require(try locate(bytes).video)
        #expect(video.method == .sefTrailer)
        #expect(video.vendor == .samsung)
        #expect(video.length == UInt64(Self.fakeMP4.count))
        #expect(Array(bytes[Int(video.fileOffset)..<Int(video.fileOffset + video.length)]) == Self.fakeMP4)
    }

    @Test func samsungJPEGWithContainerDirectoryAndSEF() throws {
        // Newer Samsung JPEGs: XMP directory whose video length covers the SEF data after the MP4.
        func bytes(videoItemLength: Int?) -> ([UInt8], Int) {
            let placeholder = "Item:Length=\"000000\""
            let xmp = Self.cameraXMP(
                """
                GCamera:MotionPhoto="1"><Container:Directory><rdf:Seq>
                <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary"/></rdf:li>
                <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" \(placeholder)/></rdf:li>
                </rdf:Seq></Container:Directory></rdf:Description>
                """)
            let draft = Self.withSEF(Self.still(xmp: xmp), blocks: [(0x0A30, "MotionPhoto_Data", Self.fakeMP4)])
            let stillLength = Self.still(xmp: xmp).count
            let videoStart = stillLength + 8 + 16
            let length = String(videoItemLength ?? (draft.count - videoStart))
            let padded = String(repeating: "0", count: 6 - length.count) + length
            let final = Self.withSEF(
                Self.still(xmp: xmp.replacingOccurrences(of: placeholder, with: "Item:Length=\"\(padded)\"")),
                blocks: [(0x0A30, "MotionPhoto_Data", Self.fakeMP4)])
            return (final, videoStart)
        }
        let (file, videoStart) = bytes(videoItemLength: nil)
        let video = try #require(try locate(file).video)
        #expect(video.method == .containerDirectory)
        #expect(video.vendor == .samsung)
        #expect(video.fileOffset == UInt64(videoStart))
        #expect(video.length == UInt64(Self.fakeMP4.count))
    }

    @Test func damagedSEFTrailersDoNotTrap() throws {
        let bytes = Self.withSEF(Self.still(xmp: nil), blocks: [(0x0A30, "MotionPhoto_Data", Self.fakeMP4)])
        #expect(try SamsungSEFTrailer.read(MemoryByteSource(Array(bytes.dropLast(1)))) == nil)
        var lying = bytes
        lying[lying.count - 8] = 0xFF
        lying[lying.count - 5] = 0x7F
        #expect(throws: FormatError.self) { try SamsungSEFTrailer.read(MemoryByteSource(lying)) }
        // The locator survives a damaged trailer.
        _ = try MotionPhotoLocator().locate(in: MemoryByteSource(lying), xmp: nil)
        for cut in stride(from: 0, to: bytes.count, by: 7) {
            var damaged = bytes
            damaged[cut] ^= 0xFF
            _ = try? MotionPhotoLocator().locate(in: MemoryByteSource(damaged), xmp: nil)
        }
    }
}
