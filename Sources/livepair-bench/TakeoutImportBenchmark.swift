import Foundation

/// `livepair-bench takeout`: a Google Takeout of `--files` files (default 5,000: half media, half
/// JSON sidecars) in 10 zip parts, imported with `livepair import` into a new library, beside the
/// same media imported from a plain folder (`--layout plain`), in one run. The media are copies of
/// the real pairs in SampleMedia/live with fresh content identifiers (`IngestBenchmark.makeUploads`),
/// spread over 32 folders; every media file has a `.supplemental-metadata.json` sidecar; members
/// go round-robin over the parts, so a Live Photo's halves and JSON are in different parts (as in
/// real exports). The two imports run `--rounds` times, interleaved (the folder first in odd rounds,
/// the parts first in even ones), each with its input evicted from the page cache first; reports
/// each import's time, CPU time and peak resident memory, and the medians; exits 0 when the parts' median takes at most `maximumRatio` times the folder's.
struct TakeoutImportBenchmark {
    let options: BenchmarkOptions
    /// The target of issue 22.
    static let maximumRatio = 1.2
    static let partCount = 10

    func run() throws -> Int32 {
        let folder = ProcessTimer.executableDirectory
        let livepair = folder + "/livepair"
        guard FileManager.default.isExecutableFile(atPath: livepair) else {
            throw BenchmarkOptions.Invalid(description: "\(livepair) is missing: build it first")
        }
        let root = options.work ?? NSTemporaryDirectory() + "livepair-takeout-bench-\(UUID().uuidString)"
        // A --work folder is kept (for profiling the imports again); a temporary one is removed.
        defer { if options.work == nil { try? FileManager.default.removeItem(atPath: root) } }
        let tree = root + "/tree", sidecars = root + "/sidecars"
        let google = "Takeout/Google Photos"
        let started = Date()
        let pairs = max(1, options.fileCount / 4)
        let (media, bytes) = try IngestBenchmark.makeUploads(pairs: pairs, samples: options.samples + "/live", into: tree + "/" + google)
        var mediaNames: [String] = []
        var jsonNames: [String] = []
        for (index, path) in media.enumerated() {
            let relative = String(path.dropFirst(tree.count + 1))
            mediaNames.append(relative)
            let json = relative + ".supplemental-metadata.json"
            let directory = sidecars + "/" + (json as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let taken = 1_600_000_000 + index * 60
            let body = """
                {"title": "\((relative as NSString).lastPathComponent)", "description": "", "imageViews": "1",
                 "creationTime": {"timestamp": "\(taken + 3600)"}, "photoTakenTime": {"timestamp": "\(taken)"},
                 "geoData": {"latitude": 48.8584, "longitude": 2.2945, "altitude": 0.0}, "favorited": \(index % 7 == 0)}
                """
            try Data(body.utf8).write(to: URL(fileURLWithPath: sidecars + "/" + json))
            jsonNames.append(json)
        }
        // The parts: members round-robin, media and JSON alike (deflated, as Takeout writes them).
        var parts: [String] = []
        for part in 0..<Self.partCount {
            let name = String(format: "%@/takeout-20261201T000000Z-%03d.zip", root, part + 1)
            let mediaList = stride(from: part, to: mediaNames.count, by: Self.partCount).map { mediaNames[$0] }
            let jsonList = stride(from: (part + 3) % Self.partCount, to: jsonNames.count, by: Self.partCount).map { jsonNames[$0] }
            try Self.write(lines: mediaList, to: root + "/media-\(part).txt")
            try Self.write(lines: jsonList, to: root + "/json-\(part).txt")
            _ = try IngestBenchmark.shell(
                "cd '\(tree)' && zip -q -1 '\(name)' -@ < '\(root)/media-\(part).txt' && cd '\(sidecars)' && zip -q -1 '\(name)' -@ < '\(root)/json-\(part).txt'")
            parts.append(name)
        }
        _ = try IngestBenchmark.shell("sync")
        let partBytes = try parts.reduce(UInt64(0)) { $0 + ((try FileManager.default.attributesOfItem(atPath: $1)[.size] as? UInt64) ?? 0) }
        print(String(format: "corpus: %d media files (%.2f GB) + %d JSON sidecars in %d zip parts (%.2f GB), made in %.0f s",
            media.count, Double(bytes) / 1e9, jsonNames.count, parts.count, Double(partBytes) / 1e9, Date().timeIntervalSince(started)))
        print("load average before: " + (try IngestBenchmark.shell("cat /proc/loadavg")).trimmingCharacters(in: .whitespacesAndNewlines))

        // Rounds interleaved (folder first in odd rounds, parts first in even ones) on a shared,
        // noisy machine; each round's libraries are removed after it. The medians decide.
        var plainRuns: [(seconds: Double, cpu: Double, peakBytes: UInt64)] = []
        var partsRuns: [(seconds: Double, cpu: Double, peakBytes: UInt64)] = []
        for round in 1...options.rounds {
            let folderLibrary = root + "/library-folder-\(round)", partsLibrary = root + "/library-parts-\(round)"
            for input in round % 2 == 1 ? ["folder", "parts"] : ["parts", "folder"] {
                // Both inputs start from the disk: which of them the page cache still held was
                // the previous run's luck (the parts, written once, went first: 1.37x at 5,000).
                _ = try IngestBenchmark.shell("sync")
                Self.evictFromPageCache(media + parts)
                if input == "folder" {
                    plainRuns.append(try timeImport(livepair, ["--layout", "plain", tree], library: folderLibrary))
                } else {
                    partsRuns.append(try timeImport(livepair, parts, library: partsLibrary))
                }
            }
            let (plain, takeout) = (plainRuns[round - 1], partsRuns[round - 1])
            print(String(format: "round %d: folder %.1f s (CPU %.1f s, peak RSS %@), parts %.1f s (CPU %.1f s, peak RSS %@): %.2fx",
                round, plain.seconds, plain.cpu, ResourceUsage.mebibytes(plain.peakBytes), takeout.seconds, takeout.cpu,
                ResourceUsage.mebibytes(takeout.peakBytes), takeout.seconds / plain.seconds))
            if options.work == nil || round < options.rounds {
                try? FileManager.default.removeItem(atPath: folderLibrary)
                try? FileManager.default.removeItem(atPath: partsLibrary)
            }
        }
        let folderSeconds = Self.median(plainRuns.map(\.seconds)), partsSeconds = Self.median(partsRuns.map(\.seconds))
        let ratio = partsSeconds / folderSeconds
        let ratios = zip(plainRuns, partsRuns).map { $1.seconds / $0.seconds }
        print(String(format: "folder (--layout plain), median of %d: %.1f s (CPU %.1f s), %.0f media files/s", options.rounds,
            folderSeconds, Self.median(plainRuns.map(\.cpu)), Double(media.count) / folderSeconds))
        print(String(format: "takeout parts, median of %d: %.1f s (CPU %.1f s), %.0f files/s (media and sidecars)", options.rounds,
            partsSeconds, Self.median(partsRuns.map(\.cpu)), Double(media.count + jsonNames.count) / partsSeconds))
        print(String(format: "parts / folder: %.2fx of the medians, median of the rounds' ratios %.2fx (target <= %.1fx): %@", ratio,
            Self.median(ratios), Self.maximumRatio, ratio <= Self.maximumRatio ? "met" : "NOT met"))
        return ratio <= Self.maximumRatio ? 0 : 1
    }

    /// Drops the cached pages of `paths` (`POSIX_FADV_DONTNEED`, after a `sync`: clean pages only),
    /// so that an import reads its input from the disk whichever ran before; nothing else on the
    /// machine is touched.
    static func evictFromPageCache(_ paths: [String]) {
        for path in paths {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
            close(descriptor)
        }
    }

    /// The median of `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Runs `livepair import --quiet --json ARGUMENTS --library LIBRARY` (its report kept beside the
    /// library) and returns its wall time, CPU time and peak resident memory; fails unless it exits 0.
    private func timeImport(
        _ livepair: String, _ arguments: [String], library: String
    ) throws -> (seconds: Double, cpu: Double, peakBytes: UInt64) {
        let run = try ProcessTimer.run(
            livepair, ["import", "--quiet", "--json", "--library", library] + arguments, output: library + "-report.json")
        guard run.status == 0 else {
            throw BenchmarkOptions.Invalid(description: "livepair import \(arguments.first ?? "") exited \(run.status)")
        }
        return (run.seconds, run.cpu, run.peakBytes)
    }

    private static func write(lines: [String], to path: String) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }
}
