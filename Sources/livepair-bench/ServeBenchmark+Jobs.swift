import Foundation
import LivePair
import LivePairFormats
import LivePairLibrary
import LivePairMedia
import LivePairServer
import Synchronization

/// `livepair-bench serve`'s derivative-job figures (issue 19): `pairs` Live Photos uploaded over
/// loopback from 8 clients to a server with its job worker on (the default), with the uploads'
/// p50 and p99; the time from the first upload until every job is done, in Live Photos per
/// minute, beside `livepair preview`'s rate for the same files (the loader in this process, one
/// Live Photo at a time, at the jobs' sizes); the cached `still.jpg` and `motion.mp4` GETs of the
/// drained library from 8 clients; then the grid's first `still.jpg` GET of each (a file the jobs
/// made) beside the same uploads and GETs on a server without jobs (the baseline), where each
/// first GET makes its still (the same files, the same run, printed side by side).
extension ServeBenchmark {
    /// Live Photos uploaded for the job figures (the 100).
    static let jobPairs = 100

    /// A server configuration for a benchmark library: `backgroundJobs` nil is the default worker.
    static func configuration(spool: String, backgroundJobs: Int?) -> ServerConfiguration {
        var configuration = ServerConfiguration(daemon: DaemonConfiguration(port: 0), spoolDirectory: spool)
        configuration.backgroundJobs = backgroundJobs
        return configuration
    }

    /// A server on a fresh library at `path` for the token `bench-token` (owner `bench`), uploads moved
    /// into the store; `backgroundJobs` nil is the default worker.
    static func benchServer(at path: String, backgroundJobs: Int?) throws -> (PhotoLibrary, LivePairServer) {
        let library = try PhotoLibrary.open(at: path)
        let server = try LivePairServer(
            library: library, ingestor: Ingestor(library: library, options: IngestOptions(uploadHandling: .move)),
            tokens: TokenStore(tokens: ["bench-token": "bench"]),
            derivatives: try DirectoryDerivativeCache(directory: library.directory + "/derivatives"),
            configuration: configuration(spool: library.directory + "/.serve/uploads", backgroundJobs: backgroundJobs))
        return (library, server)
    }

    /// Uploads the halves in `files` to `server` as bench-token from 8 loopback clients (upload IDs
    /// `prefix` and the index); a half counts when it is accepted or pending. With `named`, each
    /// carries its file name (`X-Original-Filename`).
    func uploadPairs(_ files: [String], to server: LivePairServer, prefix: String, named: Bool = true) -> UploadRun {
        upload(files, client: { LoopbackHTTPClient(port: server.port) }) { client, index in
            var headers = ["Authorization": "Bearer bench-token"]
            if named { headers["X-Original-Filename"] = (files[index] as NSString).lastPathComponent }
            let status = (try? client.send("PUT", "/v1/uploads/\(prefix)\(index)", headers: headers, file: files[index]).status) ?? 0
            return status == 201 || status == 202
        }
    }

