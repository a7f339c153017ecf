import Foundation

/// Builds damaged or altered copies of the real samples for validation tests: every edit is made
/// in place on a copy of the bytes (same length unless said otherwise), so the rest of the file
/// stays exactly as the camera wrote it. Nothing under `SampleMedia/` is ever modified.
public enum SampleVariants {
    /// A temporary folder for variants, removed when the workspace is released.
    public final class Workspace {
        /// The folder.
        public let url: URL

        /// Creates a fresh, empty folder under the system's temporary directory.
        public init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-variants-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        /// Writes `bytes` to `name` (which may contain subfolders) and returns the path.
        @discardableResult
        public func write(_ bytes: [UInt8], as name: String) throws -> String {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
            return file.path
        }

        /// Copies the sample `relative` unchanged to `name` and returns the path.
        @discardableResult
        public func copy(_ relative: String, as name: String) throws -> String {
            try write(try SampleMedia.bytes(relative), as: name)
        }
    }

    /// Where a box is in a file.
    public struct BoxLocation: Sendable, Equatable {
        /// The four-character type.
        public let type: String
        /// File offset of the box header.
        public let offset: Int
        /// Total size including the header.
        public let size: Int
        /// Header size (8, or 16 with a 64-bit size).
        public let headerSize: Int

        /// File offset of the payload.
        public var payloadOffset: Int { offset + headerSize }
        /// The offset just past the box.
        public var end: Int { offset + size }
    }

