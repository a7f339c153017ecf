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
        var best = Double.infinity
        var ours = 0
        for _ in 0..<options.rounds {
            var identities: [ResourceIdentity] = []
            best = min(best, ResourceUsage.time { identities = ConcurrentIdentification.identify(files) })
            ours = identities.filter { $0.contentIdentifier != nil }.count
        }
        let livePairPeak = ResourceUsage.selfPeakBytes

        // exiftool: one process over an argument file, as photo backends run it at best.
        let baseline = try ExiftoolBaseline.readIdentifiers(files, listDirectory: corpus.directory)
        let exiftoolSeconds = baseline.seconds, exiftoolPeak = baseline.peak, exiftoolLines = baseline.identifiers

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
