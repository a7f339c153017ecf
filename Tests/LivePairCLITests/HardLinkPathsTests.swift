import Foundation
import TestSupport
import Testing

/// Every path is reported, hard links included (issue 20): a folder holding `a.HEIC`, `sub/b.HEIC`
/// (a hard link to it), `p.jpg` and `q.jpg` (a hard link to it) is four paths in every command.
@Suite("Hard links: every path reported, through the executables")
struct HardLinkPathsTests {
    /// The folder of the issue, made with link(2); returns the workspace and the folder's path.
    private static func linkedFolder() throws -> (SampleVariants.Workspace, String) {
        let workspace = try SampleVariants.Workspace()
        let still = try workspace.copy("live/IMG_3582.HEIC", as: "d/a.HEIC")
        let photo = try workspace.copy("plain/pixel_8.jpg", as: "d/p.jpg")
        let folder = workspace.url.appendingPathComponent("d").path
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try FileManager.default.linkItem(atPath: still, toPath: folder + "/sub/b.HEIC")
        try FileManager.default.linkItem(atPath: photo, toPath: folder + "/q.jpg")
        return (workspace, folder)
    }

    @Test("inspect lists each path of a linked file, walked or named")
    func inspectListsEachPath() throws {
        let (workspace, folder) = try Self.linkedFolder()
        defer { withExtendedLifetime(workspace) {} }
        let run = try LivePairBinary.run(["inspect", "--json", folder])
        #expect(run.status == 0, "\(run.error)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["path"] as? String } == ["a.HEIC", "p.jpg", "q.jpg", "sub/b.HEIC"].map { folder + "/" + $0 })
        #expect(entries.map { $0["role"] as? String } == ["live-photo-still", "photo", "photo", "live-photo-still"])
        #expect(entries[3]["contentIdentifier"] as? String == "602FEBB7-6B59-4799-96E6-9C8484D873C7")
        #expect(entries[2]["fileSize"] as? Int == entries[1]["fileSize"] as? Int)
        let table = try LivePairBinary.run(["inspect", folder])
        #expect(table.output.hasSuffix("4 files: 2 live-photo-still, 2 photo\n"), "\(table.output)")
        // --wide: the whole paths (the default table may cut a long one to fit 120 columns).
        let named = try LivePairBinary.run(["inspect", "--wide", folder + "/p.jpg", folder + "/q.jpg"])
        #expect(named.output.hasSuffix("2 files: 2 photo\n"), "\(named.output)")
        #expect(named.output.contains(folder + "/q.jpg "))
    }

    @Test("pair lists the extra links as same-file duplicate groups; validate accounts for each path")
    func pairAndValidateAccountForEachPath() throws {
        let (workspace, folder) = try Self.linkedFolder()
        defer { withExtendedLifetime(workspace) {} }
        let pair = try LivePairBinary.run(["pair", "--json", folder])
        #expect(pair.status == 0, "\(pair.error)")
        let result = try LivePairBinary.json(pair.output)
        let unpaired = try #require(result["unpaired"] as? [[String: Any]])
        #expect(unpaired.map { $0["path"] as? String } == [folder + "/a.HEIC", folder + "/p.jpg"])
        let duplicates = try #require(result["duplicates"] as? [[String: Any]])
        #expect(duplicates.map { $0["original"] as? String } == [folder + "/a.HEIC", folder + "/p.jpg"])
        #expect(duplicates.map { $0["duplicates"] as? [String] } == [[folder + "/sub/b.HEIC"], [folder + "/q.jpg"]])
        #expect(duplicates.map { $0["kind"] as? String } == ["same-file", "same-file"])

        let validate = try LivePairBinary.run(["validate", "--json", folder])
        #expect(validate.status == 0, "\(validate.error)")
        let report = try LivePairBinary.json(validate.output)
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == [folder + "/p.jpg", folder + "/q.jpg", folder + "/sub/b.HEIC"])
        let linkFinding = try #require((files[2]["findings"] as? [[String: Any]])?.first)
        #expect(linkFinding["code"] as? String == "duplicate-file")
        #expect(linkFinding["message"] as? String == "b.HEIC is another path to the file \(folder)/a.HEIC (a hard or symbolic link)")
        let assets = try #require(report["assets"] as? [[String: Any]])
        #expect(assets.map { $0["photo"] as? String } == [folder + "/a.HEIC"])
        #expect(report["summary"] as? [String: Int] == ["assets": 1, "files": 3, "error": 0, "warning": 3, "info": 0])
    }

    @Test("import reads a linked file once and reports every path: imported, then duplicate")
    func importAccountsForEachPath() throws {
        let (workspace, folder) = try Self.linkedFolder()
        let movie = try workspace.copy("live/IMG_3582.mov", as: "d/IMG_3582.mov")
        try FileManager.default.linkItem(atPath: movie, toPath: folder + "/sub/c.mov")
        let library = workspace.url.appendingPathComponent("library").path
        let run = try LivePairBinary.run(["import", "--library", library, "--json", folder])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let report = try LivePairBinary.json(run.output)
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String }
            == ["IMG_3582.mov", "a.HEIC", "p.jpg", "q.jpg", "sub/b.HEIC", "sub/c.mov"].map { folder + "/" + $0 })
        #expect(files.map { $0["outcome"] as? String } == ["accepted", "accepted", "accepted", "duplicate", "duplicate", "duplicate"])
        let assets = files.map { $0["asset"] as? String }
        #expect(assets[0] == assets[1] && assets[1] == assets[4] && assets[4] == assets[5])
        #expect(assets[2] == assets[3] && assets[2] != assets[0])
        #expect(report["summary"] as? [String: Int] == [
            "files": 6, "imported": 3, "duplicates": 3, "pending": 0, "rejected": 0, "skipped": 0, "flagged": 0, "errors": 0,
        ])
        let listed = try LivePairBinary.run(["library", "list", "--json", "--library", library])
        #expect(listed.status == 0, "\(listed.error)")
        let list = try LivePairBinary.json(listed.output)
        #expect(list["count"] as? Int == 2 && list["pending"] as? Int == 0, "\(listed.output)")
    }
}
