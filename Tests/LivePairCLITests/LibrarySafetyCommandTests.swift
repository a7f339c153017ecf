import Foundation
import TestSupport
import Testing

/// `livepair library init|pending|settle`, and libraries whose catalog is missing, empty or
/// foreign, end to end through the executable.
@Suite("livepair library: creation rules, pending halves, settling")
struct LibrarySafetyCommandTests {
    /// The files in a library's store (shard/name), without the marker and temporary files.
    private func storedFiles(_ library: String) throws -> Set<String> {
        let resources = library + "/resources"
        var files: Set<String> = []
        for shard in try FileManager.default.contentsOfDirectory(atPath: resources) where shard.count == 2 {
            for name in try FileManager.default.contentsOfDirectory(atPath: resources + "/" + shard) { files.insert(shard + "/" + name) }
        }
        return files
    }

    /// A library with one Live Photo (two files), made by an import into a new directory.
    private func populatedLibrary(_ workspace: SampleVariants.Workspace) throws -> String {
        let library = workspace.url.appendingPathComponent("library").path
        let inbox = workspace.url.appendingPathComponent("inbox")
        try workspace.copy("live/train.jpg", as: "inbox/train.jpg")
        try workspace.copy("live/train.mov", as: "inbox/train.mov")
        let run = try LivePairBinary.run(["import", "--library", library, inbox.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(try storedFiles(library).count == 2)
        return library
    }

    @Test("an empty catalog: list and import refuse (exit 1) and delete nothing")
    func emptyCatalogIsRefused() throws {
        let workspace = try SampleVariants.Workspace()
        let library = try populatedLibrary(workspace)
        let stored = try storedFiles(library)
        #expect(FileManager.default.createFile(atPath: library + "/catalog.sqlite", contents: Data()))
        let list = try LivePairBinary.run(["library", "list", "--library", library])
        #expect(list.status == 1)
        #expect(list.output.isEmpty)
        #expect(list.error == "Error: \(library): not a usable LivePair library: its catalog is empty; nothing was changed\n")
        let photo = try workspace.copy("plain/pixel_8.jpg", as: "more/pixel_8.jpg")
        let importRun = try LivePairBinary.run(["import", "--library", library, photo])
        #expect(importRun.status == 1)
        #expect(importRun.error.contains("its catalog is empty"), "\(importRun.error)")
        #expect(try storedFiles(library) == stored)
    }

    @Test("a missing or foreign catalog: import refuses (exit 1), creates nothing and deletes nothing")
    func missingOrForeignCatalogIsRefused() throws {
        let workspace = try SampleVariants.Workspace()
        let library = try populatedLibrary(workspace)
        let stored = try storedFiles(library)
        let photo = try workspace.copy("plain/pixel_8.jpg", as: "more/pixel_8.jpg")
        try FileManager.default.removeItem(atPath: library + "/catalog.sqlite")
        let missing = try LivePairBinary.run(["import", "--library", library, photo])
        #expect(missing.status == 1)
        #expect(missing.error == "Error: \(library): not a usable LivePair library: its catalog is missing; nothing was changed\n")
        #expect(!FileManager.default.fileExists(atPath: library + "/catalog.sqlite"))
        // Another program's SQLite database in its place.
        let python = try ChildProcess.run("/usr/bin/python3", [
            "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE t(x)'); c.commit()",
            library + "/catalog.sqlite",
        ])
        #expect(python.status == 0, "\(python.errorText)")
        let foreign = try LivePairBinary.run(["library", "list", "--library", library, "--json"])
        #expect(foreign.status == 1)
        #expect(foreign.error.contains("its catalog is not a LivePair catalog (another schema)"), "\(foreign.error)")
        #expect(try storedFiles(library) == stored)
    }

    @Test("init creates a library only in a missing or empty directory; list needs one")
    func initCreatesLibraries() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("new").path
        let notThere = try LivePairBinary.run(["library", "list", "--library", library])
        #expect(notThere.status == 1)
        #expect(notThere.error == "Error: \(library): no LivePair library here (the directory is missing or empty)\n")
        #expect(!FileManager.default.fileExists(atPath: library), "list created nothing")
        let created = try LivePairBinary.run(["library", "init", "--library", library, "--json"])
        #expect(created.status == 0, "\(created.error)")
        let identity = try #require(try LivePairBinary.json(created.output)["identity"] as? String)
        #expect(UUID(uuidString: identity) != nil)
        let marker = try String(contentsOfFile: library + "/resources/.library", encoding: .utf8)
        #expect(marker == identity + "\n")
        let again = try LivePairBinary.run(["library", "init", "--library", library])
        #expect(again.status == 1)
        #expect(again.error == "Error: \(library): the directory is not empty; a new library needs an empty one\n")
        let list = try LivePairBinary.run(["library", "list", "--library", library])
        #expect(list.status == 0)
        #expect(list.output == "0 assets, 0 pending halves\n")
    }

    @Test("pending lists a stranded half; settle imports it alone; its movie still attaches later")
    func pendingAndSettle() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let still = try workspace.copy("live/IMG_4580.HEIC", as: "inbox/IMG_4580.HEIC")
        #expect(try LivePairBinary.run(["import", "--library", library, "--owner", "alice", still]).status == 0)

        let pending = try LivePairBinary.json(try LivePairBinary.run(["library", "pending", "--library", library, "--json"]).output)
        #expect(pending["count"] as? Int == 1)
        let half = try #require((pending["pending"] as? [[String: Any]])?.first)
        #expect(half["contentIdentifier"] as? String == "4E1A1B89-CE70-4FF8-873B-E4470B839314")
        #expect(half["owner"] as? String == "alice")
        #expect(half["type"] as? String == "photo")
        #expect(half["originalFilename"] as? String == "IMG_4580.HEIC")
        #expect(half["digest"] as? String == SampleMedia.entry("live/IMG_4580.HEIC")?.sha256)
        let text = try LivePairBinary.run(["library", "pending", "--library", library])
        #expect(text.output.hasSuffix("\talice\tphoto\t4E1A1B89-CE70-4FF8-873B-E4470B839314\t\"IMG_4580.HEIC\"\n1 pending half\n"), "\(text.output)")
        // Not old enough for a day: nothing listed or settled.
        let young = try LivePairBinary.json(try LivePairBinary.run(["library", "pending", "--older-than", "1d", "--library", library, "--json"]).output)
        #expect(young["count"] as? Int == 0)
        let list = try LivePairBinary.json(try LivePairBinary.run(["library", "list", "--library", library, "--json"]).output)
        #expect(list["count"] as? Int == 0 && list["pending"] as? Int == 1)
        #expect(try LivePairBinary.run(["library", "list", "--library", library]).output == "0 assets, 1 pending half\n")
        let notYet = try LivePairBinary.run(["library", "settle", "--older-than", "2h", "--library", library])
        #expect(notYet.status == 0 && notYet.output == "0 pending halves settled\n", "\(notYet.output)")

        let settle = try LivePairBinary.run(["library", "settle", "--older-than", "0s", "--library", library, "--json"])
        #expect(settle.status == 0, "\(settle.error)")
        let settled = try #require((try LivePairBinary.json(settle.output)["settled"] as? [[String: Any]])?.first)
        #expect(settled["outcome"] as? String == "accepted")
        let asset = try #require(settled["asset"] as? String)
        let afterSettle = try LivePairBinary.json(try LivePairBinary.run(["library", "list", "--library", library, "--json"]).output)
        #expect(afterSettle["count"] as? Int == 1 && afterSettle["pending"] as? Int == 0)
        let photo = try #require((afterSettle["assets"] as? [[String: Any]])?.first)
        #expect(photo["localIdentifier"] as? String == asset)
        #expect(photo["mediaType"] as? String == "image")
        #expect((photo["mediaSubtypes"] as? [String])?.contains("photoLive") == false)

        // The late movie joins the settled still: one Live Photo asset, the same identifier.
        let movie = try workspace.copy("live/IMG_4580.mov", as: "later/IMG_4580.mov")
        let late = try LivePairBinary.run(["import", "--library", library, "--owner", "alice", movie, "--json"])
        #expect(late.status == 0, "\(late.error)")
        let final = try LivePairBinary.json(try LivePairBinary.run(["library", "list", "--library", library, "--json"]).output)
        #expect(final["count"] as? Int == 1 && final["pending"] as? Int == 0)
        let live = try #require((final["assets"] as? [[String: Any]])?.first)
        #expect(live["localIdentifier"] as? String == asset)
        #expect((live["mediaSubtypes"] as? [String])?.contains("photoLive") == true)
        let show = try LivePairBinary.json(try LivePairBinary.run(["library", "show", asset, "--library", library, "--json"]).output)
        #expect(Set(((show["resources"] as? [[String: Any]]) ?? []).compactMap { $0["type"] as? String }) == ["photo", "pairedVideo"])
    }

