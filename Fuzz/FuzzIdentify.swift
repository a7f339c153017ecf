// libFuzzer entry point for LivePair's format layer. Built and run by `scripts/fuzz.sh`, which
// compiles the LivePairFormats sources (and the identification code of LivePair) together with
// this file using `swiftc -sanitize=fuzzer,address`. Not part of the Swift package.
//
// Every parser is run on the whole input through a `MemoryByteSource`. A parser may throw
// (`FormatError`) or return a partial result; what it must not do is trap, read out of bounds,
// allocate without bound, or hang. libFuzzer reports each of those as a crash, a leak, an
// out-of-memory or a timeout.

import LivePair
import LivePairFormats

/// Tight limits so that a hostile input cannot make a legitimate-looking but huge allocation
/// inside the fuzzer's memory budget; real inputs are small prefixes of camera files.
private let fuzzLimits: ParseLimits = {
    var limits = ParseLimits.default
    limits.maximumMetadataBytes = 16 << 20
    limits.maximumTableEntries = 1_000_000
    return limits
}()

/// libFuzzer's entry point: runs every parser on `data[0..<size]`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    FuzzTargets.runAll(bytes)
    return 0
}

/// The parsers the harness drives, one function per entry point.
enum FuzzTargets {
    /// Runs every target on `bytes`.
    static func runAll(_ bytes: [UInt8]) {
        let source = MemoryByteSource(bytes, name: "fuzz")
        boxTree(bytes)
        movie(source)
        heif(source)
        jpeg(source)
        tiff(bytes)
        makerNote(bytes)
        xmp(bytes)
        sefTrailer(source)
        identify(source)
    }

    /// `BoxParser` over the whole input, then the leaf parsers that take a parsed `moov`.
    static func boxTree(_ bytes: [UInt8]) {
        var reader = ByteReader(bytes, context: "fuzz")
        let parser = BoxParser(limits: fuzzLimits)
        guard let boxes = try? parser.parseBoxes(&reader) else { return }
        for box in boxes where box.type == "moov" {
            _ = try? QuickTimeMovieParser(limits: fuzzLimits).parse(moov: box, fileType: nil, topLevelBoxes: [])
        }
        if bytes.count >= 8, let box = try? parser.parseBox(bytes, fileOffset: 0) {
            _ = box.descendant(["trak", "mdia", "minf", "stbl"])
        }
    }

    /// `QuickTimeMovieParser` plus the still-image-time lookup and the derived timing values.
    static func movie(_ source: MemoryByteSource) {
        let parser = QuickTimeMovieParser(limits: fuzzLimits)
        guard let movie = try? parser.parse(source) else { return }
        _ = parser.stillImageTime(of: movie, source: source)
        for track in movie.tracks {
            _ = track.sampleRate
            _ = track.presentationTimes(limit: 64)
            _ = track.header.orientation
            _ = track.samples.sampleOffset(at: 0)
            _ = track.samples.sampleSize(at: 0)
            _ = track.primaryDescription?.codecName
        }
        _ = movie.metadataValue(QuickTimeMovie.contentIdentifierKey)
    }

    /// `HEIFFile` and the item reads identification and decoding do.
    static func heif(_ source: MemoryByteSource) {
        guard let file = try? HEIFFile(source: source, limits: fuzzLimits) else { return }
        _ = file.primaryItem
        _ = file.thumbnails
        _ = file.auxiliaryImages
        if let exif = try? file.exif(from: source) {
            _ = try? ExifMetadata.read(tiffBytes: exif.tiff, fileOffset: exif.fileOffset, limits: fuzzLimits)
        }
        if let packets = try? file.xmp(from: source) {
            for packet in packets { _ = MotionPhotoXMP(packet.bytes, limits: fuzzLimits) }
        }
        for item in file.meta.items.prefix(64) {
            _ = try? file.itemData(item.id, from: source, maximumBytes: 1 << 20)
            if item.type == "grid" { _ = try? file.grid(of: item.id, from: source) }
            _ = file.meta.properties(of: item.id)
        }
        _ = try? file.primaryImageRecipe(from: source)
    }

    /// `JPEGSegmentReader`, then the Exif and XMP it found.
    static func jpeg(_ source: MemoryByteSource) {
        guard let structure = try? JPEGSegmentReader(limits: fuzzLimits).read(source) else { return }
        if let tiff = structure.exifTIFF {
            _ = try? ExifMetadata.read(tiffBytes: tiff, fileOffset: structure.exifTIFFFileOffset, limits: fuzzLimits)
        }
        if let packet = structure.xmp { _ = MotionPhotoXMP(packet, limits: fuzzLimits) }
    }

    /// `TIFFReader` and `ExifMetadata` on the input as a TIFF block.
    static func tiff(_ bytes: [UInt8]) {
        guard let structure = try? TIFFReader(limits: fuzzLimits).read(bytes, fileOffset: 0) else { return }
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

    /// `AppleMakerNote.parse` on the input, and on the input behind an Apple signature and header
    /// (so mutations reach the entry table without having to discover the signature).
    static func makerNote(_ bytes: [UInt8]) {
        _ = try? AppleMakerNote.parse(bytes, limits: fuzzLimits)
        let bigEndian = (bytes.first ?? 0) & 1 == 0  // the first byte picks the byte order
        let header = AppleMakerNote.signature + [0, 1] + (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49])
        if let note = try? AppleMakerNote.parse(header + bytes.dropFirst(), limits: fuzzLimits) {
            _ = note.contentIdentifier
            _ = note.livePhotoVideoIndex
        }
    }

    /// `MotionPhotoXMP` (and so `XMLScanner`) on the input as an XMP packet.
    static func xmp(_ bytes: [UInt8]) {
        let packet = MotionPhotoXMP(bytes, limits: fuzzLimits)
        _ = packet.presentationTimestampUs
        _ = packet.motionPhotoItemIndex
    }

    /// The Samsung SEF trailer reader and the motion-photo locator.
    static func sefTrailer(_ source: MemoryByteSource) {
        _ = try? SamsungSEFTrailer.read(source, limits: fuzzLimits)
        _ = try? MotionPhotoLocator(limits: fuzzLimits, scansUnclaimedFiles: true).locate(in: source, xmp: nil)
    }

    /// The whole identification path, which chains the parsers above.
    static func identify(_ source: MemoryByteSource) {
        _ = ResourceIdentifier(limits: fuzzLimits).identify(source: source, path: "fuzz")
    }
}
