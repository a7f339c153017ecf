import Foundation
import LivePairFormats
import TestSupport
import Testing

/// Reading back written motion photos, with LivePair and with the reference tools.
enum MotionPhotoOracle {
    /// The XMP packet of a JPEG (standard APP1) or HEIF (first XMP item) file.
    static func xmp(_ path: String) throws -> [UInt8]? {
        let source = try FileByteSource(path: path)
        let head = try source.read(at: 0, count: 3)
        if JPEGSegmentReader.isJPEG(head) { return try JPEGSegmentReader().read(source).xmp }
        return try HEIFFile(source: source).xmp(from: source).first?.bytes
    }

    /// What `MotionPhotoLocator` finds in `path`, given its XMP and (HEIF) top-level boxes.
    static func lookup(_ path: String) throws -> MotionPhotoLookup {
        let source = try FileByteSource(path: path)
        let xmp = try xmp(path).map { MotionPhotoXMP($0) }
        let head = try source.read(at: 0, count: 3)
        let boxes = JPEGSegmentReader.isJPEG(head) ? nil : try TopLevelBoxScanner().scan(source)
        return try MotionPhotoLocator().locate(in: source, xmp: xmp, topLevelBoxes: boxes)
    }

    /// `count` bytes of `path` at `offset`.
    static func bytes(_ path: String, at offset: UInt64, count: UInt64) throws -> [UInt8] {
        try FileByteSource(path: path).readExactly(at: offset, count: Int(count), context: "test read")
    }

    /// exiftool's `-j -n -G1 -a` tags (numbers as numbers, lists as arrays).
    static func exiftool(_ path: String) throws -> [String: Any] {
        let text = try ReferenceTool.run("exiftool", ["-j", "-n", "-G1", "-a", path])
        let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        return list?.first ?? [:]
    }

    /// exiftool's warnings (`-validate -warning`), one string.
    static func exiftoolWarnings(_ path: String) throws -> String {
        try ReferenceTool.run("exiftool", ["-validate", "-warning", "-a", "-s", "-s", "-s", path])
    }

    /// exiftool's `Item:Length` of each `Container:Directory` item, in order (read as a structure).
    static func exiftoolDirectoryLengths(_ path: String) throws -> [Int64] {
        let text = try ReferenceTool.run("exiftool", ["-j", "-n", "-struct", "-XMP-Container:Directory", path])
        let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        let directory = list?.first?["Directory"] as? [[String: Any]] ?? []
        return directory.compactMap { (($0["Item"] as? [String: Any])?["Length"] as? NSNumber)?.int64Value }
    }

    /// Whether ffprobe opens `bytes` (written to a temporary file) and sees a video stream.
    static func ffprobeSeesVideo(_ bytes: [UInt8], scratch: WriterScratch) throws -> Bool {
        let path = scratch.file("probe-\(UUID().uuidString).mp4")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let output = try ReferenceTool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=codec_type", "-of", "csv=p=0", path])
        return output.contains("video")
    }

    /// Each JPEG segment before SOS as bytes, without the standard XMP APP1.
    static func segmentsExceptXMP(_ path: String) throws -> [[UInt8]] {
        let source = try FileByteSource(path: path)
        let structure = try JPEGSegmentReader().read(source)
        return try structure.segments.compactMap { segment -> [UInt8]? in
            let end = segment.length > 0 ? segment.payloadFileOffset + UInt64(segment.payloadLength) : segment.fileOffset + 2
            let bytes = try source.readExactly(at: segment.fileOffset, count: Int(end - segment.fileOffset), context: "segment")
            let signature = JPEGSegmentReader.xmpSignature
            if segment.marker == 0xE1, bytes.count >= 4 + signature.count, Array(bytes[4..<4 + signature.count]) == signature {
                return nil
            }
            return bytes
        }
    }
}