    @Test("a movie settled alone is joined by its still arriving later (issue 20)")
    func settledMovieJoinedByItsStill() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let movie = try workspace.copy("live/IMG_4580.mov", as: "inbox/IMG_4580.mov")
        #expect(try LivePairBinary.run(["import", "--library", library, movie]).status == 0)
        let settle = try LivePairBinary.run(["library", "settle", "--older-than", "0s", "--library", library, "--json"])
        let settled = try #require((try LivePairBinary.json(settle.output)["settled"] as? [[String: Any]])?.first)
        let asset = try #require(settled["asset"] as? String)
        let still = try workspace.copy("live/IMG_4580.HEIC", as: "later/IMG_4580.HEIC")
        let late = try LivePairBinary.run(["import", "--library", library, still])
        #expect(late.output == "1 file: 1 imported, 0 duplicates, 0 pending, 0 rejected\n", "\(late.output)\(late.error)")
        let final = try LivePairBinary.json(try LivePairBinary.run(["library", "list", "--library", library, "--json"]).output)
        #expect(final["count"] as? Int == 1 && final["pending"] as? Int == 0)
        let live = try #require((final["assets"] as? [[String: Any]])?.first)
        #expect(live["localIdentifier"] as? String == asset)
        #expect(live["mediaType"] as? String == "image")
        #expect((live["mediaSubtypes"] as? [String])?.contains("photoLive") == true)
        let show = try LivePairBinary.json(try LivePairBinary.run(["library", "show", asset, "--library", library, "--json"]).output)
        #expect(((show["resources"] as? [[String: Any]]) ?? []).compactMap { $0["type"] as? String } == ["photo", "pairedVideo"])
    }

    @Test("ages are a number and a unit; settle needs one")
    func ageUsage() throws {
        let workspace = try SampleVariants.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        #expect(try LivePairBinary.run(["library", "init", "--library", library]).status == 0)
        for age in ["5", "5x", "m", "-5m", "1.5h"] {
            let run = try LivePairBinary.run(["library", "pending", "--older-than", age, "--library", library])
            #expect(run.status == 64, "\(age)")
        }
        let missing = try LivePairBinary.run(["library", "settle", "--library", library])
        #expect(missing.status == 64)
        #expect(missing.error.hasPrefix("Error: Missing expected option '--older-than <age>'.\n"))
        #expect(try LivePairBinary.run(["library", "pending", "--older-than", "90s", "--library", library]).status == 0)
    }
}
