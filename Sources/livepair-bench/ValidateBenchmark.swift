import Foundation
import LivePair
import LivePairFormats

/// Pairs and validates (metadata only) a corpus of distinct Live Photos with renamed halves in
/// nested folders, against one exiftool process reading the same identifiers; then again at
/// `scale` times the files, to show the cost is linear.
struct ValidateBenchmark {
    let options: BenchmarkOptions

    /// Runs the benchmark; returns the exit status.
    func run() throws -> Int32 {
        let small = try LivePairCorpus.make(from: options.samples, count: options.fileCount, into: options.work)
        defer { small.cleanUp() }
        print("validate: \(small.files.count) files (\(small.pairCount) Live Photos with renamed halves in nested folders), "
            + "\(ResourceUsage.mebibytes(small.totalBytes)), \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let ours = measure(small.files)
        let exiftool = try ExiftoolBaseline.readIdentifiers(small.files, listDirectory: small.directory)
        print(row("livepair", ours.seconds, small.files.count, ours.peak, "pairs \(ours.pairs), findings \(ours.findings)"))
        print(row("exiftool", exiftool.seconds, small.files.count, exiftool.peak, "identifiers \(exiftool.identifiers)"))
        print(String(format: "speedup: %.1fx (livepair identify + pair + validate on all cores; exiftool read alone, one process)",
            exiftool.seconds / ours.seconds))
        var status: Int32 = ours.pairs == small.pairCount ? 0 : 1
        if status != 0 { print("MISMATCH: \(ours.pairs) pairs found, \(small.pairCount) made") }

        if options.scale > 1 {
            // Linearity: sparse copies at 1x and at `scale` times the files (see LivePairCorpus).
            let base = try LivePairCorpus.make(
                from: options.samples, count: options.fileCount, into: options.work.map { $0 + "-sparse" }, sparse: true)
            defer { base.cleanUp() }
            let baseRun = measure(base.files)
            let large = try LivePairCorpus.make(
                from: options.samples, count: options.fileCount * options.scale,
                into: options.work.map { $0 + "-sparse-x\(options.scale)" }, sparse: true)
            defer { large.cleanUp() }
            let largeRun = measure(large.files)
            print("sparse copies (only the pages LivePair reads are stored):")
            print(row("livepair", baseRun.seconds, base.files.count, baseRun.peak, "pairs \(baseRun.pairs), findings \(baseRun.findings)"))
            print(row("livepair", largeRun.seconds, large.files.count, largeRun.peak, "pairs \(largeRun.pairs), findings \(largeRun.findings)"))
            print(String(format: "scaling: %dx the files took %.2fx the time (%.1f us vs %.1f us per file)",
                options.scale, largeRun.seconds / baseRun.seconds, baseRun.seconds / Double(base.files.count) * 1e6,
                largeRun.seconds / Double(large.files.count) * 1e6))
            for (run, corpus) in [(baseRun, base), (largeRun, large)] where run.pairs != corpus.pairCount {
                print("MISMATCH: \(run.pairs) pairs found, \(corpus.pairCount) made")
                status = 1
            }
        }
        return status
    }

    private func row(_ name: String, _ seconds: Double, _ files: Int, _ peak: UInt64, _ detail: String) -> String {
        name.padding(toLength: 10, withPad: " ", startingAt: 0)
            + String(format: "%6d files %10.4f s %10.0f files/s   peak %@   %@", files, seconds, Double(files) / seconds,
                ResourceUsage.mebibytes(peak), detail)
    }

    /// Best of `rounds` passes of identify (all cores) + pair + validate.
    /// Also prints the resident memory after the run, which (unlike the peak) is not raised by
    /// building the corpus.
    private func measure(_ files: [String]) -> (seconds: Double, peak: UInt64, pairs: Int, findings: Int) {
        var best = Double.infinity
        var pairs = 0, findings = 0
        for _ in 0..<options.rounds {
            let seconds = ResourceUsage.time {
                let identities = ConcurrentIdentification.identify(files)
                let result = Pairing.pair(identities.map(AssetResource.init), options: PairingOptions())
                let report = Validator(options: ValidationOptions()).validate(result)
                pairs = result.pairs.count
                findings = report.allFindings.count
            }
            best = min(best, seconds)
        }
        print("  (\(files.count) files: resident after the run \(ResourceUsage.mebibytes(ResourceUsage.currentResidentBytes)))")
        return (best, ResourceUsage.selfPeakBytes, pairs, findings)
    }
}
