import Foundation
import Testing
import TestSupport

/// `livepair serve` as a real process over loopback, with the real sample pairs. Serialized: each
/// test runs its own server, and uploads of many megabytes at once would only slow each other.
@Suite(.serialized) struct ServeHTTPTests {
    /// The sample Live Photos (still, movie, content identifier from the manifest).
    static let pairs: [(still: String, movie: String, contentIdentifier: String)] = [
        "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg|live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov",
        "live/IMG_3582.HEIC|live/IMG_3582.mov", "live/IMG_3582_edited.heic|live/IMG_3582_edited.mov",
        "live/IMG_4580.HEIC|live/IMG_4580.mov", "live/train.jpg|live/train.mov",
    ].map { line in
        let parts = line.split(separator: "|").map(String.init)
        return (parts[0], parts[1], SampleMedia.entry(parts[0])?.contentIdentifier ?? "?")
    }

    /// 50 uploads (the five pairs for each of five owners) in a shuffled order from eight
    /// concurrent clients end in exactly five Live Photos per owner, each with its own halves.
    @Test func concurrentShuffledUploadsEndInTheRightAssets() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let owners = ServeProcess.tokens.sorted { $0.key < $1.key }
        var jobs: [(token: String, file: String, id: String)] = []
        for (ownerIndex, (token, _)) in owners.enumerated() {
            for (index, pair) in Self.pairs.enumerated() {
                jobs.append((token, pair.still, "o\(ownerIndex)-\(index)-still"))
                jobs.append((token, pair.movie, "o\(ownerIndex)-\(index)-movie"))
            }
        }
        var generator = SplitMix64(seed: 14)
        jobs.shuffle(using: &generator)
        let shuffled = jobs
        #expect(shuffled.count == 50)
        let statuses = StatusCollector()
        let next = NextIndex()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            while let index = next.take(below: shuffled.count) {
                let job = shuffled[index]
                // IMG_3582_edited.* under its own names would be IMG_3582's render and join that asset
                // (docs/editing.md, ServeEditTests); uploaded under neutral names it is a Live Photo of its own.
                let name = (job.file as NSString).lastPathComponent.replacingOccurrences(of: "_edited", with: "-render")
                let status =
                    (try? client.upload(
                        SampleMedia.path(job.file), id: job.id, token: job.token, headers: ["X-Original-Filename": name]).status) ?? -1
                statuses.add(status)
            }
        }
        let counts = statuses.counts()
        #expect(counts[201] == 25, "one accepted upload per pair and owner: \(counts)")
        #expect(counts[202] == 25, "one pending half per pair and owner: \(counts)")
        for (token, _) in owners {
            let page = try client.send("GET", "/v1/assets?limit=100", token: token).json()
            let assets = try #require(page["assets"] as? [[String: Any]])
            #expect(page["total"] as? Int == 5)
            #expect(Set(assets.compactMap { $0["contentIdentifier"] as? String }) == Set(Self.pairs.map(\.contentIdentifier)))
            for asset in assets {
                #expect(asset["isLivePhoto"] as? Bool == true)
                let resources = try #require(asset["resources"] as? [[String: Any]])
                let pair = try #require(Self.pairs.first { $0.contentIdentifier == asset["contentIdentifier"] as? String })
                let digests = Dictionary(
                    uniqueKeysWithValues: resources.map { ($0["type"] as? String ?? "", $0["digest"] as? String ?? "") })
                #expect(digests["photo"] == SampleMedia.entry(pair.still)?.sha256)
                #expect(digests["pairedVideo"] == SampleMedia.entry(pair.movie)?.sha256)
                // The key photo's time, which the <live-photo> element seeks to (docs/web.md).
                let stillTime = try #require(asset["stillImageTime"] as? Double, "no stillImageTime for \(pair.movie)")
                #expect(abs(stillTime - (SampleMedia.entry(pair.movie)?.stillImageTime ?? -1)) < 0.001, "\(pair.movie): \(stillTime)")
            }
            let pending = try client.send("GET", "/v1/pending", token: token).json()
            #expect((pending["pending"] as? [Any])?.isEmpty == true)
        }
        #expect(server.spoolFiles().isEmpty)
        let requestLines = server.logLines().filter { $0["message"] as? String == "request" && $0["route"] as? String == "/v1/uploads/{uploadID}" }
        #expect(requestLines.count == 50)
        #expect(!server.logText.contains("alice-token") && !server.logText.contains("\"alice\""))
        #expect(server.stop() == 0)
    }

    /// Retries with the same upload ID get the same answer; the same bytes under another ID are a
    /// duplicate; a wrong Content-Digest stores nothing; a right one is accepted.
    @Test func retriesAndContentDigests() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let pair = Self.pairs[1]
        let still = SampleMedia.path(pair.still), movie = SampleMedia.path(pair.movie)
        let wrong = "sha-256=:" + Data(repeating: 7, count: 32).base64EncodedString() + ":"
        let refused = try client.upload(still, id: "s1", token: "alice-token", headers: ["Content-Digest": wrong])
        #expect(refused.status == 400)
        #expect((try client.send("GET", "/v1/pending", token: "alice-token").json()["pending"] as? [Any])?.isEmpty == true)
        let digest = "sha-256=:" + Data(hexString: try #require(SampleMedia.entry(pair.still)?.sha256)).base64EncodedString() + ":"
        let first = try client.upload(still, id: "s1", token: "alice-token", headers: ["Content-Digest": digest])
        #expect(first.status == 202)
        #expect(try first.json()["contentIdentifier"] as? String == pair.contentIdentifier)
        let again = try client.upload(still, id: "s1", token: "alice-token")
        #expect(again.status == 202)
        let linked = try client.upload(movie, id: "m1", token: "alice-token")
        #expect(linked.status == 201)
        let asset = try #require(try linked.json()["asset"] as? [String: Any])
        let identifier = try #require(asset["id"] as? String)
        let retried = try client.upload(movie, id: "m1", token: "alice-token")
        #expect(retried.status == 201)
        #expect((try retried.json()["asset"] as? [String: Any])?["id"] as? String == identifier)
        let duplicate = try client.upload(movie, id: "m2", token: "alice-token")
        #expect(duplicate.status == 200)
        #expect(try duplicate.json()["outcome"] as? String == "duplicate")
        #expect(try client.send("GET", "/v1/assets", token: "alice-token").json()["total"] as? Int == 1)
        let broken = try client.upload(SampleMedia.path("broken/NegativeArraySizeException.HeifReader.processBoxes.heif"), id: "b1", token: "alice-token")
        #expect(broken.status == 422)
        let findings = try #require(try broken.json()["findings"] as? [[String: Any]])
        #expect(findings.first?["code"] as? String == "corrupt-file")
        let metrics = String(decoding: try client.send("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("livepair_uploads_total{outcome=\"accepted\"} 2"))
        #expect(metrics.contains("livepair_uploads_total{outcome=\"rejected\"} 1"))
        let decisions = server.logLines().filter { $0["label"] as? String == "livepair.ingestor" }
        #expect(decisions.contains { $0["outcome"] as? String == "accepted" && $0["asset"] as? String == identifier })
        server.stop()
    }
}

/// Hands out indexes to concurrent workers.
final class NextIndex: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var value = 0
    func take(below count: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < count else { return nil }
        value += 1
        return value - 1
    }
}

/// Collects status codes from concurrent workers.
final class StatusCollector: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var statuses: [Int] = []
    func add(_ status: Int) {
        lock.lock()
        statuses.append(status)
        lock.unlock()
    }
    func counts() -> [Int: Int] {
        lock.lock()
        defer { lock.unlock() }
        return statuses.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }
}

extension Data {
    /// Bytes from hex digits.
    init(hexString: String) {
        var bytes: [UInt8] = []
        var index = hexString.startIndex
        while index < hexString.endIndex, let next = hexString.index(index, offsetBy: 2, limitedBy: hexString.endIndex) {
            bytes.append(UInt8(hexString[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }
}
