import Foundation

/// The `livepair` process as scripts and backends run it, timed from spawn to exit beside
/// exiftool in the same run: start-up against a Swift program that only imports Foundation, then
/// `inspect --json`, `validate --json` and `pair --json` over corpora, against one exiftool process
/// reading the identifiers alone.
struct CLIBenchmark {
    let options: BenchmarkOptions

    /// Runs the benchmark; returns the exit status (1 when a figure is wrong or a target is missed).
    func run() throws -> Int32 {
        let folder = ProcessTimer.executableDirectory
        let livepair = folder + "/livepair", media = folder + "/livepair-media"
        for tool in [livepair, media] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw ProcessTimer.SpawnFailure(description: "\(tool) is not built (swift build -c release)")
        }
        let scratch = URL(fileURLWithPath: NSTemporaryDirectory() + "livepair-bench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var status: Int32 = 0
        status |= try startUp(livepair: livepair, media: media, scratch: scratch)
        status |= try inspect(livepair: livepair, scratch: scratch)
        status |= try validateAndPair(livepair: livepair, scratch: scratch)
        status |= try duplicates(livepair: livepair, scratch: scratch)
        return status
    }

    /// Start-up: medians of 40 runs.
    private func startUp(livepair: String, media: String, scratch: URL) throws -> Int32 {
        let runs = 40
        let sample = BenchmarkCorpus.samplesRoot(options.samples) + "/live/IMG_3582.HEIC"
        print("start-up: median (minimum) of \(runs) runs, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let baseline = try foundationOnlyProgram(in: scratch)
        let reference = try ProcessTimer.repeated(runs, baseline, [])
        func line(_ name: String, _ figure: (median: Double, minimum: Double, status: Int32)) -> String {
            name.padding(toLength: 46, withPad: " ", startingAt: 0)
                + String(format: "%7.1f ms (%5.1f ms)  %4.1fx the Foundation-only program", figure.median * 1000,
                    figure.minimum * 1000, figure.median / reference.median)
        }
        print(line("swift program importing only Foundation", reference))
        var status: Int32 = 0
        for (name, path, arguments) in [
            ("livepair --version", livepair, ["--version"]), ("livepair inspect IMG_3582.HEIC", livepair, ["inspect", sample]),
            ("livepair-media --version (everything linked)", media, ["--version"]),
        ] {
            let figure = try ProcessTimer.repeated(runs, path, arguments)
            print(line(name, figure))
            if figure.status != 0 { status = 1 }
            if path == livepair && figure.median > 3 * reference.median {
                print("TARGET MISSED: \(name) takes more than 3x the Foundation-only program")
                status = 1
            }
        }
        return status
    }

    /// `inspect --json` over a folder of copies of the samples, against exiftool's identifier read.
    private func inspect(livepair: String, scratch: URL) throws -> Int32 {
        let corpus = try BenchmarkCorpus.make(
            from: options.samples, count: max(options.fileCount, 1200), into: options.work)
        defer { corpus.cleanUp() }
        print("inspect --json: \(corpus.files.count) files (copies of SampleMedia), \(ResourceUsage.mebibytes(corpus.totalBytes))")
        let ours = try best(livepair, ["inspect", "--json", corpus.directory.path], scratch: scratch)
        let output = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.appendingPathComponent("out.json")))
        let reported = (output as? [Any])?.count ?? -1
        let exiftool = try exiftoolRun(corpus.files, scratch: scratch)
        return report(ours, exiftool: exiftool, files: corpus.files.count, target: 100,
            detail: "\(reported) files reported, exit status \(ours.status)", ok: reported == corpus.files.count)
    }

    /// `validate --json` and `pair --json` over distinct Live Photos (each pair its own identifier,
    /// halves renamed and in different nested folders), made once and cached.
    private func validateAndPair(livepair: String, scratch: URL) throws -> Int32 {
        let corpus = try CorpusCache.livePhotos(from: options.samples, pairs: max(options.fileCount, 2400) / 2)
        print("validate --json and pair --json: \(corpus.files.count) files, \(corpus.pairCount) distinct Live Photos, "
            + ResourceUsage.mebibytes(corpus.totalBytes))
        let exiftool = try exiftoolRun(corpus.files, scratch: scratch)
        var status: Int32 = 0
        for command in ["validate", "pair"] {
            let ours = try best(livepair, [command, "--json", corpus.directory.path], scratch: scratch)
            let output = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.appendingPathComponent("out.json")))
            let object = output as? [String: Any]
            let pairs = command == "pair"
                ? (object?["pairs"] as? [Any])?.count ?? -1
                : ((object?["assets"] as? [[String: Any]]) ?? []).filter(Self.isCompleteLivePhoto).count
            status |= report(ours, exiftool: exiftool, files: corpus.files.count, target: 50, label: "livepair \(command)",
                detail: "\(pairs) Live Photos found, exit status \(ours.status)", ok: pairs == corpus.pairCount)
        }
        return status
    }

    /// `pair --json` over a pile of 1,200 hard links to one still, beside 1,200 distinct files of
    /// the same size and identity (copies of that still whose last bytes differ): the worst case
    /// for duplicate detection, where every file must be fingerprinted.
    private func duplicates(livepair: String, scratch: URL) throws -> Int32 {
        let count = 1200
        let still = BenchmarkCorpus.samplesRoot(options.samples) + "/live/IMG_3582.HEIC"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: still)))
        let links = scratch.appendingPathComponent("links"), distinct = scratch.appendingPathComponent("distinct")
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: distinct, withIntermediateDirectories: true)
        let original = links.appendingPathComponent("IMG_0000.HEIC").path
        try Data(bytes).write(to: URL(fileURLWithPath: original))
        var distinctFiles: [String] = []
        for index in 1..<count {
            try FileManager.default.linkItem(atPath: original, toPath: links.appendingPathComponent(String(format: "IMG_%04d.HEIC", index)).path)
        }
        for index in 0..<count {
            var copy = bytes
            withUnsafeBytes(of: UInt64(index).bigEndian) { copy.replaceSubrange(copy.count - 8..<copy.count, with: $0) }
            let path = distinct.appendingPathComponent(String(format: "IMG_%04d.HEIC", index)).path
            try Data(copy).write(to: URL(fileURLWithPath: path))
            distinctFiles.append(path)
        }
        try BenchmarkCorpus.warmPageCache([original] + distinctFiles)
        print("duplicates: pair --json over \(count) paths of \(ResourceUsage.mebibytes(UInt64(bytes.count))) each")
        var times: [String: Double] = [:]
        for (name, folder) in [("hard links to one file", links), ("distinct same-size files", distinct)] {
            let ours = try runs(livepair, ["pair", "--json", folder.path], scratch: scratch)
            let output = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.appendingPathComponent("out.json")))
            let object = output as? [String: Any]
            let groups = (object?["duplicates"] as? [Any])?.count ?? -1
            let unpaired = (object?["unpaired"] as? [Any])?.count ?? -1
            let ambiguous = (object?["ambiguous"] as? [Any])?.count ?? -1
            print(name.padding(toLength: 26, withPad: " ", startingAt: 0)
                + String(format: "%9.4f s (cpu %7.3f s)   runs %@   %d duplicate groups, %d unpaired, %d ambiguous",
                    ours.best.seconds, ours.best.cpu, Self.list(ours.all), groups, unpaired, ambiguous))
            times[name] = ours.best.seconds
        }
        let ratio = (times["hard links to one file"] ?? 0) / (times["distinct same-size files"] ?? 1)
        print(String(format: "links / distinct: %.2fx (target: about 1x or less)", ratio))
        return ratio > 1.5 ? 1 : 0
    }

    /// True for a validated asset that is a Live Photo with both halves.
    private static func isCompleteLivePhoto(_ asset: [String: Any]) -> Bool {
        asset["kind"] as? String == "live-photo" && asset["photo"] is String && asset["video"] is String
    }

    /// exiftool reading the identifiers of `files` in one process: wall and CPU time.
    private func exiftoolRun(_ files: [String], scratch: URL) throws -> (seconds: Double, cpu: Double) {
        let cpuBefore = ProcessTimer.childrenCPUSeconds
        let run = try ExiftoolBaseline.readIdentifiers(files, listDirectory: scratch)
        return (run.seconds, ProcessTimer.childrenCPUSeconds - cpuBefore)
    }

    /// The best of `options.rounds` runs; the last run's output is kept in `scratch/out.json`.
    private func best(_ path: String, _ arguments: [String], scratch: URL) throws -> (seconds: Double, cpu: Double, status: Int32) {
        let measured = try runs(path, arguments, scratch: scratch)
        print("  runs: " + Self.list(measured.all))
        return measured.best
    }

    /// `options.rounds` runs: each one's wall time and the best; the last run's output is kept in `scratch/out.json`.
    private func runs(
        _ path: String, _ arguments: [String], scratch: URL
    ) throws -> (best: (seconds: Double, cpu: Double, status: Int32), all: [Double]) {
        var best = (seconds: Double.infinity, cpu: Double.infinity, status: Int32(0))
        var all: [Double] = []
        for _ in 0..<options.rounds {
            let run = try ProcessTimer.run(path, arguments, output: scratch.appendingPathComponent("out.json").path)
            all.append(run.seconds)
            if run.seconds < best.seconds { best = (run.seconds, run.cpu, run.status) }
        }
        return (best, all)
    }

    /// Wall times in seconds, for the log: "0.412 0.398 0.405".
    private static func list(_ times: [Double]) -> String {
        times.map { String(format: "%.3f", $0) }.joined(separator: " ")
    }

    /// Prints both sides (wall and CPU time) and the ratios; the wall-time ratio is held to `target`.
    private func report(
        _ ours: (seconds: Double, cpu: Double, status: Int32), exiftool: (seconds: Double, cpu: Double), files: Int,
        target: Double, label: String = "livepair", detail: String, ok: Bool
    ) -> Int32 {
        print(label.padding(toLength: 18, withPad: " ", startingAt: 0)
            + String(format: "%9.4f s (cpu %7.3f s) %8.0f files/s   %@", ours.seconds, ours.cpu, Double(files) / ours.seconds, detail))
        print("exiftool".padding(toLength: 18, withPad: " ", startingAt: 0)
            + String(format: "%9.4f s (cpu %7.3f s) %8.0f files/s   identifiers only, one process", exiftool.seconds,
                exiftool.cpu, Double(files) / exiftool.seconds))
        let ratio = exiftool.seconds / ours.seconds
        print(String(format: "ratio: %.1fx wall (target %.0fx), %.1fx CPU time; process from spawn to exit, best of %d",
            ratio, target, exiftool.cpu / ours.cpu, options.rounds))
        var status: Int32 = ok ? 0 : 1
        if !ok { print("MISMATCH: \(detail)") }
        if ratio < target {
            print("TARGET MISSED")
            status = 1
        }
        return status
    }

    /// A Swift program that only imports Foundation and prints a line, compiled with `swiftc -O`.
    private func foundationOnlyProgram(in scratch: URL) throws -> String {
        let source = scratch.appendingPathComponent("main.swift")
        try "import Foundation\nprint(\"0.1.0\")\n".write(to: source, atomically: true, encoding: .utf8)
        let binary = scratch.appendingPathComponent("foundation-only").path
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compile.arguments = ["swiftc", "-O", source.path, "-o", binary]
        try compile.run()
        compile.waitUntilExit()
        guard compile.terminationStatus == 0 else {
            throw ProcessTimer.SpawnFailure(description: "swiftc could not build the Foundation-only program")
        }
        return binary
    }
}
