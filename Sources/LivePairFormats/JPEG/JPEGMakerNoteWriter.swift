/// Writes the Live Photo content identifier into a JPEG still: Apple's maker note (EXIF 0x927C,
/// tag 0x0011) inside the Exif APP1 segment, creating the maker note or the whole Exif segment
/// when absent. Every other segment is copied byte for byte and the image data (from SOS on) is
/// streamed unchanged. The input is never modified.
///
/// Three cases, least invasive first:
/// - the Apple maker note already has a 37-byte tag 0x0011: the 37 bytes are replaced in place,
///   so the Exif segment keeps its length and every other byte;
/// - otherwise, with Exif present: the maker note is rebuilt (an existing Apple note keeps all
///   its entries; another vendor's note is replaced) and the TIFF block is relaid with
///   `TIFFWriter`, which keeps every entry of every IFD;
/// - without Exif: an Exif APP1 (IFD0 with an Exif IFD holding ExifVersion and the maker note)
///   is inserted after SOI, or after a leading JFIF APP0.
public struct JPEGMakerNoteWriter: Sendable {
    /// How the identifier was written.
    public enum Method: String, Sendable, Equatable {
        /// The existing tag 0x0011 was overwritten in place.
        case replacedInPlace = "replaced-in-place"
        /// The Exif TIFF block was relaid with a new or rebuilt maker note.
        case rebuiltExif = "rebuilt-exif"
        /// A new Exif APP1 segment was inserted.
        case createdExif = "created-exif"
    }

    /// What a write did.
    public struct Result: Sendable, Equatable {
        /// How the identifier was written.
        public let method: Method
        /// Output size in bytes.
        public let outputSize: UInt64
    }

    /// The JPEG read.
    public let source: any ByteSource
    /// Limits for parsing.
    public var limits: ParseLimits
    /// A capture date and place written into the Exif with the identifier (`CaptureStamp`); nil
    /// keeps the still's own.
    public var captureStamp: CaptureStamp?

    /// A writer for the JPEG in `source`.
    public init(source: any ByteSource, limits: ParseLimits = .default) {
        self.source = source
        self.limits = limits
    }

    /// Writes the JPEG with `contentIdentifier` to `path` atomically (temporary file, fsync, rename).
    @discardableResult
    public func write(
        to path: String, contentIdentifier: String, interpose: ((any ByteSink) -> any ByteSink)? = nil
    ) throws(FormatError) -> Result {
        let plan = try makePlan(contentIdentifier: contentIdentifier)
        try AtomicFileWriter.write(to: path, interpose: interpose) { sink throws(FormatError) in
            try emit(plan, to: sink)
        }
        return Result(method: plan.method, outputSize: plan.size)
    }

    /// Writes the JPEG with `contentIdentifier` to `sink`.
    @discardableResult
    public func write(to sink: any ByteSink, contentIdentifier: String) throws(FormatError) -> Result {
        let plan = try makePlan(contentIdentifier: contentIdentifier)
        try emit(plan, to: sink)
        return Result(method: plan.method, outputSize: plan.size)
    }

    // MARK: The TIFF block

    /// What a newly created Exif block says besides the maker note: the values Exif requires of a
    /// JPEG (resolution, YCbCr positioning, components, Flashpix version, colour space, pixel size).
    public struct NewExifDefaults: Sendable, Equatable {
        /// Pixel width and height (PixelXDimension, PixelYDimension), from SOFn.
        public var width: Int?
        /// Pixel height.
        public var height: Int?
        /// Horizontal and vertical resolution and unit (2 inches, 3 centimetres), from JFIF when it
        /// has units, else 72 per inch.
        public var resolution: (x: UInt32, y: UInt32, unit: UInt16) = (72, 72, 2)
        /// Whether an ICC profile is embedded (ColorSpace is then 0xFFFF, uncalibrated, else 1, sRGB).
        public var hasICCProfile = false

        /// Defaults for an image of `width` by `height`.
        public init(width: Int? = nil, height: Int? = nil) {
            self.width = width
            self.height = height
        }

        /// Compares every field.
        public static func == (lhs: NewExifDefaults, rhs: NewExifDefaults) -> Bool {
            lhs.width == rhs.width && lhs.height == rhs.height && lhs.resolution == rhs.resolution
                && lhs.hasICCProfile == rhs.hasICCProfile
        }
    }

