import Foundation

/// `livepair-bench takeout`: a Google Takeout of `--files` files (default 5,000: half media, half
/// JSON sidecars) in 10 zip parts, imported with `livepair import` into a new library, beside the
/// same media imported from a plain folder (`--layout plain`), in one run. The media are copies of
/// the real pairs in SampleMedia/live with fresh content identifiers (`IngestBenchmark.makeUploads`),
/// spread over 32 folders; every media file has a `.supplemental-metadata.json` sidecar; members
/// go round-robin over the parts, so a Live Photo's halves and JSON are in different parts (as in
/// real exports). Reports each import's time, CPU time and peak resident memory; exits 0 when the
/// parts' import takes at most `maximumRatio` times the folder's.
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

        let plain = try timeImport(livepair, ["--layout", "plain", tree], library: root + "/library-folder")
        _ = try IngestBenchmark.shell("sync")
        let takeout = try timeImport(livepair, parts, library: root + "/library-parts")
        let (folderSeconds, partsSeconds) = (plain.seconds, takeout.seconds)
        let ratio = partsSeconds / folderSeconds
        print(String(format: "folder (--layout plain): %.1f s (CPU %.1f s, peak RSS %@), %.0f media files/s", folderSeconds, plain.cpu,
            ResourceUsage.mebibytes(plain.peakBytes), Double(media.count) / folderSeconds))
        print(String(format: "takeout parts: %.1f s (CPU %.1f s, peak RSS %@), %.0f files/s (media and sidecars)", partsSeconds,
            takeout.cpu, ResourceUsage.mebibytes(takeout.peakBytes), Double(media.count + jsonNames.count) / partsSeconds))
        print(String(format: "parts / folder: %.2fx (target <= %.1fx): %@", ratio, Self.maximumRatio,
            ratio <= Self.maximumRatio ? "met" : "NOT met"))
        return ratio <= Self.maximumRatio ? 0 : 1
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
