import Foundation
import Testing
import TestSupport

/// Issue 19, "media work is bounded": derivative sizes snap to a few steps, the motion movie
/// streams its frames through the encoder, and the server's memory stays within the issue's
/// bounds (the server process's VmHWM from /proc).
@Suite struct ServeDerivativeBoundsTests {
    /// The 4032x3024 Live Photo with its 1920x1440 HEVC movie.
    static let livePhoto = ServeHTTPTests.pairs[1]

    /// One `motion.mp4` at the largest size peaks under 300 MB; twelve concurrent requests at
    /// sizes 2000 to 2011 are that same file (the movie is 1920x1440: a size from 1920 up is its
    /// own size, whatever the 4032x3024 still's), and the server stays under 1.5 GB; `size=1024`
    /// is a file of its own. Stills at 100, 256, 257 and 3000 px are the 256, 512 and full-size
    /// files. (About 20 s in a debug build: a full-size motion movie is encoded, which is what the
    /// issue measures.)
    @Test func sizesSnapAndMotionStreams() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let identifier = try ServeHTTPTests.uploadPair(Self.livePhoto, token: "alice-token", client: client)
        let full = try client.send("GET", "/v1/assets/\(identifier)/motion.mp4?size=4096", token: "alice-token")
        #expect(full.status == 200)
        #expect(String(decoding: full.body[4..<8], as: UTF8.self) == "ftyp")
        let afterOne = try Self.peakMemory(of: server)
        #expect(afterOne <= 300 << 20, "one full-size motion.mp4 peaked at \(afterOne >> 20) MB")

        let twelve = (2000...2011).map { size in
            JoinedThread { try? client.send("GET", "/v1/assets/\(identifier)/motion.mp4?size=\(size)", token: "alice-token") }
        }.map { $0.wait() }
        #expect(twelve.map { $0?.status ?? -1 } == Array(repeating: 200, count: 12))
        #expect(Set(twelve.map { $0?.body ?? Data() }) == [full.body], "sizes 2000-2011 are the movie's full size")
        #expect(Set(twelve.compactMap { $0?.header("ETag") }) == Set([full.header("ETag")].compactMap { $0 }))
        let afterTwelve = try Self.peakMemory(of: server)
        #expect(afterTwelve <= 1536 << 20, "twelve concurrent motion.mp4 peaked at \(afterTwelve >> 20) MB")

        let smaller = try client.send("GET", "/v1/assets/\(identifier)/motion.mp4?size=1024", token: "alice-token")
        #expect(smaller.status == 200 && smaller.body != full.body)
        for size in [100, 256, 257, 3000] {
            #expect(try client.send("GET", "/v1/assets/\(identifier)/still.jpg?size=\(size)", token: "alice-token").status == 200)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: server.library + "/derivatives")
            .filter { !$0.hasPrefix(".") }.map { String($0.split(separator: "-").dropFirst(2).joined(separator: "-")) }
        #expect(Set(files) == ["motion-full.mp4", "motion-1024.mp4", "still-256.jpg", "still-512.jpg", "still-full.jpg"])
        let metrics = String(decoding: try client.send("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("livepair_derivatives_made_total 5\n"))
        #expect(server.stop() == 0)
    }

    /// With one media thread and room for one waiting request, five concurrent requests for five
    /// motion sizes get 503s with `Retry-After` at once for all but the one being made and the one
    /// waiting; the refusals are counted in /metrics; a refused
    /// one asked again later is made.
    @Test func aFullMediaQueueAnswers503WithRetryAfter() throws {
        let server = try ServeProcess(["--media-workers", "1", "--media-queue", "1"])
        let client = HTTPClient(base: server.base)
        let identifier = try ServeHTTPTests.uploadPair(ServeHTTPTests.pairs[4], token: "alice-token", client: client)
        let sizes = [256, 512, 1024, 2048, 4096]
        let threads = sizes.map { size in
            JoinedThread { try? client.send("GET", "/v1/assets/\(identifier)/motion.mp4?size=\(size)", token: "alice-token") }
        }
        var answered: [Int: ClientResponse] = [:]
        for (size, thread) in zip(sizes, threads) { answered[size] = thread.wait() }
        // One is made, one waits; the rest are refused, unless a request thread the machine started
        // late arrives after a movie was done (the test cannot hold the media thread busy).
        let statuses = answered.values.map(\.status)
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
        let refused = answered.filter { $0.value.status == 503 }
        #expect((1...3).contains(refused.count), "\(statuses)")
        for response in refused.values {
            #expect((Int(response.header("Retry-After") ?? "") ?? 0) >= 1, "\(response.headers)")
        }
        let metrics = String(decoding: try client.send("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("livepair_media_rejected_total \(refused.count)\n"))
        #expect(metrics.contains("livepair_media_workers 1\n"))
        let size = try #require(refused.keys.first)
        #expect(try client.send("GET", "/v1/assets/\(identifier)/motion.mp4?size=\(size)", token: "alice-token").status == 200)
        #expect(server.stop() == 0)
    }

    /// `LIVEPAIR_DERIVATIVE_CACHE_MAX` bounds the library's derivative folder like the S3 cache:
    /// past the limit the least recently used derivative goes, and is made again when asked for.
    @Test func derivativeFolderIsBoundedLeastRecentlyUsedFirst() throws {
        let server = try ServeProcess(environment: ["LIVEPAIR_DERIVATIVE_CACHE_MAX": "1K"])
        let client = HTTPClient(base: server.base)
        let identifier = try ServeHTTPTests.uploadPair(ServeHTTPTests.pairs[0], token: "alice-token", client: client)
        let small = try client.send("GET", "/v1/assets/\(identifier)/still.jpg?size=256", token: "alice-token")
        #expect(small.status == 200)
        let folder = server.library + "/derivatives"
        func derivatives() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        }
        let first = try #require(try derivatives().first)
        #expect(first.hasSuffix("-still-256.jpg"))
        // Unused for two minutes (past the minute of grace a copy just handed out keeps).
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: folder + "/" + first)
        #expect(try client.send("GET", "/v1/assets/\(identifier)/still.jpg?size=512", token: "alice-token").status == 200)
        let left = try derivatives()
        #expect(left.count == 1 && left.first?.hasSuffix("-still-512.jpg") == true, "\(left)")
        let again = try client.send("GET", "/v1/assets/\(identifier)/still.jpg?size=256", token: "alice-token")
        #expect(again.body == small.body)
        let metrics = String(decoding: try client.send("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("livepair_derivatives_made_total 3\n"), "the removed still made again")
        #expect(server.stop() == 0)
    }

    /// The server process's peak resident memory (VmHWM) in bytes.
    static func peakMemory(of server: ServeProcess) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? ""))
        return kilobytes << 10
    }
}
