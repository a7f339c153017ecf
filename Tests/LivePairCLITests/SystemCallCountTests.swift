import Foundation
import TestSupport
import Testing

/// What the `livepair` process costs per file in system calls (issue 13: one open, one fstat, the
/// reads the formats need), counted by a preloaded library that wraps the C library's file calls
/// (`SystemCalls/call_counter.c`, compiled here with the system's C compiler). It needs no ptrace:
/// strace ran the program but traced nothing in the CI sandbox. The same command runs over a folder
/// of 2N files and over one of N, so that start-up and the folder walk cancel out and the difference
/// is N files'.
///
/// Only calls on the inputs count: paths under the folder and the descriptors opened from them.
/// What else the process opens and reads depends on the machine's load: libdispatch's thread pool
/// monitor opens and reads `/proc/<thread>/stat` once a second while work waits in a queue, which
/// once made a busy run count one open and one read more than the files cost.
@Suite("System calls per file (preloaded counter)", .serialized)
struct SystemCallCountTests {
    @Test("inspect, pair and validate: one open and one fstat per file, no other stat, fcntl or xattr call")
    func perFileCalls() throws {
        let counter = try Self.compileCounter()
        defer { try? FileManager.default.removeItem(atPath: counter.deletingLastPathComponent().path) }
        let small = try Self.livePhotoFolder(pairs: 4), large = try Self.livePhotoFolder(pairs: 8)
        defer {
            try? FileManager.default.removeItem(atPath: small)
            try? FileManager.default.removeItem(atPath: large)
        }
        let files = 8.0  // the difference: 4 more pairs
        for command in [["inspect", "--json"], ["pair", "--json"], ["validate", "--json"], ["validate"]] {
            let few = try Self.counts(counter: counter, arguments: command + [small])
            let many = try Self.counts(counter: counter, arguments: command + [large])
            func perFile(_ names: [String]) -> Double {
                Double(names.reduce(0) { $0 + (many[$1] ?? 0) - (few[$1] ?? 0) }) / files
            }
            let label = command.joined(separator: " ")
            #expect(perFile(["open", "openat"]) == 1, "\(label): opens per file")
            #expect(perFile(["stat", "lstat", "fstat", "fstatat", "statx"]) == 1, "\(label): stats per file")
            #expect(perFile(["fstat"]) == 1, "\(label): the one stat is an fstat of the open file")
            #expect(perFile(["fcntl", "listxattr", "llistxattr", "getxattr", "lgetxattr", "fgetxattr"]) == 0, "\(label): other calls per file")
            // The formats' reads: the first 32 KiB, then what lies beyond it: for the HEIC its Exif
            // item, its first XMP item and its last 8 bytes (a Samsung trailer's tag); for the
            // movie its `moov` header and body after the media data and the still-image-time sample.
            let reads = perFile(["pread", "read"])
            #expect(reads >= 1 && reads <= 4, "\(label): \(reads) reads per file")
        }
    }

    @Test("inspect, pair and validate: a hard link to a file already listed is reported without an open or a read")
    func hardLinksAreNotRead() throws {
        let counter = try Self.compileCounter()
        defer { try? FileManager.default.removeItem(atPath: counter.deletingLastPathComponent().path) }
        let plain = try Self.livePhotoFolder(pairs: 4), linked = try Self.livePhotoFolder(pairs: 4)
        defer {
            try? FileManager.default.removeItem(atPath: plain)
            try? FileManager.default.removeItem(atPath: linked)
        }
        // The same 8 files, plus a second name (link(2)) for each in a subfolder.
        try FileManager.default.createDirectory(atPath: linked + "/again", withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: linked) where name != "again" {
            try FileManager.default.linkItem(atPath: linked + "/" + name, toPath: linked + "/again/" + name)
        }
        for command in [["inspect", "--json"], ["pair", "--json"], ["validate", "--json"]] {
            let without = try Self.counts(counter: counter, arguments: command + [plain])
            let with = try Self.counts(counter: counter, arguments: command + [linked])
            func extra(_ names: [String]) -> Int { names.reduce(0) { $0 + (with[$1] ?? 0) - (without[$1] ?? 0) } }
            let label = command.joined(separator: " ")
            // Nothing for the 8 links. (Their folder is listed through opendir, whose open, and so
            // whose descriptor, the counter does not see.)
            #expect(extra(["open", "openat"]) == 0, "\(label): opens for 8 links")
            #expect(extra(["stat", "lstat", "fstat", "fstatat", "statx"]) == 0, "\(label): stats for 8 links")
            #expect(extra(["pread", "read"]) == 0, "\(label): reads for 8 links")
        }
    }

    /// The counter compiled into a fresh folder (removed by the caller) as a shared library.
    private static func compileCounter() throws -> URL {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("SystemCalls/call_counter.c")
        let compiler = try #require(
            ["cc", "gcc", "clang"].first { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + $0) },
            "no C compiler (/usr/bin/cc, gcc or clang) to build the call counter")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-calls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = folder.appendingPathComponent("call_counter.so")
        let result = try ReferenceTool.execute(compiler, ["-shared", "-fPIC", "-O1", "-o", library.path, source.path, "-ldl"])
        try #require(result.status == 0, "\(compiler) could not compile \(source.path) (status \(result.status))")
        return library
    }

    /// Runs `livepair arguments...` (the last one a folder) with the counter preloaded and returns
    /// each call's count on the files under that folder.
    private static func counts(counter: URL, arguments: [String]) throws -> [String: Int] {
        let log = counter.deletingLastPathComponent().appendingPathComponent("counts-\(UUID().uuidString)").path
        let folder = try #require(arguments.last, "the folder is the last argument")
        let result = try LivePairBinary.run(
            arguments,
            environment: ["LD_PRELOAD": counter.path, "LIVEPAIR_CALL_COUNT_LOG": log, "LIVEPAIR_CALL_COUNT_UNDER": folder])
        #expect(result.status == 0, "\(arguments) exits 0 with the counter preloaded: \(result.error)")
        var counts: [String: Int] = [:]
        for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let count = Int(fields[1]) else { continue }
            counts[String(fields[0]), default: 0] += count
        }
        // A counter that saw nothing measured nothing: the process opened at least its inputs.
        try #require((counts["open"] ?? 0) + (counts["openat"] ?? 0) > 0, "the counter saw no open: \(counts)")
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
