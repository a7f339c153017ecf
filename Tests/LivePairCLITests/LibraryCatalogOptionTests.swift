import Foundation
import TestSupport
import Testing

@Suite("library commands on a PostgreSQL catalog: --catalog/--store and LIVEPAIR_CATALOG/LIVEPAIR_STORE")
struct LibraryCatalogOptionTests {
    @Test("init, import, list and delete with --catalog and --store; the same through the environment")
    func catalogAndStoreOptions() throws {
        let catalog = try PostgresTestServer.freshSchemaURL()
        let workspace = try SampleVariants.Workspace()
        let store = workspace.url.appendingPathComponent("store").path
        let options = ["--catalog", catalog, "--store", store]

        // Before init: refused with exit 1, and the reason.
        let early = try LivePairBinary.run(["import", "--owner", "alice", SampleMedia.path("live/train.jpg")] + options)
        #expect(early.status == 1)
        #expect(early.error.contains("livepair library init"), "\(early.error)")

        let created = try LivePairBinary.run(["library", "init", "--json"] + options)
        #expect(created.status == 0, "\(created.error)")
        let createdJSON = try LivePairBinary.json(created.output)
        #expect(createdJSON["created"] as? Bool == true)
        #expect(createdJSON["changeSequence"] as? Int == 0)

        let imported = try LivePairBinary.run(
            ["import", "--owner", "alice", "--json", SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov")] + options)
        #expect(imported.status == 0, "\(imported.error)")
        let summary = try #require(try LivePairBinary.json(imported.output)["summary"] as? [String: Any])
        #expect(summary["imported"] as? Int == 2)

        // The same library through LIVEPAIR_CATALOG and LIVEPAIR_STORE.
        let environment = ["LIVEPAIR_CATALOG": catalog, "LIVEPAIR_STORE": store]
        let list = try LivePairBinary.run(["library", "list", "--json"], environment: environment)
        #expect(list.status == 0, "\(list.error)")
        let assets = try #require(try LivePairBinary.json(list.output)["assets"] as? [[String: Any]])
        #expect(assets.count == 1)
        #expect(assets.first?["contentIdentifier"] as? String == "E905E6C6-C747-4805-942F-9904A0281F02")
        let identifier = try #require(assets.first?["localIdentifier"] as? String)
        let stored = try FileManager.default.subpathsOfDirectory(atPath: store).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: store + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        // The two resource files, and the store's identity marker written by init.
        #expect(stored.count == 3, "\(stored)")
        #expect(stored.contains(".library"), "\(stored)")

        let deleted = try LivePairBinary.run(["library", "delete", identifier, "--json"], environment: environment)
        #expect(deleted.status == 0, "\(deleted.error)")
        #expect(try LivePairBinary.json(deleted.output)["deleted"] as? [String] == [identifier])
        let empty = try LivePairBinary.run(["library", "list", "--json"] + options)
        #expect(try LivePairBinary.json(empty.output)["count"] as? Int == 0)
    }

    @Test("--library with --catalog, a lone --catalog, and an unknown store scheme are usage errors (64)")
    func usageErrors() throws {
        let both = try LivePairBinary.run(["library", "list", "--library", "/tmp/x", "--catalog", "postgresql://u@/d"])
        #expect(both.status == 64)
        #expect(both.error.contains("not both"), "\(both.error)")
        let lone = try LivePairBinary.run(["library", "list", "--catalog", "postgresql://u@/d"], environment: ["LIVEPAIR_STORE": ""])
        #expect(lone.status == 64)
        #expect(lone.error.contains("Missing expected option '--store <url>'"), "\(lone.error)")
        let s3 = try LivePairBinary.run(["library", "list", "--catalog", "postgresql://u@/d", "--store", "ftp://host/x"])
        #expect(s3.status == 64)
        #expect(s3.error.contains("Unsupported store 'ftp://host/x'"), "\(s3.error)")
    }
}
