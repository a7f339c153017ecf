import Foundation
import LivePairFormats
import TestSupport
import Testing

/// A temporary directory removed when the test ends.
final class WriterScratch {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "livepair-writer-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    /// Everything in the directory (to check that no temporary file is left behind).
    func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
}

enum MovieOracle {
    /// ffprobe's streams as dictionaries, keyed by the track id ("0x1", ...).
    static func streams(_ path: String) throws -> [String: [String: Any]] {
        let list = try ReferenceTool.ffprobeStreams(path)
        var result: [String: [String: Any]] = [:]
        for stream in list {
            var copy = stream
            copy["index"] = nil
            result[stream["id"] as? String ?? "?"] = copy
        }
        return result
    }

    /// The MD5 of the first video stream's decoded frames.
    static func decodedVideoMD5(_ path: String) throws -> String {
        try ReferenceTool.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0", "-f", "md5", "-"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func exifToolContentIdentifier(_ path: String) throws -> String {
        try ReferenceTool.run("exiftool", ["-s", "-s", "-s", "-Keys:ContentIdentifier", path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
