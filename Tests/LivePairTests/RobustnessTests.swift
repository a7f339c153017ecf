import Foundation
import LivePair
import LivePairFormats
import TestSupport
import Testing

// Robustness of identification against damaged and hostile input: every sample truncated at many
// offsets and corrupted deterministically, hand-made hostile sizes and counts, the broken samples,
// and the inputs the fuzzer (Fuzz/, scripts/fuzz.sh) found. Nothing may trap or hang; what cannot
// be read must become a typed error or an identity issue.

// MARK: - Helpers


/// `base` with some bytes replaced, without copying the base buffer.
struct PatchedByteSource: ByteSource {
    let base: MemoryByteSource
    let patches: [UInt64: UInt8]

    var size: UInt64 { base.size }
    var name: String { base.name + " (patched)" }

    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        var bytes = try base.read(at: offset, count: count)
        for (position, value) in patches where position >= offset && position - offset < UInt64(bytes.count) {
            bytes[Int(position - offset)] = value
        }
        return bytes
    }
}

/// A source that claims `size` bytes: `prefix`, then zeros made only for the ranges read.
struct SparseByteSource: ByteSource {
    let prefix: [UInt8]
    let size: UInt64
    var name: String { "sparse" }

    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let wanted = Int(min(UInt64(count), size - offset))
        var bytes = [UInt8](repeating: 0, count: wanted)
        if offset < UInt64(prefix.count) {
            let start = Int(offset)
            let copied = min(wanted, prefix.count - start)
            bytes.replaceSubrange(0..<copied, with: prefix[start..<start + copied])
        }
        return bytes
    }
}

/// Every issue code identification may report.
let knownIssueCodes: Set<String> = [
    "truncated", "invalid-structure", "limit-exceeded", "unsupported-format", "read-failed",
    "motion-photo-video-missing", "sample-table-out-of-file", "missing-video-track", "truncated-image-data",
]

/// Peak virtual memory of this process (`VmPeak` in /proc/self/status), in bytes.
func virtualMemoryPeak() -> UInt64 {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmPeak:") {
        let digits = line.split(separator: " ").dropFirst().first.flatMap { UInt64($0) } ?? 0
        return digits * 1024
    }
    return 0
}

/// The values a truncated copy that reports no issue must share with the intact file.
func coreFields(_ identity: ResourceIdentity) -> String {
    [
        "\(identity.format)", "\(identity.role)", identity.contentIdentifier?.rawValue ?? "-",
        "\(identity.width ?? -1)x\(identity.height ?? -1)", "\(identity.orientation ?? -1)",
        identity.duration.map { String($0) } ?? "-", identity.stillImageTime.map { String($0) } ?? "-",
        identity.videoCodec ?? "-", identity.audioCodec ?? "-", identity.make ?? "-", identity.model ?? "-",
        identity.motionPhoto?.vendor ?? "-",
    ].joined(separator: " ")
}

/// Where a sample keeps its structure: the offsets where truncation is most interesting, the
/// metadata regions to truncate densely and to corrupt, and the bytes of its identifier text.
struct SampleLayout {
    let bytes: [UInt8]
    let intact: ResourceIdentity
    var boundaries: [UInt64] = []
    /// Metadata regions truncated densely (every 7th byte, up to `maximumOffsets` offsets each).
    var denseRegions: [(range: Range<UInt64>, maximumOffsets: UInt64)] = []
    var corruptRegions: [Range<UInt64>] = []
    /// Bytes whose corruption may legitimately change the content identifier: the identifier's text,
    /// the Exif TIFF block (maker note) and the movie `meta` box that hold it.
    var identifierRegions: [Range<UInt64>] = []
    /// Ends of the file's own top-level boxes: a copy cut there (plus fewer than 8 bytes, which
    /// cannot form a header) is a well-formed shorter file, which may legitimately say less.
    var topLevelEnds: [UInt64] = []

    init(file: String) throws {
        bytes = try SampleMedia.bytes(file)
        let source = MemoryByteSource(bytes, name: file)
        intact = ResourceIdentifier().identify(source: source, path: file)
        let size = UInt64(bytes.count)
        if JPEGSegmentReader.isJPEG(bytes) {
            addJPEG(source)
        } else if bytes.count >= 8, ["ftyp", "wide", "mdat", "moov", "free"].contains(String(decoding: bytes[4..<8], as: UTF8.self)) {
            addISO(source, base: 0)
            if let heif = try? HEIFFile(source: source) {
                for id in heif.exifItemIDs + heif.xmpItemIDs {
                    guard let location = heif.meta.location(of: id), location.constructionMethod == .fileOffset else { continue }
                    for extent in location.extents {
                        let start = location.baseOffset &+ extent.offset
                        guard start < size else { continue }
                        let range = start..<min(size, start &+ max(extent.length, 1))
                        boundaries += [range.lowerBound, range.upperBound]
                        denseRegions.append((range, 400))
                        corruptRegions.append(range)
                        if heif.exifItemIDs.contains(id) { identifierRegions.append(range) }
                    }
                }
            }
        }
        if let video = intact.motionPhoto, let offset = video.videoOffset, let length = video.videoLength, length > 0 {
            boundaries += [offset, offset + length]
            addISO(SubrangeByteSource(base: source, offset: offset, length: length), base: offset)
        }
        if bytes.count > 20, bytes.suffix(4).elementsEqual("SEFT".utf8) {
            let trailer = size > 4096 ? size - 4096 : 0
            corruptRegions.append(trailer..<size)
            boundaries += [size - 8, size - 4]
        }
        if corruptRegions.isEmpty {
            // Neither JPEG nor ISO-BMFF (the PNG sample): identification reads only the first 64 bytes.
            corruptRegions.append(0..<min(size, 64))
        }
        if let identifier = intact.contentIdentifier?.rawValue {
            let needle = Array(identifier.utf8)
            var index = 0
            while let found = Self.find(needle, in: bytes, from: index) {
                identifierRegions.append(UInt64(found)..<UInt64(found + needle.count))
                index = found + 1
            }
        }
    }

