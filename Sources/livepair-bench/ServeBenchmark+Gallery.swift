import Foundation
import LivePairLibrary
import LivePairServer

/// `livepair-bench serve --only gallery`: the gallery page in Chromium over 200 Live Photos
/// (copies of the sample pairs with fresh identifiers) uploaded over loopback, on a server whose
/// derivatives were made in the background first (every job done before the page opens) beside a
/// server that makes them on demand (`backgroundJobs = 0`, nothing made yet). `scripts/gallery-timing.py`
/// (Playwright, Debian's Chromium, 1280x800, a fresh profile) measures the time until the first
/// screen of tiles shows its stills, and from hover to the first frame of motion
/// (`requestVideoFrameCallback`). Targets: first screen at most 1.5 s, hover at most 150 ms (p50).
extension ServeBenchmark {
    /// Live Photos in the gallery's library.
    static let galleryPairs = 200
    static let maximumFirstScreen = 1.5
    static let maximumHover = 0.150

    /// What the timing script printed.
    struct GalleryTiming: Decodable {
        var firstScreen: Double
        var tiles: Int
        var failed: Int
        var hover: [Double]
    }

    /// Runs the gallery figures; true when both targets are met with the derivatives made first.
    func runGallery(root: String, pairs: Int) throws -> Bool {
        let python = (ProcessInfo.processInfo.environment["LIVEPAIR_TOOLS_DIR"] ?? "/opt/livepair-tools") + "/venv-browser/bin/python"
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/gallery-timing.py").path
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script) else {
            throw BenchmarkOptions.Invalid(description: "the gallery figures need \(python) (scripts/setup.sh) and \(script)")
        }
        let (files, _) = try IngestBenchmark.makeUploads(pairs: pairs, samples: options.samples + "/live", into: root + "/gallery-uploads")
        defer { try? FileManager.default.removeItem(atPath: root + "/gallery-uploads") }
        var timings: [GalleryTiming] = []
        for madeFirst in [true, false] {
            let (library, server) = try Self.benchServer(
                at: root + (madeFirst ? "/gallery-made" : "/gallery-on-demand"), backgroundJobs: madeFirst ? nil : 0)
            defer { server.stop() }
            // Without file names: a copy named `…_edited.heic` would wait as an edit's render.
            let uploads = uploadPairs(files, to: server, prefix: "gallery", named: false)
            if madeFirst {
                let started = Date()
                var counts = try library.derivativeJobCounts()
                while counts[.queued, default: 0] + counts[.running, default: 0] > 0 {
                    usleep(100_000)
                    counts = try library.derivativeJobCounts()
                }
                print(
                    String(
                        format: "gallery: %d Live Photos uploaded in %.1f s (%d failed); their derivative jobs done %.1f s later (%d done, %d failed)",
                        pairs, uploads.seconds, uploads.failures, Date().timeIntervalSince(started), counts[.done] ?? 0, counts[.failed] ?? 0))
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [script, "http://127.0.0.1:\(server.port)", "bench-token", "8"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0, let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last else {
                throw BenchmarkOptions.Invalid(description: "gallery-timing.py failed: \(String(decoding: data, as: UTF8.self))")
            }
            timings.append(try JSONDecoder().decode(GalleryTiming.self, from: Data(line.utf8)))
        }
        func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }
        let (made, onDemand) = (timings[0], timings[1])
        let firstMet = made.firstScreen / 1000 <= Self.maximumFirstScreen && made.failed == 0
        let hoverMet = median(made.hover) / 1000 <= Self.maximumHover && made.hover.count > 0
        print("gallery in Chromium (1280x800), \(pairs) Live Photos:   made in the background first | made on demand")
        print(
            String(
                format: "  first screen of tiles painted:  %7.0f ms (%d tiles, %d failed)  | %7.0f ms (%d tiles, %d failed)   target <= 1500 ms: %@",
                made.firstScreen, made.tiles, made.failed, onDemand.firstScreen, onDemand.tiles, onDemand.failed, firstMet ? "met" : "NOT met"))
        print(
            String(
                format: "  hover to first motion frame:    p50 %5.0f ms max %5.0f ms (%d) | p50 %5.0f ms max %5.0f ms (%d)   target <= 150 ms: %@",
                median(made.hover), made.hover.max() ?? .nan, made.hover.count, median(onDemand.hover), onDemand.hover.max() ?? .nan,
                onDemand.hover.count, hoverMet ? "met" : "NOT met"))
        return firstMet && hoverMet
    }
}
