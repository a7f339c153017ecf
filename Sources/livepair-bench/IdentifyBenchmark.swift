import Foundation
import LivePair

/// Identifies the same corpus with LivePair (all cores) and with one exiftool process
/// (`exiftool -s3 -ContentIdentifier -MediaGroupUUID -@ list`), and prints both.
struct IdentifyBenchmark {
    let options: BenchmarkOptions

    /// Runs the benchmark; returns the exit status (1 when the two disagree on identifier counts).
    func run() throws -> Int32 {
        let corpus = try BenchmarkCorpus.make(from: options.samples, count: options.fileCount, into: options.work)
        defer { corpus.cleanUp() }
        let files = corpus.files
        print("identify: \(files.count) files, \(ResourceUsage.mebibytes(corpus.totalBytes)) in the page cache, "
            + "\(ProcessInfo.processInfo.activeProcessorCount) cores")

        // LivePair: every core, best of `rounds` passes.
        let identifier = ResourceIdentifier()
        let identifierCounts = ResultCounter()
        var best = Double.infinity
        for _ in 0..<options.rounds {
            identifierCounts.reset()
            let seconds = ResourceUsage.time {
                DispatchQueue.concurrentPerform(iterations: files.count) { index in
                    let identity = identifier.identify(path: files[index])
                    if identity.contentIdentifier != nil { identifierCounts.increment() }
                }
            }
            best = min(best, seconds)
        }
        let livePairPeak = ResourceUsage.selfPeakBytes
        let ours = identifierCounts.value

        // exiftool: one process over an argument file, as photo backends run it at best.
        let listURL = corpus.directory.appendingPathComponent("exiftool-args.txt")
        try files.joined(separator: "\n").write(to: listURL, atomically: true, encoding: .utf8)
        var exiftoolLines = 0
        let exiftoolSeconds = try ResourceUsage.time {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
            process.arguments = ["-s3", "-ContentIdentifier", "-MediaGroupUUID", "-@", listURL.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            // With several files exiftool prints a `======== path` header per file and a closing count: skip them.
            exiftoolLines = String(decoding: data, as: UTF8.self).split(separator: "\n").filter { line in
                !line.hasPrefix("========") && !line.hasSuffix("files read")
            }.count
        }
        let exiftoolPeak = ResourceUsage.childrenPeakBytes

        let ourRate = Double(files.count) / best
        let theirRate = Double(files.count) / exiftoolSeconds
        func row(_ name: String, _ seconds: Double, _ rate: Double, _ peak: UInt64, _ found: Int) -> String {
            name.padding(toLength: 10, withPad: " ", startingAt: 0)
                + String(format: "%10.4f s %12.0f files/s   peak %@   identifiers %d", seconds, rate,
                    ResourceUsage.mebibytes(peak), found)
        }
        print(row("livepair", best, ourRate, livePairPeak, ours))
        print(row("exiftool", exiftoolSeconds, theirRate, exiftoolPeak, exiftoolLines))
        print(String(format: "speedup: %.1fx (livepair best of %d passes on %d cores; exiftool one process)",
            exiftoolSeconds / best, options.rounds, ProcessInfo.processInfo.activeProcessorCount))
        if ours != exiftoolLines {
            print("MISMATCH: livepair found \(ours) identifiers, exiftool \(exiftoolLines)")
            return 1
        }
        return 0
    }
}

/// A counter shared by concurrent workers.
final class ResultCounter: @unchecked Sendable {
    // Sendable: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    func reset() { lock.withLock { count = 0 } }
    var value: Int { lock.withLock { count } }
}