    /// Box types whose payload is a sequence of child boxes.
    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "udta", "dinf", "tref"]

    /// The boxes directly inside `range` of `bytes`.
    public static func boxes(in bytes: [UInt8], range: Range<Int>? = nil) -> [BoxLocation] {
        let range = range ?? 0..<bytes.count
        var result: [BoxLocation] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = Int(readUInt32(bytes, offset))
            var header = 8
            if size == 1, offset + 16 <= range.upperBound {
                size = Int(readUInt64(bytes, offset + 8))
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, offset + size <= range.upperBound else { break }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            result.append(BoxLocation(type: type, offset: offset, size: size, headerSize: header))
            offset += size
        }
        return result
    }

    /// The children of a container box.
    public static func children(of box: BoxLocation, in bytes: [UInt8]) -> [BoxLocation] {
        boxes(in: bytes, range: box.payloadOffset..<box.end)
    }

    /// The first box reached by following `path` (types) from the top level.
    public static func box(_ path: [String], in bytes: [UInt8], under parent: BoxLocation? = nil) -> BoxLocation? {
        var current = parent
        for type in path {
            let level = current.map { children(of: $0, in: bytes) } ?? boxes(in: bytes)
            guard let next = level.first(where: { $0.type == type }) else { return nil }
            current = next
        }
        return current
    }

    /// The movie's tracks.
    public static func tracks(in movie: [UInt8]) -> [BoxLocation] {
        guard let moov = box(["moov"], in: movie) else { return [] }
        return children(of: moov, in: movie).filter { $0.type == "trak" }
    }

    /// The track whose handler is `handler` (`vide`, `soun`, `meta`), the first one.
    public static func track(handler: String, in movie: [UInt8]) -> BoxLocation? {
        tracks(in: movie).first { trak in
            guard let hdlr = box(["mdia", "hdlr"], in: movie, under: trak) else { return false }
            return String(decoding: movie[hdlr.payloadOffset + 8..<hdlr.payloadOffset + 12], as: UTF8.self) == handler
        }
    }

    /// The timed-metadata track that carries `com.apple.quicktime.still-image-time`.
    public static func stillImageTimeTrack(in movie: [UInt8]) -> BoxLocation? {
        let key = Array("com.apple.quicktime.still-image-time".utf8)
        return tracks(in: movie).first { trak in firstIndex(of: key, in: movie, range: trak.offset..<trak.end) != nil }
    }

    // MARK: Byte edits

    /// `bytes` with every occurrence of `old` replaced by `new` (same length). Traps when `old`
    /// does not occur: a variant that silently equals the original would prove nothing.
    public static func replacingAll(_ old: [UInt8], with new: [UInt8], in bytes: [UInt8], range: Range<Int>? = nil) -> [UInt8] {
        precondition(old.count == new.count, "in-place replacement needs equal lengths")
        var result = bytes
        let range = range ?? 0..<bytes.count
        var start = range.lowerBound
        var count = 0
        while let index = firstIndex(of: old, in: result, range: start..<range.upperBound) {
            result.replaceSubrange(index..<index + old.count, with: new)
            start = index + old.count
            count += 1
        }
        precondition(count > 0, "the bytes to replace were not found")
        return result
    }

    /// `bytes` with every occurrence of the text `old` replaced by `new` (same length).
    public static func replacingText(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8] {
        replacingAll(Array(old.utf8), with: Array(new.utf8), in: bytes)
    }

    /// `bytes` with `count` bytes at `offset` set to `value`.
    public static func overwriting(_ bytes: [UInt8], at offset: Int, count: Int, with value: UInt8) -> [UInt8] {
        var result = bytes
        for index in offset..<min(bytes.count, offset + count) { result[index] = value }
        return result
    }

    /// The first `count` bytes.
    public static func truncated(_ bytes: [UInt8], to count: Int) -> [UInt8] { Array(bytes.prefix(count)) }

    // MARK: Movie edits

    /// Sets the duration of the still-image-time track's empty edit (the still's time on the
    /// movie timeline, in movie timescale ticks).
    public static func settingStillImageTime(ticks: UInt32, in movie: [UInt8]) -> [UInt8] {
        guard let trak = stillImageTimeTrack(in: movie), let elst = box(["edts", "elst"], in: movie, under: trak) else {
            preconditionFailure("no still-image-time track with an edit list")
        }
        return settingEditDuration(ticks: ticks, entry: 0, elst: elst, in: movie)
    }

    /// Sets the duration of the first edit of the main video track (frames after it are not shown).
    public static func settingVideoEditDuration(ticks: UInt32, in movie: [UInt8]) -> [UInt8] {
        guard let trak = track(handler: "vide", in: movie), let elst = box(["edts", "elst"], in: movie, under: trak) else {
            preconditionFailure("no video track with an edit list")
        }
        return settingEditDuration(ticks: ticks, entry: 0, elst: elst, in: movie)
    }

    private static func settingEditDuration(ticks: UInt32, entry: Int, elst: BoxLocation, in movie: [UInt8]) -> [UInt8] {
        var result = movie
        let version = movie[elst.payloadOffset]
        let entries = elst.payloadOffset + 8
        if version == 1 {
            write(UInt64(ticks), size: 8, at: entries + entry * 20, in: &result)
        } else {
            write(UInt64(ticks), size: 4, at: entries + entry * 12, in: &result)
        }
        return result
    }

    /// Sets the `mvhd` duration (movie timescale ticks).
    public static func settingMovieDuration(ticks: UInt32, in movie: [UInt8]) -> [UInt8] {
        guard let mvhd = box(["moov", "mvhd"], in: movie), movie[mvhd.payloadOffset] == 0 else {
            preconditionFailure("no version-0 mvhd")
        }
        var result = movie
        write(UInt64(ticks), size: 4, at: mvhd.payloadOffset + 16, in: &result)
        return result
    }

    /// Sets the `mvhd` creation time to 0 ("unknown", as Google Takeout writes it).
    public static func zeroingMovieCreationTime(in movie: [UInt8]) -> [UInt8] {
        guard let mvhd = box(["moov", "mvhd"], in: movie), movie[mvhd.payloadOffset] == 0 else {
            preconditionFailure("no version-0 mvhd")
        }
        var result = movie
        write(0, size: 4, at: mvhd.payloadOffset + 4, in: &result)
        return result
    }

    /// Sets the display matrix of the main video track's `tkhd` (version 0) to a quarter turn
    /// clockwise (`quarterTurn`) or to identity.
    public static func settingVideoMatrix(quarterTurn: Bool, in movie: [UInt8]) -> [UInt8] {
        guard let trak = track(handler: "vide", in: movie), let tkhd = box(["tkhd"], in: movie, under: trak),
            movie[tkhd.payloadOffset] == 0
        else { preconditionFailure("no version-0 video tkhd") }
        let one: UInt32 = 0x0001_0000, minusOne: UInt32 = 0xFFFF_0000
        let matrix: [UInt32] = quarterTurn
            ? [0, one, 0, minusOne, 0, 0, 0, 0, 0x4000_0000]
            : [one, 0, 0, 0, one, 0, 0, 0, 0x4000_0000]
        var result = movie
        for (index, value) in matrix.enumerated() {
            write(UInt64(value), size: 4, at: tkhd.payloadOffset + 40 + index * 4, in: &result)
        }
        return result
    }

    /// Moves `moov/meta` into `moov/udta`, where ffmpeg writes metadata, in place: needs the layout
    /// of iPhone movies, an empty `udta` followed by a `free` box and the `meta` box. The three are
    /// rewritten as `udta{meta}` plus a `free` box of the same total size.
    public static func movingMetadataToUserData(in movie: [UInt8]) -> [UInt8] {
        guard let moov = box(["moov"], in: movie) else { preconditionFailure("no moov") }
        let children = children(of: moov, in: movie)
        guard let udtaIndex = children.firstIndex(where: { $0.type == "udta" }), children[udtaIndex].size == 8,
            udtaIndex + 2 < children.count, children[udtaIndex + 1].type == "free", children[udtaIndex + 2].type == "meta"
        else { preconditionFailure("the movie does not have the udta, free, meta layout") }
        let udta = children[udtaIndex], free = children[udtaIndex + 1], meta = children[udtaIndex + 2]
        var replacement = bigEndian(UInt64(8 + meta.size), 4) + Array("udta".utf8) + Array(movie[meta.offset..<meta.end])
        replacement += bigEndian(UInt64(free.size), 4) + Array("free".utf8)
        replacement += [UInt8](repeating: 0, count: free.size - 8)
        var result = movie
        result.replaceSubrange(udta.offset..<meta.end, with: replacement)
        precondition(result.count == movie.count)
        return result
    }

    /// The payload range of the first `mdat` box.
    public static func mediaDataRange(in bytes: [UInt8]) -> Range<Int> {
        guard let mdat = boxes(in: bytes).first(where: { $0.type == "mdat" }) else { preconditionFailure("no mdat") }
        return mdat.payloadOffset..<mdat.end
    }

    // MARK: JPEG edits

    /// Sets the EXIF Orientation (IFD0 tag 0x0112) of a JPEG.
    public static func settingJPEGOrientation(_ orientation: UInt16, in jpeg: [UInt8]) -> [UInt8] {
        guard let exif = firstIndex(of: Array("Exif\0\0".utf8), in: jpeg, range: 0..<min(jpeg.count, 65_536)) else {
            preconditionFailure("no Exif APP1")
        }
        let tiff = exif + 6
        let bigEndian = jpeg[tiff] == 0x4D
        func u16(_ at: Int) -> Int { bigEndian ? Int(jpeg[at]) << 8 | Int(jpeg[at + 1]) : Int(jpeg[at + 1]) << 8 | Int(jpeg[at]) }
        func u32(_ at: Int) -> Int { bigEndian ? u16(at) << 16 | u16(at + 2) : u16(at + 2) << 16 | u16(at) }
        let ifd = tiff + u32(tiff + 4)
        var result = jpeg
        for entry in 0..<u16(ifd) {
            let at = ifd + 2 + entry * 12
            if u16(at) == 0x0112 {
                result[at + 8] = bigEndian ? UInt8(orientation >> 8) : UInt8(orientation & 0xFF)
                result[at + 9] = bigEndian ? UInt8(orientation & 0xFF) : UInt8(orientation >> 8)
                return result
            }
        }
        preconditionFailure("no Orientation tag in IFD0")
    }

    /// Sets the size in a JPEG's first SOF segment (the pixels no longer match: metadata tests only).
    public static func settingJPEGSize(width: UInt16, height: UInt16, in jpeg: [UInt8]) -> [UInt8] {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let marker = jpeg[offset + 1]
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                var result = jpeg
                write(UInt64(height), size: 2, at: offset + 5, in: &result)
                write(UInt64(width), size: 2, at: offset + 7, in: &result)
                return result
            }
            offset += 2 + length
        }
        preconditionFailure("no SOF segment")
    }

    /// The offset of the first byte of entropy-coded data (after the first SOS header).
    public static func jpegScanDataOffset(in jpeg: [UInt8]) -> Int {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let marker = jpeg[offset + 1]
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if marker == 0xDA { return offset + 2 + length }
            offset += 2 + length
        }
        preconditionFailure("no SOS segment")
    }

    // MARK: Helpers

    /// The first index of `pattern` in `bytes[range]`.
    public static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], range: Range<Int>? = nil) -> Int? {
        let range = range ?? 0..<bytes.count
        guard !pattern.isEmpty, range.count >= pattern.count else { return nil }
        let first = pattern[0]
        var index = range.lowerBound
        let last = range.upperBound - pattern.count
        while index <= last {
            if bytes[index] == first, bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
    }

    static func write(_ value: UInt64, size: Int, at offset: Int, in bytes: inout [UInt8]) {
        bytes.replaceSubrange(offset..<offset + size, with: bigEndian(value, size))
    }

    static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    static func readUInt64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        bytes[offset..<offset + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
