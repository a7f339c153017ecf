import Foundation
import LivePair

/// `livepair-bench package`: makes Live Photo pairs from camera files without re-encoding (a new
/// identifier in the still's maker note and the movie's `moov/meta`, a new still-image-time
/// track, validation of the written pair, durable atomic writes), against exiftool writing only the
/// identifier into the same movies (`exiftool -Keys:ContentIdentifier=UUID -o OUT MOVIE`, one
/// long-running process for all of them), in one run.
struct PackageBenchmark {
    let options: BenchmarkOptions

    /// The real pairs the copies are made from.
    static let templates: [(photo: String, video: String)] = [
        ("live/IMG_3582.HEIC", "live/IMG_3582.mov"),
        ("live/IMG_4580.HEIC", "live/IMG_4580.mov"),
        ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"),
        ("live/train.jpg", "live/train.mov"),
    ]

    func run() throws -> Int32 {
        let root = URL(fileURLWithPath: options.work ?? NSTemporaryDirectory())
            .appendingPathComponent("livepair-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let count = options.fileCount
        // Inputs: copies of the real pairs, one folder per pair.
        var inputs: [(photo: String, video: String)] = []
        for index in 0..<count {
            let template = Self.templates[index % Self.templates.count]
            let folder = root.appendingPathComponent("in/\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var pair: [String] = []
            for file in [template.photo, template.video] {
                let destination = folder.appendingPathComponent((file as NSString).lastPathComponent).path
                try FileManager.default.copyItem(atPath: "\(options.samples)/\(file)", toPath: destination)
                pair.append(destination)
            }
            inputs.append((pair[0], pair[1]))
        }
        let identifiers = (0..<count).map { _ in ContentIdentifier.random().rawValue }
        let bytes = try inputs.reduce(UInt64(0)) { total, pair in
            total + (try FileManager.default.attributesOfItem(atPath: pair.photo)[.size] as? UInt64 ?? 0)
                + (try FileManager.default.attributesOfItem(atPath: pair.video)[.size] as? UInt64 ?? 0)
        }
        print("package: \(count) pairs (\(String(format: "%.0f", Double(bytes) / 1_048_576)) MiB), copies of \(Self.templates.count) camera pairs")

        // exiftool as a backend runs it: one process per movie, identifier only, to a new file.
        let perFileOut = root.appendingPathComponent("exiftool-per-file")
        try FileManager.default.createDirectory(at: perFileOut, withIntermediateDirectories: true)
        let perFileSeconds = try ResourceUsage.time {
            for (index, pair) in inputs.enumerated() {
                try Self.exiftool([
                    "-q", "-q", "-Keys:ContentIdentifier=\(identifiers[index])", "-o",
                    perFileOut.appendingPathComponent("\(index).mov").path, pair.video,
                ])
            }
        }
        // exiftool at its fastest: one long-running process, one -execute per movie.
        let batchOut = root.appendingPathComponent("exiftool-batch")
        try FileManager.default.createDirectory(at: batchOut, withIntermediateDirectories: true)
        var arguments: [String] = []
        for (index, pair) in inputs.enumerated() {
            arguments += [
                "-Keys:ContentIdentifier=\(identifiers[index])", "-o", batchOut.appendingPathComponent("\(index).mov").path,
                pair.video, "-execute",
            ]
        }
        let list = root.appendingPathComponent("exiftool-args.txt")
        try arguments.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let batchSeconds = try ResourceUsage.time { try Self.exiftool(["-q", "-q", "-@", list.path]) }
        let perFileWritten = (try? FileManager.default.contentsOfDirectory(atPath: perFileOut.path).count) ?? 0
        let batchWritten = (try? FileManager.default.contentsOfDirectory(atPath: batchOut.path).count) ?? 0

        // LivePair: make each pair (still + movie, identifier, still-image-time track, validation),
        // one thread, best of the rounds (each round writes a fresh output folder); durable (fsync
        // of every output and folder, the default) and not.
        func measure(durable: Bool) -> (seconds: Double, made: Int) {
            var best = Double.infinity
            var made = 0
            var options = PackagingOptions()
            options.durable = durable
            let packager = LivePhotoPackager(options: options)
            for round in 0..<self.options.rounds {
                let out = root.appendingPathComponent("livepair-\(durable)-\(round)")
                var failures = 0
                let seconds = ResourceUsage.time {
                    for (index, pair) in inputs.enumerated() {
                        do {
                            _ = try packager.make(
                                photo: pair.photo, video: pair.video,
                                outputDirectory: out.appendingPathComponent("\(index)").path,
                                contentIdentifier: identifiers[index])
                        } catch {
                            failures += 1
                        }
                    }
                }
                made = count - failures
                best = min(best, seconds)
                try? FileManager.default.removeItem(at: out)
            }
            return (best, made)
        }
        let durable = measure(durable: true)
        let fast = measure(durable: false)
        let ratio = perFileSeconds / durable.seconds
        func line(_ name: String, _ seconds: Double, _ detail: String) {
            let padded = name.padding(toLength: 34, withPad: " ", startingAt: 0)
            print(padded + String(format: " %8.3f s  %7.1f pairs/s  ", seconds, Double(count) / seconds) + detail)
        }
        line("  LivePair make (durable, fsync)", durable.seconds, "\(durable.made)/\(count) pairs written and validated")
        line("  LivePair make (no fsync)", fast.seconds, "\(fast.made)/\(count) pairs written and validated")
        line("  exiftool, one process per movie", perFileSeconds, "\(perFileWritten)/\(count) movies, identifier only")
        line("  exiftool, one process, -execute", batchSeconds, "\(batchWritten)/\(count) movies, identifier only")
        print(String(format: "  speedup vs exiftool per movie: %.1fx durable, %.1fx without fsync (target: at least 10x)",
                     ratio, perFileSeconds / fast.seconds))
        print(String(format: "  speedup vs exiftool batched:   %.1fx durable, %.1fx without fsync",
                     batchSeconds / durable.seconds, batchSeconds / fast.seconds))
        let made = min(durable.made, fast.made)
        return made == count && ratio >= 10 ? 0 : 1
    }

    /// Runs `/usr/bin/exiftool arguments...` and waits for it.
    private static func exiftool(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }
}
