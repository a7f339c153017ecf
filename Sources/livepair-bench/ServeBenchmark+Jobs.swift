import Foundation
import LivePairLibrary
import LivePairServer

/// `livepair-bench serve`'s derivative-job figures: `pairs` Live Photos uploaded over loopback to
/// a server with its job worker on (the default), the time from the first upload until every job
/// is done, in Live Photos per minute; then the grid's first `still.jpg` GET of each of them (a
/// file the jobs made) beside the same GETs on a server without jobs, where each first GET makes
/// its still (the same files, the same run, printed side by side).
extension ServeBenchmark {
    /// Live Photos uploaded for the job figures.
    static let jobPairs = 16

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
    /// `prefix` and the index); a half counts when it is accepted or pending.
    func uploadPairs(_ files: [String], to server: LivePairServer, prefix: String) -> UploadRun {
        upload(files, client: { LoopbackHTTPClient(port: server.port) }) { client, index in
            let status = (try? client.send(
                "PUT", "/v1/uploads/\(prefix)\(index)",
                headers: ["Authorization": "Bearer bench-token", "X-Original-Filename": (files[index] as NSString).lastPathComponent],
                file: files[index]).status) ?? 0
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
            let uploads = uploadPairs(files, to: server, prefix: "jobs")
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
        }
        let (made, onDemand) = (grids[0], grids[1])
        print(
            String(
                format: "grid still.jpg, first GET of %d (8 clients): made by the jobs p50 %.2f ms p99 %.2f ms | made on demand p50 %.0f ms p99 %.0f ms (%d and %d failed)",
                pairs, made.p50 * 1000, made.p99 * 1000, onDemand.p50 * 1000, onDemand.p99 * 1000, made.failures, onDemand.failures))
        return drained && made.failures == 0 && onDemand.failures == 0
    }
}
