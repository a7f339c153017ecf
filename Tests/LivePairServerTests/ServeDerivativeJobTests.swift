import Foundation
import Testing
import TestSupport

/// Issue 19, "derivatives made before they are asked for", against real `livepair serve`
/// processes: an accepted upload's derivatives are made in the background, `/metrics` counts the
/// jobs by state, the first GET is a cache read, deleting the asset removes its jobs; two nodes on
/// one PostgreSQL catalog share the jobs and make each derivative once.
@Suite(.serialized) struct ServeDerivativeJobTests {
    /// The value of `name` in the `/metrics` text (-1 when absent).
    static func metric(_ text: String, _ name: String) -> Int {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(line.dropFirst(name.count + 1)) ?? -1
        }
        return -1
    }

    static func metrics(_ client: HTTPClient) throws -> String {
        String(decoding: try client.send("GET", "/metrics").body, as: UTF8.self)
    }

    /// Waits until some `/metrics` of `clients` counts `done` finished jobs (a bounded wait for the
    /// background work, not a timing assertion), and returns the last text of each. The bound only
    /// stops a hang: 180 s ran out on a machine loaded 15 times over its cores, with the jobs
    /// progressing.
    static func waitForJobs(_ clients: [HTTPClient], done: Int) throws -> [String] {
        let deadline = Date().addingTimeInterval(900)
        while true {
            let texts = try clients.map(metrics)
            let finished = metric(texts[0], #"livepair_derivative_jobs{state="done"}"#)
                + metric(texts[0], #"livepair_derivative_jobs{state="failed"}"#)
            if finished >= done || Date() > deadline { return texts }
            usleep(200_000)
        }
    }

    @Test func anUploadsDerivativesAreMadeInTheBackgroundAndDeletingItRemovesItsJobs() throws {
        let server = try ServeProcess(["--background-jobs", "1", "--media-workers", "2"])
        let client = HTTPClient(base: server.base)
        let pair = ServeHTTPTests.pairs[4]  // train.jpg (4032x3024) and train.mov
        #expect(try client.upload(SampleMedia.path(pair.still), id: "still", token: "alice-token").status == 202)
        let linked = try client.upload(SampleMedia.path(pair.movie), id: "movie", token: "alice-token")
        #expect(linked.status == 201)
        let identifier = try #require((try linked.json()["asset"] as? [String: Any])?["id"] as? String)

        let text = try #require(try Self.waitForJobs([client], done: 3).first)
        #expect(Self.metric(text, #"livepair_derivative_jobs{state="done"}"#) == 3, "\(text)")
        #expect(Self.metric(text, #"livepair_derivative_jobs{state="queued"}"#) == 0)
        #expect(Self.metric(text, #"livepair_derivative_jobs{state="running"}"#) == 0)
        #expect(Self.metric(text, #"livepair_derivative_jobs{state="failed"}"#) == 0)
        #expect(Self.metric(text, "livepair_derivatives_made_total") == 3)
        let kinds = try FileManager.default.contentsOfDirectory(atPath: server.library + "/derivatives")
            .filter { !$0.hasPrefix(".") }.map { $0.split(separator: "-").dropFirst(2).joined(separator: "-") }.sorted()
        #expect(kinds == ["motion-1024.mp4", "placeholder.jpg", "still-1024.jpg"])

        // The grid's first look, the placeholder and the hover: read from the cache, nothing made.
        for path in ["still.jpg", "placeholder.jpg", "motion.mp4"] {
            #expect(try client.send("GET", "/v1/assets/\(identifier)/\(path)", token: "alice-token").status == 200)
        }
        #expect(Self.metric(try Self.metrics(client), "livepair_derivatives_made_total") == 3, "served from what the jobs made")

        #expect(try client.send("DELETE", "/v1/assets/\(identifier)", token: "alice-token").status == 204)
        let after = try Self.metrics(client)
        #expect(Self.metric(after, #"livepair_derivative_jobs{state="done"}"#) == 0, "the asset's jobs went with it")
        #expect(server.stop() == 0)
    }

    /// Two nodes on one PostgreSQL catalog and store, each with a job worker: two Live Photos
    /// uploaded, one to each, have their six jobs done and each derivative made exactly once
    /// across both nodes.
    @Test func nodesOnOneCatalogShareTheJobs() throws {
        let (arguments, store) = try ServeMultiNodeTests.sharedLibrary()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let first = try ServeProcess(["--background-jobs", "1", "--media-workers", "2"], libraryArguments: arguments)
        let second = try ServeProcess(["--background-jobs", "1", "--media-workers", "2"], libraryArguments: arguments)
        let one = HTTPClient(base: first.base), two = HTTPClient(base: second.base)
        for (index, (client, pair)) in [(one, ServeHTTPTests.pairs[4]), (two, ServeHTTPTests.pairs[0])].enumerated() {
            #expect(try client.upload(SampleMedia.path(pair.still), id: "still-\(index)", token: "alice-token").status == 202)
            #expect(try client.upload(SampleMedia.path(pair.movie), id: "movie-\(index)", token: "alice-token").status == 201)
        }
        let texts = try Self.waitForJobs([one, two], done: 6)
        #expect(Self.metric(texts[0], #"livepair_derivative_jobs{state="done"}"#) == 6, "\(texts[0])")
        #expect(Self.metric(texts[1], #"livepair_derivative_jobs{state="done"}"#) == 6, "both nodes count the shared table")
        let made = texts.map { Self.metric($0, "livepair_derivatives_made_total") }
        #expect(made.reduce(0, +) == 6, "each derivative made once across the nodes: \(made)")
        #expect(first.stop() == 0 && second.stop() == 0)
    }

    /// Issue 23: a plain HEVC video (IMG_3582.mov settled alone: its still never came) gets its
    /// three jobs done, the motion job making `playback.mp4`, an upright H.264 + AAC MP4 whose
    /// longer side is snapped (720 up to 1024: 768x1024 for the 1920x1440 movie turned a quarter by
    /// its track matrix) and which lasts as long
    /// as the original, within one frame (ffprobe). The listing links it; the first GET is a cache
    /// read; a plain video has no `motion.mp4`.
    @Test func aPlainHEVCVideoGetsAPlayableCopyInTheBackground() throws {
        let server = try ServeProcess(["--background-jobs", "1", "--media-workers", "2"])
        let client = HTTPClient(base: server.base)
        let movie = SampleMedia.path("live/IMG_3582.mov")
        try DatedPhotos.importFiles([movie], library: server.library)
        try DatedPhotos.settlePending(library: server.library)

        let text = try #require(try Self.waitForJobs([client], done: 3).first)
        #expect(Self.metric(text, #"livepair_derivative_jobs{state="done"}"#) == 3, "\(text)\n\(server.logText.suffix(2000))")
        #expect(Self.metric(text, #"livepair_derivative_jobs{state="failed"}"#) == 0)
        let list = try client.send("GET", "/v1/assets", token: "alice-token").json()
        let asset = try #require((list["assets"] as? [[String: Any]])?.first)
        let identifier = try #require(asset["id"] as? String)
        let links = try #require(asset["links"] as? [String: Any])
        #expect(asset["mediaType"] as? String == "video")
        #expect(links["playback"] as? String == "/v1/assets/\(identifier)/playback.mp4")
        #expect(links["motion"] == nil)
        #expect((asset["derivativeFailures"] as? [Any])?.isEmpty == true)

        let playback = try client.send("GET", "/v1/assets/\(identifier)/playback.mp4", token: "alice-token")
        #expect(playback.status == 200)
        #expect(playback.header("Content-Type") == "video/mp4")
        #expect(Self.metric(try Self.metrics(client), "livepair_derivatives_made_total") == 3, "served from what the job made")
        #expect(try client.send("GET", "/v1/assets/\(identifier)/motion.mp4", token: "alice-token").status == 404)
        let copy = server.directory + "/playback.mp4"
        try playback.body.write(to: URL(fileURLWithPath: copy))

        let streams = try ReferenceTool.ffprobeStreams(copy)
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        #expect(video["codec_name"] as? String == "h264")
        #expect(video["width"] as? Int == 768 && video["height"] as? Int == 1024, "upright: the movie's track turns it a quarter")
        #expect(streams.first { $0["codec_type"] as? String == "audio" }?["codec_name"] as? String == "aac")
        let original = try #require(try ReferenceTool.ffprobeStreams(movie).first { $0["codec_type"] as? String == "video" })
        #expect(original["codec_name"] as? String == "hevc")
        let duration = try #require(Double(video["duration"] as? String ?? ""))
        let originalDuration = try #require(Double(original["duration"] as? String ?? ""))
        let frame = originalDuration / (try #require(Double(original["nb_frames"] as? String ?? "")))  // 55 frames
        #expect(abs(duration - originalDuration) <= frame, "\(duration) s against the original's \(originalDuration) s")
        print("playback.mp4 of IMG_3582.mov: \(duration) s, the original \(originalDuration) s, one frame \(frame) s")
        #expect(server.stop() == 0)
    }
}
