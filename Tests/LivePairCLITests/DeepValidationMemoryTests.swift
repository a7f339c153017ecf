import Foundation
import TestSupport
import Testing

/// `validate --deep` reads a still's image, not its file: a 2 GiB sparse file behind a small JPEG
/// is walked in chunks, and the peak memory of the process stays far below the file's size.
@Suite("validate --deep memory")
struct DeepValidationMemoryTests {
    /// Runs the executable with `arguments` (output discarded) under GNU time (`ChildProcess`) and returns its exit
    /// status and its peak resident memory in bytes (`%M`). Not this process's own `wait4`:
    /// posix_spawn starts a child in this process's memory, and Linux carries that memory's peak
    /// into the child's `ru_maxrss` across `exec`, so a test process grown to 1 GB was measured
    /// instead of the child. GNU time forks its child from its own small image.
    static func peakMemory(_ arguments: [String]) throws -> (status: Int32, bytes: Int) {
        let binary = try #require(LivePairBinary.url).path
        let report = try TestScratch.folder("peak-memory") + "/maxrss"
        let time = "/usr/bin/time"
        try #require(FileManager.default.isExecutableFile(atPath: time), "GNU time is missing: run scripts/setup.sh")
        let run = try ChildProcess.run(
            time, ["-f", "%M", "-o", report, binary] + arguments, keepsOutput: false, standardError: .discarded)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let kibibytes = try #require(Int(text.split(separator: "\n").last(where: { !$0.isEmpty }) ?? ""), "GNU time wrote: \(text)")
        // GNU time exits with its child's status.
        return (run.status, kibibytes * 1024)
    }

    @Test("a JPEG followed by 2 GiB of sparse zeros: validate --deep decodes it under 200 MiB of memory")
    func sparseJPEG() throws {
        let workspace = try SampleVariants.Workspace()
        let path = try workspace.copy("live/train.jpg", as: "big.jpg")
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: 2 << 30)
        try handle.seekToEnd()
        // An end marker in the last bytes, so the cheap integrity check passes and the deep decode runs.
        try handle.write(contentsOf: Data([0xFF, 0xD9]))
        try handle.close()
        let small = try Self.peakMemory(["validate", "--deep", SampleMedia.path("live/train.jpg")])
        let big = try Self.peakMemory(["validate", "--deep", path])
        // Exit 0: only the missing movie (a warning); the image decoded.
        #expect(small.status == 0 && big.status == 0)
        #expect(small.bytes > 1 << 20, "the still alone was measured: \(small.bytes >> 10) KiB")
        #expect(big.bytes < 200 << 20, "peak memory \(big.bytes >> 20) MiB (the same still alone: \(small.bytes >> 20) MiB)")
        let report = try LivePairBinary.run(["validate", "--deep", "--json", path])
        #expect(!report.output.contains("undecodable-photo"), "\(report.output)")
    }
}