    /// Runs the job figures; true when every job ended `done` and every GET answered 200.
    func runDerivativeJobs(root: String, pairs: Int) throws -> Bool {
        let (files, _) = try IngestBenchmark.makeUploads(pairs: pairs, samples: options.samples + "/live", into: root + "/jobs-uploads")
        defer { try? FileManager.default.removeItem(atPath: root + "/jobs-uploads") }
        var grids: [GetRun] = []
        var drained = true
        for withJobs in [true, false] {
            let (library, server) = try Self.benchServer(at: root + (withJobs ? "/library-jobs" : "/library-on-demand"), backgroundJobs: withJobs ? nil : 0)
            defer { server.stop() }
            let started = Date()
            // No file names: the corpus holds IMG_3582's render, whose name would make it an edit part.
            let uploads = uploadPairs(files, to: server, prefix: "jobs", named: false)
            let sorted = uploads.latencies.sorted()
            print(
                String(
                    format: "uploads, %@: %d Live Photos (%d files) from 8 clients in %.1f s, p50 %.1f ms, p99 %.1f ms (%d failed)",
                    withJobs ? "jobs on" : "jobs off (baseline)", pairs, files.count, uploads.seconds,
                    Self.percentile(sorted, 0.5) * 1000, Self.percentile(sorted, 0.99) * 1000, uploads.failures))
            let identifiers = try library.fetchAssets(with: FetchOptions(predicate: .livePhotos)).map(\.localIdentifier)
            if withJobs {
                var counts = try library.derivativeJobCounts()
                while counts[.queued, default: 0] + counts[.running, default: 0] > 0 {
                    usleep(20_000)
                    counts = try library.derivativeJobCounts()
                }
                let seconds = Date().timeIntervalSince(started)
                drained = counts[.done] == 3 * pairs && identifiers.count == pairs && uploads.failures == 0
                print(
                    String(
                        format: "derivative jobs: %d Live Photos uploaded in %.1f s, their %d jobs drained %.1f s after the first upload: %.1f Live Photos per minute (%d done, %d failed; %d media threads, %d of them for jobs)",
                        identifiers.count, uploads.seconds, 3 * pairs, seconds, Double(identifiers.count) * 60 / seconds,
                        counts[.done] ?? 0, counts[.failed] ?? 0, ProcessInfo.processInfo.activeProcessorCount,
                        max(1, ProcessInfo.processInfo.activeProcessorCount - 1)))
            }
            let paths = identifiers.map { "/v1/assets/\($0)/still.jpg" }
            grids.append(try timedGets(paths, port: server.port, total: paths.count, clients: Self.clients))
            if withJobs {
                let cachedStill = try timedGets(
                    identifiers.map { "/v1/assets/\($0)/still.jpg" }, port: server.port, total: 4000, clients: Self.clients)
                let cachedMotion = try timedGets(
                    identifiers.map { "/v1/assets/\($0)/motion.mp4" }, port: server.port, total: 1000, clients: Self.clients)
                print(
                    String(
                        format: "drained library, cached GETs (8 clients): still.jpg p50 %.2f ms p99 %.2f ms (target 10 ms) | motion.mp4 whole response p50 %.2f ms p99 %.2f ms (an upper bound of the time to first byte; target 50 ms) (%d and %d failed)",
                        cachedStill.p50 * 1000, cachedStill.p99 * 1000, cachedMotion.p50 * 1000, cachedMotion.p99 * 1000,
                        cachedStill.failures, cachedMotion.failures))
                drained = drained && cachedStill.failures == 0 && cachedMotion.failures == 0
                let preview = previewRate(files)
                print(
                    String(
                        format: "livepair preview, same files, one at a time (placeholder, still and motion at 1024): %.1f s: %.1f Live Photos per minute (%d failed)",
                        preview.seconds, Double(pairs - preview.failures) * 60 / preview.seconds, preview.failures))
            }
        }
        let (made, onDemand) = (grids[0], grids[1])
        print(
            String(
                format: "grid still.jpg, first GET of %d (8 clients): made by the jobs p50 %.2f ms p99 %.2f ms | made on demand p50 %.0f ms p99 %.0f ms (%d and %d failed)",
                pairs, made.p50 * 1000, made.p99 * 1000, onDemand.p50 * 1000, onDemand.p99 * 1000, made.failures, onDemand.failures))
        return drained && made.failures == 0 && onDemand.failures == 0
    }

    /// `livepair preview`'s work for each pair of `files`, one at a time: the
    /// loader's Live Photo at the jobs' box (1024), its placeholder, still and motion written.
    func previewRate(_ files: [String]) -> (seconds: Double, failures: Int) {
        let output = NSTemporaryDirectory() + "livepair-bench-preview-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let started = Date()
        var failures = 0
        // The corpus is shuffled; a pair's two files share the serial before the first '-' of their names.
        let pairs = Dictionary(grouping: files) { ($0 as NSString).lastPathComponent.split(separator: "-").first.map(String.init) ?? $0 }
            .values.map { $0.sorted { ($0 as NSString).pathExtension.lowercased() != "mov" && ($1 as NSString).pathExtension.lowercased() == "mov" } }
        for resources in pairs {
            let result = Mutex<(placeholder: PixelBuffer?, livePhoto: LivePhoto?)>((nil, nil))
            let done = DispatchSemaphore(value: 0)
            LivePhotoManager.default.requestLivePhoto(
                resourceFileURLs: resources, targetSize: PixelSize(width: 1024, height: 1024),
                options: ImageRequestOptions(deliveryMode: .opportunistic, isSynchronous: false)
            ) { event, info in
                result.withLock { result in
                    switch event {
                    case let .degraded(image)?: result.placeholder = image
                    case let .final(livePhoto)?: result.livePhoto = livePhoto
                    case nil: break
                    }
                }
                if info.isTerminal { done.signal() }
            }
            done.wait()
            let (placeholder, livePhoto) = result.withLock { $0 }
            let written = output + "/" + ((resources[0] as NSString).lastPathComponent as NSString).deletingPathExtension
            do {
                guard let livePhoto else { throw BenchmarkOptions.Invalid(description: "no Live Photo") }
                // The placeholder is written when the loader gave one, as `livepair preview` does.
                if let placeholder { try AtomicFileWriter.write(try placeholder.jpegData(quality: 90), to: written + "-placeholder.jpg") }
                let profile = StillColourProfile.iccProfile(ofStillAt: livePhoto.photoPath)
                try AtomicFileWriter.write(
                    try StillImageEncoder.jpeg(livePhoto.still, quality: 90, iccProfile: profile), to: written + "-still.jpg")
                _ = try livePhoto.writeMotionMovie(to: written + "-motion.mp4")
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("preview of \(resources): \(error)\n".utf8))
            }
        }
        return (Date().timeIntervalSince(started), failures)
    }
}