    private mutating func addJPEG(_ source: MemoryByteSource) {
        guard let structure = try? JPEGSegmentReader().read(source) else { return }
        var metadataEnd: UInt64 = 0
        for segment in structure.segments {
            let end = segment.payloadFileOffset + UInt64(segment.payloadLength)
            boundaries += [segment.fileOffset, segment.fileOffset + 2, segment.fileOffset + 4, end]
            metadataEnd = max(metadataEnd, end)
            // Marker and length on their own, so corruption hits the structure and not only payloads.
            corruptRegions.append(segment.fileOffset..<min(end, segment.fileOffset + 4))
            if segment.isApplication {
                denseRegions.append((segment.fileOffset..<end, 400))
                if segment.marker == 0xE1, let tiffStart = structure.exifTIFFFileOffset,
                    tiffStart >= segment.payloadFileOffset, tiffStart < end
                {
                    identifierRegions.append(segment.fileOffset..<end)
                }
            }
        }
        corruptRegions.append(0..<metadataEnd)
        if let tiffStart = structure.exifTIFFFileOffset, let tiff = structure.exifTIFF {
            // The TIFF header and IFD0, where the offsets to everything else are.
            corruptRegions.append(tiffStart..<tiffStart + UInt64(min(tiff.count, 512)))
        }
    }

    private mutating func addISO(_ source: any ByteSource, base: UInt64) {
        guard let boxes = try? TopLevelBoxScanner().scan(source) else { return }
        let scanner = TopLevelBoxScanner()
        for box in boxes {
            let start = base + box.fileOffset
            let end = base + min(box.fileOffset + box.size, source.size)
            boundaries += [start, start + 8, start + 16, end]
            corruptRegions.append(start..<min(end, start + 16))
            if base == 0 { topLevelEnds.append(end) }
            guard box.type == "moov" || box.type == "meta", !box.isTruncated else { continue }
            denseRegions.append((start..<end, 1500))
            corruptRegions.append(start..<end)
            if let parsed = try? scanner.load(box, from: source) {
                for child in parsed.children {
                    boundaries += [base + child.fileOffset, base + child.fileOffset + 8]
                    if box.type == "moov", child.type == "meta" {
                        identifierRegions.append(base + child.fileOffset..<base + child.fileOffset + child.size)
                    }
                    for grandchild in child.children { boundaries.append(base + grandchild.fileOffset) }
                }
            }
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The truncation lengths to try, sorted and without the full length.
    var truncationOffsets: [UInt64] {
        let size = UInt64(bytes.count)
        var offsets: Set<UInt64> = []
        for offset in stride(from: UInt64(0), to: min(size, 4096), by: 13) { offsets.insert(offset) }
        for boundary in boundaries {
            for delta in [-2, -1, 0, 1, 2, 3, 4, 8] as [Int64] {
                let offset = Int64(boundary) + delta
                if offset >= 0 { offsets.insert(UInt64(offset)) }
            }
        }
        for (region, maximum) in denseRegions {
            let step = max(7, UInt64(region.count) / maximum)
            for offset in stride(from: region.lowerBound, to: region.upperBound, by: Int(step)) { offsets.insert(offset) }
        }
        let spread: UInt64 = 64
        for index in 0..<spread { offsets.insert(size * index / spread + index) }
        return offsets.filter { $0 < size }.sorted()
    }
}

// MARK: - Truncation and corruption of every sample

@Suite("Robustness: damaged samples")
struct RobustnessSampleTests {
    /// The media samples (the `.AAE` edit files are property lists: PropertyListRobustnessTests
    /// cut and corrupt them).
    static let files = SampleMedia.manifest.filter { $0.kind != "adjustment-data" }.map(\.file)
    @Test("every truncated copy is identified without trapping: issues, or a valid prefix result", arguments: files)
    func truncation(file: String) throws {
        let layout = try SampleLayout(file: file)
        let full = MemoryByteSource(layout.bytes, name: file)
        let identifier = ResourceIdentifier()
        let offsets = layout.truncationOffsets
        #expect(offsets.count >= 200, "\(file): only \(offsets.count) truncation offsets")
        var problems: [String] = []
        for length in offsets {
            let truncated = SubrangeByteSource(base: full, offset: 0, length: length)
            let identity = identifier.identify(source: truncated, path: file)
            if let found = identity.contentIdentifier, found != layout.intact.contentIdentifier {
                problems.append("\(length): content identifier \(found) differs from \(String(describing: layout.intact.contentIdentifier))")
            }
            let cleanCut = layout.topLevelEnds.contains { length >= $0 && length - $0 < 8 }
            if identity.issues.isEmpty && !cleanCut && coreFields(identity) != coreFields(layout.intact) {
                problems.append("\(length): no issue, but \(coreFields(identity)) != \(coreFields(layout.intact))")
            }
            for issue in identity.issues where !knownIssueCodes.contains(issue.code) {
                problems.append("\(length): unknown issue code \(issue.code)")
            }
            #expect(identity.fileSize == length)
        }
        #expect(problems.isEmpty, "\(file): \(problems.count) problems, first: \(problems.prefix(8))")
    }

    @Test("deterministic corruption of the metadata regions never traps or hangs", arguments: files)
    func corruption(file: String) throws {
        let layout = try SampleLayout(file: file)
        let full = MemoryByteSource(layout.bytes, name: file)
        let regions = layout.corruptRegions.filter { !$0.isEmpty }
        try #require(!regions.isEmpty, "\(file): no metadata region found")
        let identifier = ResourceIdentifier()
        var random = SplitMix64(seed: UInt64(truncatingIfNeeded: file.utf8.reduce(UInt64(14_695_981_039_346_656_037)) {
            ($0 ^ UInt64($1)) &* 1_099_511_628_211
        }))
        let interesting: [UInt32] = [0, 1, 7, 8, 16, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0xFFFF_FFF0, 0xFFFF]
        var problems: [String] = []
        var variantsWithIssues = 0
        let variants = 300
        for variant in 0..<variants {
            var patches: [UInt64: UInt8] = [:]
            for _ in 0...random.below(3) {
                let region = regions[Int(random.below(UInt64(regions.count)))]
                let position = region.lowerBound + random.below(UInt64(region.count))
                switch random.below(5) {
                case 0: patches[position] = layout.bytes[Int(position)] ^ UInt8(1 << random.below(8))
                case 1: patches[position] = 0
                case 2: patches[position] = 0xFF
                case 3: patches[position] = UInt8(truncatingIfNeeded: random.next())
                default:
                    let value = interesting[Int(random.below(UInt64(interesting.count)))]
                    for index in 0..<4 where position + UInt64(index) < UInt64(layout.bytes.count) {
                        patches[position + UInt64(index)] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index)))
                    }
                }
            }
            let source = PatchedByteSource(base: full, patches: patches)
            let identity = identifier.identify(source: source, path: file)
            if !identity.issues.isEmpty { variantsWithIssues += 1 }
            for issue in identity.issues where !knownIssueCodes.contains(issue.code) {
                problems.append("variant \(variant): unknown issue code \(issue.code)")
            }
            let touchesIdentifier = patches.keys.contains { position in
                layout.identifierRegions.contains { $0.contains(position) }
            }
            if !touchesIdentifier, let found = identity.contentIdentifier, found != layout.intact.contentIdentifier {
                problems.append("variant \(variant) \(patches): content identifier \(found) appeared")
            }
        }
        #expect(problems.isEmpty, "\(file): \(problems.count) problems, first: \(problems.prefix(8))")
        // The corruption must reach the parsers: some variants have to be noticed.
        #expect(variantsWithIssues > 0, "\(file): no corrupted variant reported an issue")
    }
}

