import Foundation
import Synchronization
import Testing
import TestSupport

/// Two `livepair serve` processes on one real PostgreSQL catalog and one directory store are one
/// service (`--catalog URL --store DIR`).
@Suite(.serialized) struct ServeMultiNodeTests {
    /// A shared library: a fresh PostgreSQL schema and a store directory, created with `library init`.
    static func sharedLibrary() throws -> (arguments: [String], store: String) {
        let catalog = try PostgresTestServer.freshSchemaURL()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-nodes-\(UUID().uuidString)").path
        let arguments = ["--catalog", catalog, "--store", store]
        let created = try LivePairBinary.run(["library", "init"] + arguments)
        #expect(created.status == 0, "\(created.error)")
        return (arguments, store)
    }

    /// The still uploaded to node 1 stays pending; its movie uploaded to node 2 links both into
    /// one Live Photo that node 1 serves; node 1's event stream and long poll report node 2's
    /// commit; a derivative node 1 made is read from the shared store by node 2 (not made again).
    @Test func twoNodesOnOneCatalogAreOneService() throws {
        let (arguments, store) = try Self.sharedLibrary()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let first = try ServeProcess(libraryArguments: arguments)
        let second = try ServeProcess(libraryArguments: arguments)
        let one = HTTPClient(base: first.base), two = HTTPClient(base: second.base)
        let pair = ServeHTTPTests.pairs[1]

        let events = try EventStreamClient(port: first.port, token: "alice-token")
        let ready = try #require(events.next(timeout: 600), "no ready event on node 1")
        #expect(ready.name == "ready")
        let since = try #require(ready.id)
        let waiter = ResponseBox()
        let waited = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            waiter.response = try? one.send("GET", "/v1/changes?since=\(since)&timeout=20", token: "alice-token")
            waited.signal()
        }

        let pending = try one.upload(SampleMedia.path(pair.still), id: "still-1", token: "alice-token")
        #expect(pending.status == 202)
        #expect(try pending.json()["contentIdentifier"] as? String == pair.contentIdentifier)
        let pendingOnTwo = try two.send("GET", "/v1/pending", token: "alice-token").json()
        #expect((pendingOnTwo["pending"] as? [[String: Any]])?.count == 1, "node 2 sees node 1's pending half: \(pendingOnTwo)")
        let linked = try two.upload(SampleMedia.path(pair.movie), id: "movie-1", token: "alice-token")
        #expect(linked.status == 201)
        let asset = try #require(try linked.json()["asset"] as? [String: Any])
        let identifier = try #require(asset["id"] as? String)
        #expect(asset["isLivePhoto"] as? Bool == true)

        let change = try #require(events.next(timeout: 600), "node 1's event stream did not report node 2's commit")
        #expect(change.name == "change")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(change.data.utf8)) as? [String: Any])
        #expect(body["inserted"] as? [String] == [identifier])
        #expect(waited.wait(timeout: .now() + 25) == .success)
        #expect(try waiter.response?.json()["inserted"] as? [String] == [identifier])

        let onOne = try one.send("GET", "/v1/assets/\(identifier)", token: "alice-token")
        #expect(onOne.status == 200)
        #expect(try one.send("GET", "/v1/assets/\(identifier)", token: "bob-token").status == 404)
        let original = try one.send("GET", "/v1/assets/\(identifier)/resources/pairedVideo", token: "alice-token")
        #expect(original.status == 200)
        #expect(original.body == FileManager.default.contents(atPath: SampleMedia.path(pair.movie)))

        let still = try one.send("GET", "/v1/assets/\(identifier)/still.jpg?size=128", token: "alice-token")
        #expect(still.status == 200)
        let again = try two.send("GET", "/v1/assets/\(identifier)/still.jpg?size=128", token: "alice-token")
        #expect(again.status == 200)
        #expect(again.body == still.body)
        #expect(again.header("ETag") == still.header("ETag"))
        let metricsOne = String(decoding: try one.send("GET", "/metrics").body, as: UTF8.self)
        let metricsTwo = String(decoding: try two.send("GET", "/metrics").body, as: UTF8.self)
        #expect(metricsOne.contains("livepair_derivatives_made_total 1\n"))
        #expect(metricsTwo.contains("livepair_derivatives_made_total 0\n"), "node 2 made the still again")

        #expect(first.stop() == 0)
        #expect(second.stop() == 0)
    }

    /// One upload ID with two different files, sent at once to the two nodes: one is ingested, the
    /// other gets 409 carrying its answer (the ID is checked in the ingest transaction, so the two
    /// nodes cannot both take it), in three rounds; later either file again gets the same answers.
    @Test func oneUploadIDOnTwoNodesIs409() throws {
        let (arguments, store) = try Self.sharedLibrary()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let first = try ServeProcess(libraryArguments: arguments)
        let second = try ServeProcess(libraryArguments: arguments)
        let clients = [HTTPClient(base: first.base), HTTPClient(base: second.base)]
        for round in [0, 1, 3] {  // not pairs[2], IMG_3582's render: by its name, an edit part
            let pair = ServeHTTPTests.pairs[round]
            let files = [pair.still, pair.movie].map(SampleMedia.path)
            let answers = Mutex<[Int: ClientResponse]>([:])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if let answer = try? clients[index].upload(files[index], id: "same-\(round)", token: "alice-token") {
                    answers.withLock { $0[index] = answer }
                }
            }
            let all = answers.withLock { $0 }
            #expect(all.values.map(\.status).sorted() == [202, 409], "round \(round): \(all.values.map(\.status))")
            let kept = try #require(all.first { $0.value.status == 202 })
            let conflict = try #require(all.first { $0.value.status == 409 })
            let body = try conflict.value.json()
            #expect(body["outcome"] as? String == "conflict" && body["uploadID"] as? String == "same-\(round)")
            let carried = try #require(body["first"] as? [String: Any])
            #expect(carried["contentIdentifier"] as? String == pair.contentIdentifier)
            #expect(try kept.value.json()["contentIdentifier"] as? String == pair.contentIdentifier)
            // Either file again, on the other node: the refused one 409 again, the kept one its answer.
            #expect(try clients[kept.key].upload(files[conflict.key], id: "same-\(round)", token: "alice-token").status == 409)
            #expect(try clients[conflict.key].upload(files[kept.key], id: "same-\(round)", token: "alice-token").status == 202)
        }
        let pending = try clients[0].send("GET", "/v1/pending", token: "alice-token").json()["pending"] as? [[String: Any]]
        #expect(pending?.count == 3, "one upload kept per ID")
        #expect(first.stop() == 0)
        #expect(second.stop() == 0)
    }

    /// Without `library init` the multi-node form refuses to start (exit 1, the reason named)
    /// and creates nothing.
    @Test func aMissingCatalogIsRefused() throws {
        let catalog = try PostgresTestServer.freshSchemaURL()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-nodes-\(UUID().uuidString)").path
        let tokens = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)").path
        try "t alice\n".write(toFile: tokens, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: tokens) }
        let result = try LivePairBinary.run(
            ["serve", "--catalog", catalog, "--store", store, "--tokens", tokens, "--listen", "127.0.0.1:0"])
        #expect(result.status == 1)
        #expect(result.error.contains("livepair library init"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
