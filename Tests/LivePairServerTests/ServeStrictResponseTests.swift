import Foundation
import Synchronization
import Testing
import TestSupport

/// Answers a real server once got wrong: a weak `If-None-Match`, a `Range` past 64 bits, a
/// non-ASCII or reordering file name, a `Content-Digest` of another algorithm, one upload ID for
/// different bytes.
@Suite(.serialized) struct ServeStrictResponseTests {
    /// A Live Photo of alice's whose still was uploaded as `filename`: the server, and the still's path.
    static func photo(named filename: String) throws -> (ServeProcess, HTTPClient, String) {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let pair = ServeHTTPTests.pairs[1]
        let encoded = try #require(filename.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        #expect(try client.upload(SampleMedia.path(pair.still), id: "s", token: "alice-token", headers: ["X-Original-Filename": encoded]).status == 202)
        let linked = try client.upload(SampleMedia.path(pair.movie), id: "m", token: "alice-token")
        let identifier = try #require((try linked.json()["asset"] as? [String: Any])?["id"] as? String)
        return (server, client, "/v1/assets/\(identifier)/resources/photo")
    }

    /// `If-None-Match: W/"etag"` (alone or in a list) is 304; another weak tag is 200. A `Range`
    /// whose numbers do not fit in 64 bits is 416, never the whole file.
    @Test func weakEntityTagsMatchAndOverflowingRangesAre416() throws {
        let (server, client, path) = try Self.photo(named: "IMG_3582.HEIC")
        let whole = try client.send("GET", path, token: "alice-token")
        #expect(whole.status == 200)
        let etag = try #require(whole.header("ETag"))
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        for match in ["W/\(etag)", "\"other\", W/\(etag)", etag] {
            #expect(try client.send("GET", path, token: "alice-token", headers: ["If-None-Match": match]).status == 304, "\(match)")
        }
        #expect(try client.send("GET", path, token: "alice-token", headers: ["If-None-Match": "W/\"other\""]).status == 200)
        let huge = "99999999999999999999"
        for range in ["bytes=\(huge)-", "bytes=0-\(huge)", "bytes=-\(huge)", "bytes=\(huge)-\(huge)"] {
            let answer = try client.send("GET", path, token: "alice-token", headers: ["Range": range])
            #expect(answer.status == 416, "\(range)")
            #expect(answer.header("Content-Range") == "bytes */\(whole.body.count)")
        }
        #expect(try client.send("GET", path, token: "alice-token", headers: ["Range": "bytes=0-9"]).body.count == 10)
        server.stop()
    }

    /// A non-ASCII name is sent as `filename*=UTF-8''…` (RFC 6266) beside an ASCII `filename`,
    /// with control and bidirectional characters removed.
    @Test func contentDispositionCarriesTheNameSafely() throws {
        let (server, client, path) = try Self.photo(named: "caf\u{E9}\u{202E}gpj.exe.HEIC")
        let answer = try client.send("GET", path, token: "alice-token")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Disposition") == "attachment; filename=\"caf_gpj.exe.HEIC\"; filename*=UTF-8''caf%C3%A9gpj.exe.HEIC")
        server.stop()
    }

    /// A `Content-Digest` naming only other algorithms is ignored, as docs/http.md says: the upload
    /// is taken; a wrong sha-256 beside them is still 400.
    @Test func contentDigestOfOtherAlgorithmsIsIgnored() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let still = SampleMedia.path(ServeHTTPTests.pairs[1].still)
        let other = "sha-512=:" + Data(repeating: 1, count: 64).base64EncodedString() + ":"
        #expect(try client.upload(still, id: "s", token: "alice-token", headers: ["Content-Digest": other]).status == 202)
        let wrong = other + ", sha-256=:" + Data(repeating: 7, count: 32).base64EncodedString() + ":"
        #expect(try client.upload(still, id: "t", token: "alice-token", headers: ["Content-Digest": wrong]).status == 400)
        server.stop()
    }

    /// Three concurrent PUTs of one upload ID with three different files: one is ingested, the two
    /// others get 409 carrying its answer, and only one upload is kept; later, the same ID with
    /// other bytes is 409 again, with the same bytes the first answer again.
    @Test func oneUploadIDForDifferentBytesIs409() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let pairs = Array(ServeHTTPTests.pairs[0..<3])
        let files = pairs.map { SampleMedia.path($0.still) }
        let answers = Mutex<[ClientResponse]>([])
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            if let answer = try? client.upload(files[index], id: "same", token: "alice-token") {
                answers.withLock { $0.append(answer) }
            }
        }
        let all = answers.withLock { $0 }
        #expect(all.count == 3)
        let first = try #require(all.first { $0.status != 409 })
        #expect(first.status == 202)
        let conflicts = all.filter { $0.status == 409 }
        #expect(conflicts.count == 2)
        let firstJSON = try first.json()
        for conflict in conflicts {
            let body = try conflict.json()
            #expect(body["outcome"] as? String == "conflict")
            #expect(body["uploadID"] as? String == "same")
            let carried = try #require(body["first"] as? [String: Any])
            #expect(carried["contentIdentifier"] as? String == firstJSON["contentIdentifier"] as? String)
            #expect(carried["outcome"] as? String == "pending")
        }
        #expect((try client.send("GET", "/v1/pending", token: "alice-token").json()["pending"] as? [Any])?.count == 1)
        let contentIdentifier = try #require(firstJSON["contentIdentifier"] as? String)
        let firstFile = files[try #require(pairs.firstIndex { $0.contentIdentifier == contentIdentifier }, "the kept file")]
        let otherFile = try #require(files.first { $0 != firstFile })
        #expect(try client.upload(otherFile, id: "same", token: "alice-token").status == 409)
        #expect(try client.upload(firstFile, id: "same", token: "alice-token").status == 202)
        #expect(try client.upload(otherFile, id: "same", token: "bob-token").status == 202, "another owner's ID is another ID")
        server.stop()
    }
}