// MARK: - The broken samples

@Suite("Robustness: broken samples")
struct RobustnessBrokenSampleTests {
    /// The issues identification reports for each broken sample (code and a fragment of the
    /// message), checked against what exiftool says about the files (SampleMedia/manifest.tsv).
    static let expected: [String: [(code: String, fragment: String)]] = [
        // Fuzzed: exiftool warns "Invalid atom size". The iloc table is cut short, a box in iprp
        // declares 5 bytes, and the top-level box at 534 claims 114 MB of an 8 KB file; what was
        // read before the damage is kept.
        "broken/IllegalArgumentException.HeifReader.processBoxes.heif": [
            ("truncated", "meta/iloc"), ("invalid-structure", "smaller than its 8-byte header"),
            ("truncated", "box at offset 534: data ends early"),
        ],
        // Fuzzed: the pitm box declares 6 bytes, so there is no primary item (exiftool: no ImageSize).
        "broken/NegativeArraySizeException.HeifReader.processBoxes.heif": [
            ("invalid-structure", "pitm box: size 6"), ("invalid-structure", "no primary image item"),
        ],
        // exiftool: no SOF found (so no dimensions); the bad ExifIFD entry is skipped silently.
        "broken/badimage.jpeg": [("invalid-structure", "no frame header (SOF)")],
        // MicroVideo=1 with MicroVideoOffset=1024, but the last 1024 bytes are zeros.
        "broken/google_motion_photo_broken.jpg": [("motion-photo-video-missing", "MicroVideoOffset 1024")],
        // A PNG named .jpg: read as the PNG it is, completely.
        "broken/normalphoto.jpg": [],
    ]

    @Test("each broken sample reports exactly the expected issues", arguments: expected.keys.sorted())
    func brokenSample(file: String) throws {
        let bytes = try SampleMedia.bytes(file)
        let expected = try #require(Self.expected[file])
        let identity = ResourceIdentifier().identify(source: MemoryByteSource(bytes, name: file), path: file)
        #expect(identity.issues.map(\.code) == expected.map(\.code))
        for (issue, want) in zip(identity.issues, expected) {
            #expect(issue.message.contains(want.fragment), "\(file): \(issue.message)")
        }
        #expect(identity.contentIdentifier == nil)
    }

    @Test("the fuzzed HEIF files keep what was read before the damage")
    func fuzzedHEIFPartialResults() throws {
        let file = "broken/IllegalArgumentException.HeifReader.processBoxes.heif"
        let identity = ResourceIdentifier().identify(source: MemoryByteSource(try SampleMedia.bytes(file)), path: file)
        #expect(identity.format == .heic)
        #expect(identity.role == .photo)
        let heif = try HEIFFile(source: MemoryByteSource(try SampleMedia.bytes(file)))
        #expect(heif.meta.primaryItemID != nil)
        #expect(!heif.meta.items.isEmpty)
        #expect(!heif.issues.isEmpty)
    }
}

// MARK: - Hostile sizes and counts

/// The error `body` throws, or nil; an error of another type than `FormatError` is recorded as a failure.
func formatError(_ body: () throws -> Void) -> FormatError? {
    do {
        try body()
        return nil
    } catch let error as FormatError {
        return error
    } catch {
        Issue.record("untyped error \(error)")
        return nil
    }
}

/// The `limitExceeded` value, or nil for another outcome.
func exceededValue(_ error: FormatError?) -> UInt64? {
    if case let .limitExceeded(_, _, value, _)? = error { return value }
    return nil
}

