/// Finds where a JPEG image ends: the byte after the EOI marker that closes its entropy-coded data.
/// What follows (a motion photo's video, a gain map, a Samsung SEF trailer) is not the image.
///
/// The scan starts after the first SOS header and walks the data a chunk at a time: stuffed bytes
/// (`FF 00`), fill bytes and restart markers are skipped, marker segments between scans
/// (DHT, SOS, DQT, DRI, APPn, COM, ...) are stepped over by their length, so a `FF D9` inside
/// a segment's payload is never taken for the end. A file without EOI is `truncated`.
struct JPEGImageEndLocator {
    /// Bytes read at a time.
    static let chunkSize = 1 << 20

    /// The offset just past the EOI marker of the JPEG in `source`, whose segments up to SOS are `structure`.
    static func endOfImage(in source: any ByteSource, structure: JPEGStructure) throws(FormatError) -> UInt64 {
        guard let scan = structure.segments.last(where: { $0.marker == 0xDA }), structure.reachedStartOfScan else {
            throw .invalid(context: source.name, reason: "no start of scan: the image data could not be located")
        }
        var window = ChunkWindow(source: source)
        var offset = scan.payloadFileOffset + UInt64(scan.payloadLength)
        let size = source.size
        while offset < size {
            guard let marker = try window.nextFF(from: offset) else { break }
            guard let code = try window.byte(at: marker + 1) else { break }
            switch code {
            case 0x00, 0x01, 0xD0...0xD7:
                offset = marker + 2
            case 0xFF:
                offset = marker + 1
            case 0xD9:
                return marker + 2
            default:
                guard let high = try window.byte(at: marker + 2), let low = try window.byte(at: marker + 3) else {
                    throw .truncated(context: "JPEG segment at \(marker)", needed: 4, available: size - marker)
                }
                let length = UInt64(high) << 8 | UInt64(low)
                guard length >= 2 else {
                    throw .invalid(context: "JPEG segment at \(marker)", reason: "length \(length) is below 2")
                }
                offset = marker + 2 + length
            }
        }
        throw .truncated(context: "\(source.name): JPEG image data", needed: 2, available: 0)
    }

    /// One chunk of the source at a time.
    private struct ChunkWindow {
        let source: any ByteSource
        var bytes: [UInt8] = []
        var start: UInt64 = 0

        init(source: any ByteSource) { self.source = source }

        /// The byte at `offset`, or nil past the end.
        mutating func byte(at offset: UInt64) throws(FormatError) -> UInt8? {
            guard offset < source.size else { return nil }
            if offset < start || offset - start >= UInt64(bytes.count) { try load(at: offset) }
            return bytes[Int(offset - start)]
        }

        /// The offset of the next 0xFF at or after `offset`, or nil when there is none.
        mutating func nextFF(from offset: UInt64) throws(FormatError) -> UInt64? {
            var position = offset
            while position < source.size {
                if position < start || position - start >= UInt64(bytes.count) { try load(at: position) }
                let index = Int(position - start)
                if let found = ByteSearch.firstIndex(of: 0xFF, in: bytes[index...]) { return start + UInt64(found) }
                position = start + UInt64(bytes.count)
            }
            return nil
        }

        private mutating func load(at offset: UInt64) throws(FormatError) {
            bytes = try source.read(at: offset, count: JPEGImageEndLocator.chunkSize)
            start = offset
            guard !bytes.isEmpty else {
                throw .truncated(context: "\(source.name) at \(offset)", needed: 1, available: 0)
            }
        }
    }
}
