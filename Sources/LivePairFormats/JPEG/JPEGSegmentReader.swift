/// Walks the marker segments of a JPEG file from SOI to SOS, reading as little as possible: one
/// initial chunk (64 KiB), and more only for segments that extend beyond what has been read.
/// The entropy-coded data after SOS is never read.
///
/// Fill bytes (FF FF), RSTn and other markers without a length are tolerated; garbage between
/// segments is skipped with a warning (up to `maximumResyncBytes`). A segment whose length runs
/// past the end of the file, or a file that ends before SOS, throws `FormatError.truncated`.
public struct JPEGSegmentReader: Sendable {
    /// Bytes read first; most files keep all their metadata in this much.
    public static let initialReadSize = 64 << 10
    /// Most bytes skipped while looking for the next marker after garbage.
    public static let maximumResyncBytes = 1 << 20
    /// The APP1 signature of Exif data.
    public static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
    /// The APP1 signature of a standard XMP packet.
    public static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    /// The APP1 signature of an extended XMP chunk.
    public static let extendedXMPSignature: [UInt8] = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]

    /// The limits applied.
    public let limits: ParseLimits

    /// A reader applying `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// Whether `bytes` start like a JPEG file (FF D8 FF).
    public static func isJPEG(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// Reads the segments of `source`. A source that does not start with FF D8 FF gives a structure
    /// with `isJPEG == false`.
    public func read(_ source: any ByteSource) throws(FormatError) -> JPEGStructure {
        var window = Window(source: source, chunkSize: Self.initialReadSize)
        var structure = JPEGStructure()
        guard let head = try window.bytes(at: 0, count: 3), Self.isJPEG(head) else { return structure }
        structure.isJPEG = true
        structure.segments.append(JPEGSegment(marker: 0xD8, fileOffset: 0, length: 0))
        var extended = ExtendedXMPAssembler(limits: limits)
        let size = source.size
        var offset: UInt64 = 2
        scan: while true {
            guard offset < size else {
                throw .truncated(context: "JPEG markers", needed: offset + 2, available: size)
            }
            guard let lead = try window.byte(at: offset), lead == 0xFF else {
                guard let resumed = try resync(&window, from: offset, structure: &structure) else { break scan }
                offset = resumed
                continue
            }
            var markerOffset = offset
            while let next = try window.byte(at: markerOffset + 1), next == 0xFF { markerOffset += 1 }
            guard let marker = try window.byte(at: markerOffset + 1) else {
                throw .truncated(context: "JPEG marker at \(markerOffset)", needed: 2, available: size - markerOffset)
            }
            if marker != 0x01, marker < 0xC0 {
                guard let resumed = try resync(&window, from: markerOffset, structure: &structure) else { break scan }
                offset = resumed
                continue
            }
            if JPEGSegment.isStandalone(marker) {
                structure.segments.append(JPEGSegment(marker: marker, fileOffset: markerOffset, length: 0))
                offset = markerOffset + 2
                if marker == 0xD9 {
                    structure.warnings.append("EOI at offset \(markerOffset) before any SOS")
                    break scan
                }
                continue
            }
            guard let lengthBytes = try window.bytes(at: markerOffset + 2, count: 2) else {
                throw .truncated(context: "JPEG segment at \(markerOffset)", needed: 4, available: size - markerOffset)
            }
            let length = Int(lengthBytes[lengthBytes.startIndex]) << 8 | Int(lengthBytes[lengthBytes.startIndex + 1])
            guard length >= 2 else {
                throw .invalid(context: "JPEG segment at \(markerOffset)", reason: "length \(length) is below 2")
            }
            let end = markerOffset + 2 + UInt64(length)
            guard end <= size else {
                throw .truncated(
                    context: "JPEG segment 0x\(String(marker, radix: 16, uppercase: true)) at \(markerOffset)",
                    needed: UInt64(length) + 2, available: size - markerOffset)
            }
            let segment = JPEGSegment(marker: marker, fileOffset: markerOffset, length: length)
            structure.segments.append(segment)
            if marker == 0xE1 || segment.isStartOfFrame {
                guard let payload = try window.bytes(at: segment.payloadFileOffset, count: segment.payloadLength) else {
                    throw .truncated(
                        context: "JPEG segment at \(markerOffset)", needed: UInt64(length), available: size - markerOffset)
                }
                if marker == 0xE1 {
                    readApplication1(payload, at: segment.payloadFileOffset, into: &structure, extended: &extended)
                } else if structure.width == nil, payload.count >= 5 {
                    let base = payload.startIndex
                    structure.height = Int(payload[base + 1]) << 8 | Int(payload[base + 2])
                    structure.width = Int(payload[base + 3]) << 8 | Int(payload[base + 4])
                    structure.frameMarker = marker
                }
            }
            offset = end
            if marker == 0xDA {
                structure.reachedStartOfScan = true
                break scan
            }
        }
        structure.extendedXMP = extended.assemble()
        return structure
    }

    private func readApplication1(
        _ payload: ArraySlice<UInt8>, at fileOffset: UInt64, into structure: inout JPEGStructure,
        extended: inout ExtendedXMPAssembler
    ) {
        if payload.starts(with: Self.exifSignature.prefix(5)), payload.count >= 6 {
            if structure.exifTIFF == nil {
                structure.exifTIFF = Array(payload.dropFirst(6))
                structure.exifTIFFFileOffset = fileOffset + 6
            }
        } else if payload.starts(with: Self.xmpSignature) {
            if structure.xmp == nil {
                structure.xmp = Array(payload.dropFirst(Self.xmpSignature.count))
                structure.xmpFileOffset = fileOffset + UInt64(Self.xmpSignature.count)
            }
        } else if payload.starts(with: Self.extendedXMPSignature) {
            do {
                try extended.add(payload.dropFirst(Self.extendedXMPSignature.count))
            } catch {
                structure.warnings.append("extended XMP chunk at \(fileOffset): \(error.description)")
            }
        }
    }

    /// Looks for the next plausible marker after garbage; nil (with a warning) when none is found.
    private func resync(
        _ window: inout Window, from start: UInt64, structure: inout JPEGStructure
    ) throws(FormatError) -> UInt64? {
        var offset = start + 1
        let limit = min(window.source.size, start + UInt64(Self.maximumResyncBytes))
        while offset + 1 < limit {
            let count = Int(min(UInt64(Self.initialReadSize), limit - offset))
            guard let chunk = try window.bytes(at: offset, count: count) else { break }
            var index = chunk.startIndex
            while index + 1 < chunk.endIndex, let marker = ByteSearch.firstIndex(of: 0xFF, in: chunk[index..<chunk.endIndex - 1]) {
                if Self.isMarkerCode(chunk[marker + 1]) {
                    let found = offset + UInt64(marker - chunk.startIndex)
                    structure.warnings.append("skipped \(found - start) bytes of garbage at offset \(start)")
                    return found
                }
                index = marker + 1
            }
            offset += UInt64(max(count - 1, 1))
        }
        structure.warnings.append("garbage at offset \(start) and no further marker; stopped")
        return nil
    }

    /// Whether `byte` after 0xFF names a defined marker (TEM or 0xC0-0xFE, restart markers excluded).
    static func isMarkerCode(_ byte: UInt8) -> Bool {
        byte == 0x01 || (byte >= 0xC0 && byte <= 0xFE && !(byte >= 0xD0 && byte <= 0xD7))
    }
}

/// The bytes of a source read so far: one contiguous window, replaced when a read falls outside it.
private struct Window {
    let source: any ByteSource
    let chunkSize: Int
    var bytes: [UInt8] = []
    var start: UInt64 = 0

    init(source: any ByteSource, chunkSize: Int) {
        self.source = source
        self.chunkSize = chunkSize
    }

    /// The byte at `offset`, or nil past the end of the source.
    mutating func byte(at offset: UInt64) throws(FormatError) -> UInt8? {
        guard let slice = try bytes(at: offset, count: 1) else { return nil }
        return slice[slice.startIndex]
    }

    /// `count` bytes at `offset`, or nil when the source ends first.
    mutating func bytes(at offset: UInt64, count: Int) throws(FormatError) -> ArraySlice<UInt8>? {
        guard offset <= source.size, UInt64(count) <= source.size - offset else { return nil }
        if offset >= start, offset - start + UInt64(count) <= UInt64(bytes.count) {
            let index = Int(offset - start)
            return bytes[index..<index + count]
        }
        bytes = try source.read(at: offset, count: max(count, chunkSize))
        start = offset
        guard bytes.count >= count else { return nil }
        return bytes[0..<count]
    }
}