/// The `truncated` needed size, or nil for another outcome.
func truncatedNeed(_ error: FormatError?) -> UInt64? {
    if case let .truncated(_, needed, _)? = error { return needed }
    return nil
}

/// A minimal baseline JPEG (16x16, three components) with `app1` payloads before the frame header.
func handMadeJPEG(app1: [[UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = [0xFF, 0xD8]
    for payload in app1 { bytes += [0xFF, 0xE1] + BoxBuilder.u16(UInt16(payload.count + 2)) + payload }
    bytes += [0xFF, 0xC0, 0x00, 0x11, 8, 0, 16, 0, 16, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]
    bytes += [0xFF, 0xDA, 0x00, 0x0C, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0, 0x12, 0x34, 0xFF, 0xD9]
    return bytes
}

/// An XMP packet claiming a motion photo whose video item has `Item:Length` `lengths`.
func motionPhotoXMP(videoLengths lengths: [String]) -> [UInt8] {
    let items = lengths.map { length in
        "<rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Mime=\"video/mp4\" Item:Semantic=\"MotionPhoto\" Item:Length=\"\(length)\"/></rdf:li>"
    }.joined()
    let text = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description xmlns:Camera="http://ns.google.com/photos/1.0/camera/" \
        xmlns:Container="http://ns.google.com/photos/1.0/container/" \
        xmlns:Item="http://ns.google.com/photos/1.0/container/item/" Camera:MotionPhoto="1" Camera:MotionPhotoVersion="1">\
        <Container:Directory><rdf:Seq>\
        <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary"/></rdf:li>\
        \(items)</rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>
        """
    return Array(text.utf8)
}

@Suite("Robustness: hostile sizes and counts")
struct RobustnessHostileTests {
    typealias B = BoxBuilder

    /// Runs `body` and checks it did not reserve gigabytes: a parser that trusted a count of 2^32
    /// would reserve at least 4 GiB (VmPeak counts reservations that were never touched).
    func bounded(_ what: String, _ body: () -> Void) {
        let peak = virtualMemoryPeak()
        body()
        #expect(virtualMemoryPeak() &- peak < 4 << 30, "\(what) raised the virtual memory peak by \(virtualMemoryPeak() &- peak) bytes")
    }

    @Test("a box claiming 2^63 bytes is truncated in memory, and over the limit in a source that big")
    func boxOfTwoToTheSixtyThree() {
        bounded("2^63 box") {
            let movie = B.ftyp(major: "qt  ") + B.largeBox("moov", declaredSize: 1 << 63, B.mvhd())
            let error = formatError { _ = try QuickTimeMovieParser().parse(MemoryByteSource(movie)) }
            #expect(truncatedNeed(error) == 1 << 63)
            var reader = ByteReader(movie)
            #expect(truncatedNeed(formatError { _ = try BoxParser().parseBoxes(&reader) }) == 1 << 63)
            let identity = ResourceIdentifier().identify(source: MemoryByteSource(movie), path: "hostile.mov")
            #expect(identity.issues.map(\.code) == ["truncated"])
            #expect(identity.role == .video)

            // A source that really is that large: refused by the metadata limit before any read.
            let sparse = SparseByteSource(prefix: movie, size: (1 << 63) + 4096)
            #expect(exceededValue(formatError { _ = try QuickTimeMovieParser().parse(sparse) }) == 1 << 63)
            let heif = B.ftyp(major: "heic", compatible: ["mif1"]) + B.largeBox("meta", declaredSize: 1 << 63, [0, 0, 0, 0])
            let heifSource = SparseByteSource(prefix: heif, size: (1 << 63) + 4096)
            #expect(exceededValue(formatError { _ = try HEIFFile(source: heifSource) }) == 1 << 63)
            #expect(truncatedNeed(formatError { _ = try HEIFFile(source: MemoryByteSource(heif)) }) == 1 << 63)
            // UInt64.max: no overflow when adding it to an offset.
            let huge = B.ftyp(major: "qt  ") + B.largeBox("moov", declaredSize: .max, B.mvhd())
            #expect(truncatedNeed(formatError { _ = try QuickTimeMovieParser().parse(MemoryByteSource(huge)) }) == .max)
        }
    }

    @Test("a moov whose size field says 0xFFFFFFF0 is truncated, or over the metadata limit")
    func moovOfFourGigabytes() {
        bounded("0xFFFFFFF0 moov") {
            let movie = B.ftyp(major: "qt  ") + B.box("moov", declaredSize: 0xFFFF_FFF0, B.mvhd())
            #expect(truncatedNeed(formatError { _ = try QuickTimeMovieParser().parse(MemoryByteSource(movie)) }) == 0xFFFF_FFF0)
            let sparse = SparseByteSource(prefix: movie, size: 1 << 33)
            #expect(exceededValue(formatError { _ = try QuickTimeMovieParser().parse(sparse) }) == 0xFFFF_FFF0)
            let identity = ResourceIdentifier().identify(source: sparse, path: "hostile.mov")
            #expect(identity.issues.map(\.code) == ["limit-exceeded"])
        }
    }

    @Test(
        "sample tables and edit lists claiming 2^32 - 1 entries are over the limit",
        arguments: ["stts", "ctts", "stsc", "stco", "co64", "stss", "stsz", "elst", "stsd"])
    func hugeTable(type: String) {
        bounded(type) {
            var edts: [UInt8]?
            var children: [[UInt8]] = []
            switch type {
            case "elst": edts = B.box("edts", B.table("elst", count: 0xFFFF_FFFF))
            case "stsz": children = [B.stsz(count: 0xFFFF_FFFF)]
            default: children = [B.table(type, count: 0xFFFF_FFFF)]
            }
            let movie = B.movie([B.trak(edts: edts, stblChildren: children)])
            let error = formatError { _ = try QuickTimeMovieParser().parse(MemoryByteSource(movie)) }
            #expect(exceededValue(error) == 0xFFFF_FFFF, "\(type): \(String(describing: error))")
            if case let .limitExceeded(context, _, _, maximum)? = error {
                #expect(context == type)
                #expect(maximum == UInt64(ParseLimits.default.maximumTableEntries))
            }
        }
    }

    @Test("a count under the limit but larger than the box is truncated, not allocated")
    func tableLargerThanItsBox() {
        bounded("stts of 4,000,000") {
            let movie = B.movie([B.trak(stblChildren: [B.table("stts", count: 4_000_000, B.u32(1) + B.u32(1))])])
            let error = formatError { _ = try QuickTimeMovieParser().parse(MemoryByteSource(movie)) }
            #expect(truncatedNeed(error) == 32_000_000)
            let constant = B.movie([B.trak(stblChildren: [B.stsz(constantSize: 1, count: 0xFFFF_FFFF)])])
            #expect(exceededValue(formatError { _ = try QuickTimeMovieParser().parse(MemoryByteSource(constant)) }) == 0xFFFF_FFFF)
        }
    }

    @Test("composition-offset runs claiming 2^32 - 1 samples each are walked only as far as needed")
    func hugeCompositionRuns() throws {
        // Found by the fuzzer (Tests/Fixtures/fuzz/timeout-ctts-huge-run-count): the ctts loop
        // counted every claimed sample of every run, 2^32 per run, after the wanted times were filled.
        let stts = B.table("stts", count: 1, B.u32(3) + B.u32(10))
        let runs = (0..<1000).flatMap { _ in B.u32(0xFFFF_FFFF) + B.u32(5) }
        let ctts = B.table("ctts", count: 1000, runs)
        let movie = B.movie([B.trak(stblChildren: [stts, ctts])])
        let parsed = try QuickTimeMovieParser().parse(MemoryByteSource(movie))
        let track = try #require(parsed.tracks.first)
        #expect(track.samples.presentationTimes(limit: 1) == [5])
        #expect(track.samples.presentationTimes(limit: 64) == [5, 15, 25])
    }

    @Test("an stts claiming 2^32 - 1 samples expands no further than stsz's count")
    func hugeTimeToSampleRun() throws {
        // One run of 2^32 - 1 samples would be 32 GB of presentation times; stsz says there are 10.
        let stts = B.table("stts", count: 1, B.u32(0xFFFF_FFFF) + B.u32(20))
        let stsz = B.fullBox("stsz", version: 0, flags: 0, B.u32(100) + B.u32(10))
        let movie = B.movie([B.trak(stblChildren: [stts, stsz])])
        let parsed = try QuickTimeMovieParser().parse(MemoryByteSource(movie))
        let track = try #require(parsed.tracks.first)
        #expect(track.samples.presentationTimes(limit: .max) == (0..<10).map { Int64($0 * 20) })
        #expect(track.presentationTimes().count == 10)
    }

    @Test("sample-table arithmetic on hostile values neither overflows nor traps")
    func overflowingSampleTables() throws {
        // Found by reading the code and confirmed with the harness (Tests/Fixtures/fuzz/crash-*):
        // stsc runs of 2^32 - 2 chunks of 2^32 - 1 samples overflowed Int, an elst media time of
        // Int64.min overflowed the subtraction, and stts deltas summed past UInt64.max.
        let stts = B.table("stts", count: 2, B.u32(0xFFFF_FFFF) + B.u32(0xFFFF_FFFF) + B.u32(0xFFFF_FFFF) + B.u32(0xFFFF_FFFF))
        let stsc = B.table("stsc", count: 2, B.u32(1) + B.u32(0xFFFF_FFFF) + B.u32(1) + B.u32(0xFFFF_FFFF) + B.u32(1) + B.u32(1))
        let stsz = B.stsz(count: 1, B.u32(4))
        let stco = B.table("stco", count: 1, B.u32(1234))
        let elst = B.box("edts", B.table("elst", version: 1, count: 1, B.u64(600) + B.u64(1 << 63) + B.u32(0x0001_0000)))
        let movie = B.movie([B.trak(edts: elst, stblChildren: [stts, stsc, stsz, stco])])
        let parsed = try QuickTimeMovieParser().parse(MemoryByteSource(movie))
        let track = try #require(parsed.tracks.first)
        #expect(track.editList.first?.mediaTime == .min)
        #expect(track.samples.sampleOffset(at: 0) == 1234)
        #expect(track.samples.totalDuration == .max)
        #expect(track.presentationTimes(limit: 4).isEmpty)  // no edit shows media time 0
        #expect(track.sampleRate != nil)
        let identity = ResourceIdentifier().identify(source: MemoryByteSource(movie), path: "hostile.mov")
        // The integrity check sees the lie: one sample in stsz, 2^32 - 1 claimed by the first chunk.
        #expect(identity.issues.map(\.code) == ["sample-table-out-of-file"])
        #expect(identity.duration == 1)
    }

    @Test("keys claiming 2^32 - 1 entries, and an ilst item claiming 4 GiB, are rejected")
    func hugeMetadataKeys() {
        bounded("keys") {
            let movie = B.movie([B.quickTimeMeta(declaredKeyCount: 0xFFFF_FFFF, keys: [QuickTimeMovie.contentIdentifierKey])])
            let error = formatError { _ = try QuickTimeMovieParser().parse(MemoryByteSource(movie)) }
            #expect(exceededValue(error) == 0xFFFF_FFFF)
            if case let .limitExceeded(context, _, _, _)? = error { #expect(context == "keys") }
            let item = B.u32(0xFFFF_FFFF) + B.u32(1) + B.box("data", B.u32(1) + B.u32(0) + Array("X".utf8))
            let lying = B.movie([B.quickTimeMeta(keys: [QuickTimeMovie.contentIdentifierKey], ilst: item)])
            #expect(truncatedNeed(formatError { _ = try QuickTimeMovieParser().parse(MemoryByteSource(lying)) }) == 0xFFFF_FFFF)
            // The well-formed version of the same movie gives the identifier: the builders are right.
            let good = B.movie([
                B.quickTimeMeta(
                    keys: [QuickTimeMovie.contentIdentifierKey],
                    ilst: B.ilstString(keyIndex: 1, "C3754624-A05F-474D-9F16-E9C47B5F892D"))
            ])
            let identity = ResourceIdentifier().identify(source: MemoryByteSource(good), path: "good.mov")
            #expect(identity.contentIdentifier?.rawValue == "C3754624-A05F-474D-9F16-E9C47B5F892D")
            // Metadata alone is read without error; a movie without tracks has no video to show.
            #expect(identity.issues.map(\.code) == ["missing-video-track"])
        }
    }

    @Test("HEIF iloc, iinf and ipma with huge counts are over the limit; smaller lies are truncated")
    func hugeHEIFCounts() throws {
        bounded("HEIF counts") {
            let ilocV2 = B.heif(metaChildren: [B.iloc(version: 2, declaredCount: 0xFFFF_FFFF)])
            #expect(exceededValue(formatError { _ = try HEIFFile(source: MemoryByteSource(ilocV2)) }) == 0xFFFF_FFFF)
            let ilocV1 = B.heif(metaChildren: [B.iloc(version: 1, declaredCount: 0xFFFF)])
            #expect(exceededValue(formatError { _ = try HEIFFile(source: MemoryByteSource(ilocV1)) }) == 0xFFFF)
            let iinfV1 = B.heif(metaChildren: [B.iinf(version: 1, declaredCount: 0xFFFF_FFFF)])
            #expect(exceededValue(formatError { _ = try HEIFFile(source: MemoryByteSource(iinfV1)) }) == 0xFFFF_FFFF)
            let ipma = B.box("iprp", B.box("ipco", []) + B.fullBox("ipma", B.u32(0xFFFF_FFFF)))
            let ipmaFile = B.heif(metaChildren: [ipma])
            #expect(exceededValue(formatError { _ = try HEIFFile(source: MemoryByteSource(ipmaFile)) }) == 0xFFFF_FFFF)
            let identity = ResourceIdentifier().identify(source: MemoryByteSource(ilocV2), path: "hostile.heic")
            #expect(identity.issues.map(\.code) == ["limit-exceeded"])
        }
        // Under the item limit but larger than the box: a partial result with a truncated issue.
        let small = B.heif(metaChildren: [B.iinf(version: 0, declaredCount: 5000), B.iloc(version: 1, declaredCount: 9000)])
        let heif = try HEIFFile(source: MemoryByteSource(small))
        #expect(heif.issues.map(\.code) == ["truncated", "truncated"])
        #expect(heif.meta.items.isEmpty && heif.meta.locations.isEmpty)
        // One Exif item whose only extent claims 4 GiB - 1 bytes: the item read is truncated.
        let infe = B.fullBox("infe", version: 2, B.u16(1) + B.u16(0) + B.fourCC("Exif") + [0])
        let extent = B.u16(1) + B.u16(0) + B.u16(0) + B.u16(1) + B.u32(0) + B.u32(0xFFFF_FFFF)
        let exif = B.heif(metaChildren: [B.fullBox("pitm", B.u16(1)), B.iinf(declaredCount: 1, infe), B.iloc(declaredCount: 1, extent)])
        let file = try HEIFFile(source: MemoryByteSource(exif))
        #expect(truncatedNeed(formatError { _ = try file.exif(from: MemoryByteSource(exif)) }) == 0xFFFF_FFFF)
    }

    @Test("an IFD declaring 65535 entries, offset loops and endless chains end with a typed error or a note")
    func hostileIFDs() throws {
        bounded("IFDs") {
            // 65535 declared entries, one present.
            let lying = TIFFBuilder.tiff(entries: [TIFFBuilder.short(0x0112, 1)], declaredCount: 0xFFFF)
            #expect(truncatedNeed(formatError { _ = try TIFFReader().read(lying) }) == 0xFFFF * 12)
            // BigTIFF with a 2^64 - 1 entry count.
            let big: [UInt8] = [0x4D, 0x4D, 0, 43, 0, 8, 0, 0] + B.u64(16) + B.u64(.max)
            #expect(exceededValue(formatError { _ = try TIFFReader().read(big) }) == .max)
        }
        // 65535 real entries and a next-IFD offset pointing back at IFD0.
        let entries = (0..<65535).map { TIFFBuilder.short(0xC000 + UInt16($0 % 0x1000), 1) }
        let loop = TIFFBuilder.tiff(entries: entries, next: 8)
        let structure = try TIFFReader().read(loop)
        #expect(structure.ifds.count == 1)
        #expect(structure.ifd0?.entries.count == 65535)
        #expect(structure.issues.contains { $0.contains("cycle") })

        bounded("IFD loops") {
            // IFD0 -> IFD1 -> IFD0, and an Exif pointer to IFD0 itself.
            let ifd1At = 8 + 2 + 12 * 2 + 4
            let ifd0 = TIFFBuilder.ifd(
                at: 8, entries: [TIFFBuilder.short(0x0112, 6), TIFFBuilder.long(TIFFReader.exifIFDPointerTag, 8)],
                next: UInt32(ifd1At))
            let ifd1 = TIFFBuilder.ifd(at: ifd1At, entries: [TIFFBuilder.short(0x0103, 6)], next: 8)
            let cyclic = TIFFBuilder.header() + ifd0 + ifd1
            let result = formatError {
                let structure = try TIFFReader().read(cyclic)
                #expect(structure.ifds.count == 2)
                #expect(structure.issues.filter { $0.contains("cycle") }.count == 2)
                #expect(ExifMetadata(structure).orientation == 6)
            }
            #expect(result == nil)

            // A chain of 100 distinct IFDs: the chain limit (64) stops it.
            var chain = TIFFBuilder.header()
            for index in 0..<100 {
                let offset = 8 + 6 * index
                chain += TIFFBuilder.ifd(at: offset, entries: [], next: index == 99 ? 0 : UInt32(offset + 6))
            }
            let error = formatError { _ = try TIFFReader().read(chain) }
            #expect(exceededValue(error) == UInt64(ParseLimits.default.maximumIFDChainLength + 1))

            // An entry of 2^32 - 1 LONGs (16 GiB): skipped, nothing copied.
            let hugeValue = TIFFBuilder.Entry(tag: 0x010F, type: 4, count: 0xFFFF_FFFF, value: [], rawField: 8)
            let skipped = formatError {
                let structure = try TIFFReader().read(TIFFBuilder.tiff(entries: [hugeValue, TIFFBuilder.short(0x0112, 3)]))
                #expect(structure.ifd0?.skippedEntryCount == 1)
                #expect(structure.ifd0?.entries.map(\.tag) == [0x0112])
            }
            #expect(skipped == nil)
        }
    }

    @Test("an Apple maker note with a huge entry count or value count is rejected without allocating")
    func hostileMakerNote() {
        bounded("maker note") {
            let identifier = TIFFBuilder.ascii(AppleMakerNote.contentIdentifierTag, "C3754624-A05F-474D-9F16-E9C47B5F892D")
            let good = formatError {
                let note = try AppleMakerNote.parse(TIFFBuilder.appleMakerNote(entries: [identifier]))
                #expect(note?.contentIdentifier == "C3754624-A05F-474D-9F16-E9C47B5F892D")
            }
            #expect(good == nil)
            let lying = TIFFBuilder.appleMakerNote(entries: [identifier], declaredCount: 0xFFFF)
            #expect(truncatedNeed(formatError { _ = try AppleMakerNote.parse(lying) }) == 0xFFFF * 12)
            let huge = TIFFBuilder.Entry(tag: AppleMakerNote.contentIdentifierTag, type: 16, count: 0xFFFF_FFFF, value: [], rawField: 14)
            let skipped = formatError {
                let note = try AppleMakerNote.parse(TIFFBuilder.appleMakerNote(entries: [huge]))
                #expect(note != nil)
                #expect(note?.entries.isEmpty == true)
                #expect(note?.contentIdentifier == nil)
            }
            #expect(skipped == nil)
        }
    }

    @Test("XMP nested 100,000 deep stops at the depth limit; Item:Length 2^31 and overflowing lengths are harmless")
    func hostileXMP() {
        bounded("XMP") {
            let opening = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/" xmlns:Camera="http://ns.google.com/photos/1.0/camera/" Camera:MotionPhoto="1">"#.utf8)
            let deep = opening + Array(repeating: Array("<a>".utf8), count: 100_000).flatMap { $0 }
            let packet = MotionPhotoXMP(deep)
            #expect(packet.motionPhoto == 1)
            guard case let .invalid(_, reason)? = packet.malformation else {
                Issue.record("deep nesting gave \(String(describing: packet.malformation))")
                return
            }
            #expect(reason.contains("nested deeper than \(XMLScanner.maximumElementDepth)"))

            let hostileLengths = [
                ["2147483648"], ["9223372036854775807", "9223372036854775807"], ["9223372036854775807", "1"],
                ["-9223372036854775808"],
            ]
            for lengths in hostileLengths {
                let xmp = motionPhotoXMP(videoLengths: lengths)
                let parsed = MotionPhotoXMP(xmp)
                #expect(parsed.malformation == nil)
                #expect(parsed.containerItems.count == 1 + lengths.count)
                #expect(parsed.containerItems.dropFirst().map(\.length) == lengths.map { Int64($0) })
                let jpeg = handMadeJPEG(app1: [JPEGSegmentReader.xmpSignature + xmp])
                let identity = ResourceIdentifier().identify(source: MemoryByteSource(jpeg), path: "hostile.jpg")
                #expect(identity.width == 16 && identity.height == 16)
                #expect(identity.role == .motionPhoto)
                #expect(identity.issues.map(\.code) == ["motion-photo-video-missing"])
            }
        }
    }

    @Test("an extended XMP chunk declaring 4 GiB is refused with a warning, not allocated")
    func hostileExtendedXMP() throws {
        var chunk = JPEGSegmentReader.extendedXMPSignature + Array(String(repeating: "A", count: 32).utf8)
        chunk += B.u32(0xFFFF_FFFF) + B.u32(0) + Array("<x:xmpmeta/>".utf8)
        let jpeg = handMadeJPEG(app1: [chunk])
        let peak = virtualMemoryPeak()
        let structure = try JPEGSegmentReader().read(MemoryByteSource(jpeg))
        #expect(virtualMemoryPeak() &- peak < 2 << 30)
        #expect(structure.extendedXMP.isEmpty)
        #expect(structure.warnings.contains { $0.contains("extended XMP") })
    }

    @Test("a Samsung SEF trailer with a huge entry count or directory length is rejected")
    func hostileSEFTrailer() {
        bounded("SEF") {
            func le(_ value: UInt32) -> [UInt8] { B.u32(value).reversed() }
            let directory = Array("SEFH".utf8) + le(107) + le(0xFFFF_FFFF)
            let file = [UInt8](repeating: 0, count: 64) + directory + le(UInt32(directory.count)) + Array("SEFT".utf8)
            #expect(exceededValue(formatError { _ = try SamsungSEFTrailer.read(MemoryByteSource(file)) }) == 0xFFFF_FFFF)
            let longer = [UInt8](repeating: 0, count: 64) + le(0xFFFF_FFF0) + Array("SEFT".utf8)
            let error = formatError { _ = try SamsungSEFTrailer.read(MemoryByteSource(longer)) }
            #expect(error?.code == "invalid-structure")

            // A Container directory pointing 20 bytes before the end, where an SEF entry spells
            // "ftyp": the video would end (at the SEF directory) before it starts. This trapped
            // (UInt64 underflow) before the fix; see Tests/Fixtures/fuzz/crash-sef-container-video-ends-before-start.jpg.
            let jpeg = handMadeJPEG(app1: [JPEGSegmentReader.xmpSignature + motionPhotoXMP(videoLengths: ["20"])])
            let entry: [UInt8] = [0, 0, 0x30, 0x0A] + Array("ftyp".utf8) + le(64)
            let sefh = Array("SEFH".utf8) + le(107) + le(1) + entry
            let withTrailer = jpeg + sefh + le(UInt32(sefh.count)) + Array("SEFT".utf8)
            let identity = ResourceIdentifier().identify(source: MemoryByteSource(withTrailer), path: "hostile.jpg")
            #expect(identity.role == .motionPhoto)
            #expect(identity.issues.map(\.code) == ["motion-photo-video-missing"])
        }
    }
}

// MARK: - Fuzzer findings

@Suite("Robustness: fuzzer regression fixtures")
struct RobustnessFuzzFixtureTests {
    /// Tests/Fixtures/fuzz: inputs that crashed or hung the libFuzzer harness before their fix.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")

    static let fixtures: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
    }()

    @Test("the fixture directory is not empty")
    func fixturesExist() {
        #expect(!Self.fixtures.isEmpty)
    }

    @Test("every fuzzer finding runs through every parser without trapping", arguments: fixtures)
    func replay(name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(name)))
        FuzzReplay.runAll(bytes)
    }
}

/// The same calls, with the same limits, as Fuzz/FuzzIdentify.swift, so a fixture replays what
/// crashed the harness.
enum FuzzReplay {
    static let limits: ParseLimits = {
        var limits = ParseLimits.default
        limits.maximumMetadataBytes = 16 << 20
        limits.maximumTableEntries = 1_000_000
        return limits
    }()

    static func runAll(_ bytes: [UInt8]) {
        let source = MemoryByteSource(bytes, name: "fuzz")
        var reader = ByteReader(bytes, context: "fuzz")
        let boxParser = BoxParser(limits: limits)
        let parser = QuickTimeMovieParser(limits: limits)
        if let boxes = try? boxParser.parseBoxes(&reader) {
            for box in boxes where box.type == "moov" {
                _ = try? parser.parse(moov: box, fileType: nil, topLevelBoxes: [])
            }
        }
        if let movie = try? parser.parse(source) {
            _ = parser.stillImageTime(of: movie, source: source)
            for track in movie.tracks {
                _ = track.sampleRate
                _ = track.presentationTimes(limit: 64)
                _ = track.header.orientation
                _ = track.samples.sampleOffset(at: 0)
                _ = track.samples.sampleSize(at: 0)
            }
        }
        if let file = try? HEIFFile(source: source, limits: limits) {
            _ = file.primaryItem
            _ = file.thumbnails
            _ = file.auxiliaryImages
            if let exif = try? file.exif(from: source) {
                _ = try? ExifMetadata.read(tiffBytes: exif.tiff, fileOffset: exif.fileOffset, limits: limits)
            }
            if let packets = try? file.xmp(from: source) {
                for packet in packets { _ = MotionPhotoXMP(packet.bytes, limits: limits) }
            }
            for item in file.meta.items.prefix(64) {
                _ = try? file.itemData(item.id, from: source, maximumBytes: 1 << 20)
                if item.type == "grid" { _ = try? file.grid(of: item.id, from: source) }
                _ = file.meta.properties(of: item.id)
            }
            _ = try? file.primaryImageRecipe(from: source)
        }
        if let structure = try? JPEGSegmentReader(limits: limits).read(source) {
            if let tiff = structure.exifTIFF {
                _ = try? ExifMetadata.read(tiffBytes: tiff, fileOffset: structure.exifTIFFFileOffset, limits: limits)
            }
            if let packet = structure.xmp { _ = MotionPhotoXMP(packet, limits: limits) }
        }
        if let structure = try? TIFFReader(limits: limits).read(bytes, fileOffset: 0) {
            let metadata = ExifMetadata(structure)
            _ = metadata.captureDate
            _ = metadata.appleMakerNote?.contentIdentifier
            for ifd in structure.ifds {
                for entry in ifd.entries.prefix(256) {
                    _ = entry.unsignedIntegers
                    _ = entry.doubles
                    _ = entry.string
                }
            }
        }
        _ = try? AppleMakerNote.parse(bytes, limits: limits)
        let bigEndian = (bytes.first ?? 0) & 1 == 0
        let header = AppleMakerNote.signature + [0, 1] + (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49])
        _ = try? AppleMakerNote.parse(header + bytes.dropFirst(), limits: limits)
        _ = MotionPhotoXMP(bytes, limits: limits).presentationTimestampUs
        _ = try? SamsungSEFTrailer.read(source, limits: limits)
        _ = try? MotionPhotoLocator(limits: limits, scansUnclaimedFiles: true).locate(in: source, xmp: nil)
        _ = ResourceIdentifier(limits: limits).identify(source: source, path: "fuzz")
    }
}
