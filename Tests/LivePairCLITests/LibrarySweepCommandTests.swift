import Foundation
import TestSupport
import Testing

/// `livepair library sweep`: the stored files nothing uses go, the ones assets use stay, and the
/// grace period protects young files.
@Suite("livepair library sweep, through the executable")
struct LibrarySweepCommandTests {
    @Test("an unreferenced stored file is kept while young, removed with --older-than 0s; the pair's files stay")
    func sweepRemovesOnlyUnreferencedFiles() throws {
        let workspace = try SampleVariants.Workspace()
        let trainPair = try TrainPairLibrary(in: workspace)
        let library = trainPair.path
        let stored = try Self.storedFiles(library)
        #expect(stored.count == 2, "the still and the movie: \(stored)")

        // What a killed import leaves: a file under its digest that no catalog row names.
        let orphan = workspace.url.appendingPathComponent("orphan")
        try Data("bytes an interrupted import stored".utf8).write(to: orphan)
        let digest = String(try ReferenceTool.run("sha256sum", [orphan.path]).prefix(64))
        #expect(digest.count == 64)
        let folder = library + "/resources/" + digest.prefix(2)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: orphan.path, toPath: folder + "/" + digest.dropFirst(2))

        // The default age (1 hour) keeps it: an import may be about to commit it.
        let young = try LivePairBinary.run(["library", "sweep", "--library", library])
        #expect(young.status == 0, "\(young.error)")
        #expect(young.output == "0 unreferenced stored files removed\n")
        #expect(try Self.storedFiles(library).count == 3)

        let swept = try LivePairBinary.run(["library", "sweep", "--library", library, "--older-than", "0s", "--json"])
        #expect(swept.status == 0, "\(swept.error)")
        let json = try LivePairBinary.json(swept.output)
        #expect(json["removed"] as? Int == 1)
        #expect(json["library"] as? String == library)
        #expect(try Self.storedFiles(library) == stored, "exactly the orphan went")
        // The pair is whole: both halves export byte for byte.
        let output = workspace.url.appendingPathComponent("out").path
        #expect(try LivePairBinary.run(["library", "export", trainPair.identifier, "--library", library, "--output", output]).status == 0)
        #expect(FileManager.default.contents(atPath: output + "/train.jpg") == Data(try SampleMedia.bytes("live/train.jpg")))
        #expect(FileManager.default.contents(atPath: output + "/train.mov") == Data(try SampleMedia.bytes("live/train.mov")))
    }

    @Test("usage: sweep takes no identifiers, and --older-than is checked", arguments: [
        ["library", "sweep", "X", "--library", "/nonexistent"],
        ["library", "sweep", "--older-than", "soon", "--library", "/nonexistent"],
    ])
    func usageErrors(arguments: [String]) throws {
        let run = try LivePairBinary.run(arguments)
        #expect(run.status == 64, "\(run.output) \(run.error)")
    }

    /// The resource files of a directory library, relative to its `resources` folder, sorted.
    private static func storedFiles(_ library: String) throws -> [String] {
        let root = library + "/resources"
        let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory)
            return exists && !isDirectory.boolValue && !name.hasPrefix(".")
        }.sorted()
    }
}