    /// The TIFF block `tiff` (or a new one, described by `defaults`, when nil) with
    /// `contentIdentifier` in Apple's maker note and, when given, the date and place of `capture`.
    public static func updatedTIFF(
        _ tiff: [UInt8]?, contentIdentifier: String, defaults: NewExifDefaults = NewExifDefaults(),
        capture: CaptureStamp? = nil, limits: ParseLimits = .default
    ) throws(FormatError) -> (tiff: [UInt8], method: Method) {
        guard contentIdentifier.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), !contentIdentifier.isEmpty else {
            throw .invalid(context: "content identifier", reason: "must be non-empty printable ASCII")
        }
        guard let tiff else {
            var note = AppleMakerNoteBuilder()
            note.setContentIdentifier(contentIdentifier)
            var document = newDocument(makerNote: note.build(), defaults: defaults)
            capture?.apply(to: &document)
            return (try TIFFWriter.write(document), .createdExif)
        }
        if capture?.isEmpty ?? true, let patched = try replacedInPlace(tiff, contentIdentifier: contentIdentifier, limits: limits) {
            return (patched, .replacedInPlace)
        }
        var document = try TIFFDocument(parsing: tiff, limits: limits)
        var exif = document.exif ?? TIFFDirectory(entries: [TIFFRawEntry(tag: 0x9000, type: .undefined, value: Array("0232".utf8))])
        var note = AppleMakerNoteBuilder()
        if let existing = exif.entry(0x927C), existing.knownType != nil,
            let parsed = try? AppleMakerNoteBuilder(parsing: existing.value, limits: limits)
        {
            note = parsed
        }
        note.setContentIdentifier(contentIdentifier)
        exif.set(TIFFRawEntry(tag: 0x927C, type: .undefined, value: note.build()))
        document.exif = exif
        capture?.apply(to: &document)
        return (try TIFFWriter.write(document), .rebuiltExif)
    }

    /// A big-endian TIFF document with IFD0 and an Exif IFD holding the values Exif requires and `makerNote`.
    public static func newDocument(makerNote: [UInt8], defaults: NewExifDefaults) -> TIFFDocument {
        func short(_ value: UInt16) -> [UInt8] { ByteWriter.encode(UInt64(value), byteCount: 2) }
        func long(_ value: UInt32) -> [UInt8] { ByteWriter.encode(UInt64(value), byteCount: 4) }
        let ifd0 = [
            TIFFRawEntry(tag: 0x011A, type: .rational, value: long(defaults.resolution.x) + long(1)),
            TIFFRawEntry(tag: 0x011B, type: .rational, value: long(defaults.resolution.y) + long(1)),
            TIFFRawEntry(tag: 0x0128, type: .short, value: short(defaults.resolution.unit)),
            TIFFRawEntry(tag: 0x0213, type: .short, value: short(1)),
        ]
        var exif = [
            TIFFRawEntry(tag: 0x9000, type: .undefined, value: Array("0232".utf8)),
            TIFFRawEntry(tag: 0x9101, type: .undefined, value: [1, 2, 3, 0]),
            TIFFRawEntry(tag: 0x927C, type: .undefined, value: makerNote),
            TIFFRawEntry(tag: 0xA000, type: .undefined, value: Array("0100".utf8)),
            TIFFRawEntry(tag: 0xA001, type: .short, value: short(defaults.hasICCProfile ? 0xFFFF : 1)),
        ]
        if let width = defaults.width, let height = defaults.height, width > 0, height > 0 {
            exif.append(TIFFRawEntry(tag: 0xA002, type: .long, value: long(UInt32(clamping: width))))
            exif.append(TIFFRawEntry(tag: 0xA003, type: .long, value: long(UInt32(clamping: height))))
        }
        let exifDirectory = TIFFDirectory(entries: exif)
        return TIFFDocument(littleEndian: false, directories: [TIFFDirectory(entries: ifd0, subdirectories: [0x8769: exifDirectory])])
    }

    /// The maker note in `tiff` when it is another maker's (a Pixel's 23,793 bytes of HDR+ data):
    /// Exif has one maker note tag (0x927C) and a Live Photo needs Apple's there, so
    /// `updatedTIFF` replaces it. Its size in bytes and the camera's Make (IFD0); nil when there is
    /// no maker note or it is Apple's.
    public static func foreignMakerNote(
        in tiff: [UInt8]?, limits: ParseLimits = .default
    ) -> (make: String?, byteCount: Int)? {
        guard let tiff, let document = try? TIFFDocument(parsing: tiff, limits: limits),
            let note = document.exif?.entry(0x927C), !note.value.isEmpty
        else { return nil }
        if note.knownType != nil, (try? AppleMakerNoteBuilder(parsing: note.value, limits: limits)) != nil { return nil }
        var make = document.directories.first?.entry(0x010F).map { String(decoding: $0.value.prefix { $0 != 0 }, as: UTF8.self) }
        while make?.last == " " { make?.removeLast() }
        return (make?.isEmpty == false ? make : nil, note.value.count)
    }

    /// `tiff` with the identifier's bytes replaced inside an existing Apple maker note whose tag
    /// 0x0011 has exactly the right length; nil when that is not possible.
    static func replacedInPlace(
        _ tiff: [UInt8], contentIdentifier: String, limits: ParseLimits
    ) throws(FormatError) -> [UInt8]? {
        let structure = try TIFFReader(limits: limits).read(tiff)
        guard let noteEntry = structure.exif?.entry(0x927C),
            let note = try? AppleMakerNote.parse(noteEntry.valueBytes, limits: limits),
            let identifier = note.entry(AppleMakerNote.contentIdentifierTag), identifier.type == .ascii
        else { return nil }
        let value = Array(contentIdentifier.utf8) + [0]
        guard identifier.count == UInt64(value.count) else { return nil }
        let start = noteEntry.valueOffset + identifier.valueOffset
        guard start >= 0, start + value.count <= tiff.count else { return nil }
        var patched = tiff
        patched.replaceSubrange(start..<start + value.count, with: value)
        return patched
    }

    // MARK: Planning and output

    private enum Piece {
        case copy(Range<UInt64>)
        case bytes([UInt8])
    }

    private struct Plan {
        var pieces: [Piece]
        var method: Method
        var size: UInt64
    }

    private func makePlan(contentIdentifier: String) throws(FormatError) -> Plan {
        let structure = try JPEGSegmentReader(limits: limits).read(source)
        guard structure.isJPEG else { throw .unsupported(context: source.name, reason: "not a JPEG file") }
        guard structure.reachedStartOfScan else {
            throw .invalid(context: source.name, reason: "no start of scan: the image data could not be located")
        }
        var exifSegment: JPEGSegment?
        if let tiffOffset = structure.exifTIFFFileOffset {
            exifSegment = structure.segments.first { $0.marker == 0xE1 && $0.payloadFileOffset + 6 == tiffOffset }
        }
        let defaults = structure.exifTIFF == nil ? try newExifDefaults(structure) : NewExifDefaults()
        let (tiff, method) = try Self.updatedTIFF(
            structure.exifTIFF, contentIdentifier: contentIdentifier, defaults: defaults, capture: captureStamp,
            limits: limits)
        var exifHeader = JPEGSegmentReader.exifSignature
        let replaced: Range<UInt64>
        if let exifSegment {
            exifHeader = try source.readExactly(at: exifSegment.payloadFileOffset, count: 6, context: "Exif APP1")
            replaced = exifSegment.fileOffset..<exifSegment.payloadFileOffset + UInt64(exifSegment.payloadLength)
        } else {
            // After SOI, or after a JFIF APP0 that must stay first.
            var insertion: UInt64 = 2
            if structure.segments.count > 1, structure.segments[1].marker == 0xE0 {
                let app0 = structure.segments[1]
                insertion = app0.payloadFileOffset + UInt64(app0.payloadLength)
            }
            replaced = insertion..<insertion
        }
        let segment = try JPEGSegment.application1(signature: exifHeader, payload: tiff, context: "Exif APP1")
        var pieces: [Piece] = [.copy(0..<replaced.lowerBound), .bytes(segment), .copy(replaced.upperBound..<source.size)]
        // An MPF index (an Ultra HDR gain map) gets the primary's new length and the images' new offsets.
        if let index = JPEGMultiPictureIndex.read(structure, from: source) {
            let parts = index.parts(
                replacing: replaced, newLength: segment.count, end: source.size,
                imageEnd: try JPEGImageEndLocator.endOfImage(in: source, structure: structure))
            pieces = (parts.before + [.bytes(segment)] + parts.after).map { part in
                switch part {
                case let .copy(range): .copy(range)
                case let .bytes(bytes): .bytes(bytes)
                }
            }
        }
        let size = replaced.lowerBound + UInt64(segment.count) + (source.size - replaced.upperBound)
        return Plan(pieces: pieces, method: method, size: size)
    }

    /// The pixel size from SOFn, the resolution from a JFIF APP0 with units, and whether an ICC
    /// profile (APP2 `ICC_PROFILE`) is present.
    private func newExifDefaults(_ structure: JPEGStructure) throws(FormatError) -> NewExifDefaults {
        var defaults = NewExifDefaults(width: structure.width, height: structure.height)
        for segment in structure.segments where segment.marker == 0xE0 || segment.marker == 0xE2 {
            let head = try source.readExactly(
                at: segment.payloadFileOffset, count: min(segment.payloadLength, 14), context: "APP segment")
            if segment.marker == 0xE0, head.count == 14, head.starts(with: Array("JFIF".utf8) + [0]), head[7] == 1 || head[7] == 2 {
                let x = UInt32(head[8]) << 8 | UInt32(head[9]), y = UInt32(head[10]) << 8 | UInt32(head[11])
                if x > 0, y > 0 { defaults.resolution = (x, y, head[7] == 1 ? 2 : 3) }
            } else if segment.marker == 0xE2, head.starts(with: Array("ICC_PROFILE".utf8) + [0]) {
                defaults.hasICCProfile = true
            }
        }
        return defaults
    }

    private func emit(_ plan: Plan, to sink: any ByteSink) throws(FormatError) {
        for piece in plan.pieces {
            switch piece {
            case let .copy(range): try sink.copy(from: source, range: range)
            case let .bytes(bytes): try sink.write(bytes)
            }
        }
    }
}
