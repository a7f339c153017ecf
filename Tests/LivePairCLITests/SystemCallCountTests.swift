import Foundation
import TestSupport
import Testing

/// What the `livepair` process costs per file in system calls (issue 13: one open, one fstat, the
/// reads the formats need), counted with strace: the same command over a folder of 2N files and
/// over one of N, so that start-up and the folder walk cancel out and the difference is N files'.
@Suite("System calls per file (strace)", .serialized)
struct SystemCallCountTests {
    /// The calls counted: opening, every kind of stat, descriptor flags, extended attributes, reads.
    private static let traced = "open,openat,stat,lstat,fstat,newfstatat,statx,fcntl,listxattr,llistxattr,getxattr,pread64,read"

    @Test("inspect, pair and validate: one open and one fstat per file, no other stat, fcntl or xattr call")
    func perFileCalls() throws {
        let strace = try #require(
            ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "strace is not installed (scripts/setup.sh installs it)")
        let small = try Self.livePhotoFolder(pairs: 4), large = try Self.livePhotoFolder(pairs: 8)
        defer {
            try? FileManager.default.removeItem(atPath: small)
            try? FileManager.default.removeItem(atPath: large)
        }
        let files = 8.0  // the difference: 4 more pairs
        for command in [["inspect", "--json"], ["pair", "--json"], ["validate", "--json"], ["validate"]] {
            let few = try Self.counts(strace: strace, arguments: command + [small])
            let many = try Self.counts(strace: strace, arguments: command + [large])
            func perFile(_ names: [String]) -> Double {
                Double(names.reduce(0) { $0 + (many[$1] ?? 0) - (few[$1] ?? 0) }) / files
            }
            let label = command.joined(separator: " ")
            #expect(perFile(["open", "openat"]) == 1, "\(label): opens per file")
            #expect(perFile(["stat", "lstat", "fstat", "newfstatat", "statx"]) == 1, "\(label): stats per file")
            #expect(perFile(["fcntl", "listxattr", "llistxattr", "getxattr"]) == 0, "\(label): other calls per file")
            // The formats' reads: the first 32 KiB, then what lies beyond it: for the HEIC its Exif
            // item, its first XMP item and its last 8 bytes (a Samsung trailer's tag); for the
            // movie its `moov` header and body after the media data and the still-image-time sample.
            let reads = perFile(["pread64", "read"])
            #expect(reads >= 1 && reads <= 4, "\(label): \(reads) reads per file")
        }
    }

    /// Runs `livepair arguments...` under strace (threads followed) and counts each call.
    private static func counts(strace: String, arguments: [String]) throws -> [String: Int] {
        let binary = try #require(LivePairBinary.url, "the livepair executable is not built")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-strace-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = ["-f", "-qq", "-o", log, "-e", "trace=" + traced, binary.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(arguments) exits 0 under strace")
        var counts: [String: Int] = [:]
        for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
            // "PID name(arguments) = result"; a call split by a thread switch is counted at its start.
            let fields = line.drop { $0 != " " }.dropFirst()
            guard let parenthesis = fields.firstIndex(of: "("), !fields.hasPrefix("<...") else { continue }
            counts[String(fields[..<parenthesis]), default: 0] += 1
        }
        return counts
    }

    /// A folder of `pairs` distinct Live Photos (copies of IMG_3582 with fresh identifiers) in one folder.
    private static func livePhotoFolder(pairs: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-calls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let identifier = try #require(SampleMedia.entry("live/IMG_3582.HEIC")?.contentIdentifier)
        for index in 0..<pairs {
            let fresh = UUID().uuidString
            for (sample, name) in [("live/IMG_3582.HEIC", "IMG_\(index).HEIC"), ("live/IMG_3582.mov", "IMG_\(index).MOV")] {
                let bytes = try SampleMedia.bytes(sample)
                try Data(replacing(Array(identifier.utf8), with: Array(fresh.utf8), in: bytes))
                    .write(to: URL(fileURLWithPath: folder + "/" + name))
            }
        }
        return folder
    }

    /// `bytes` with every occurrence of `old` replaced by `new` (the same length).
    private static func replacing(_ old: [UInt8], with new: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        var index = 0
        while index + old.count <= result.count {
            if result[index] == old[0] && Array(result[index..<index + old.count]) == old {
                result.replaceSubrange(index..<index + old.count, with: new)
                index += old.count
            } else {
                index += 1
            }
        }
        return result
    }
}
