import Foundation
import TestSupport
import Testing

/// `livepair library migrate --from DIR` into a PostgreSQL catalog with an S3 store, through the
/// executable: what the target holds is compared with the source asset by asset (identifiers,
/// content identifiers, resource digests), the source directory is compared byte for byte before
/// and after, and a run killed with SIGKILL is completed by running it again.
@Suite("library migrate: a directory library into PostgreSQL + S3, verified, resumable, the source untouched")
struct LibraryMigrateCommandTests {
    static let pairs = [
        ("live/IMG_3582.HEIC", "live/IMG_3582.mov"), ("live/train.jpg", "live/train.mov"),
        ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"),
    ]
    /// A half whose partner is not imported: it stays pending.
    static let lone = "live/IMG_4580.HEIC"

    /// A directory library holding the sample pairs (owner bob) and one pending half.
    static func sourceLibrary() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-source-\(UUID().uuidString)").path
        let files = pairs.flatMap { [SampleMedia.path($0.0), SampleMedia.path($0.1)] } + [SampleMedia.path(lone)]
        let imported = try LivePairBinary.run(["import", "--library", directory, "--owner", "bob"] + files)
        try #require(imported.status == 0, "\(imported.error)")
        return directory
    }

    /// Every file under `directory` with its size and SHA-256, and every directory: to show it unchanged.
    static func snapshot(_ directory: String) throws -> [String: String] {
        var entries: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: directory) {
            let full = directory + "/" + path
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            entries[path] = isDirectory.boolValue ? "directory" : try SHA256Hex.of(file: full)
        }
        return entries
    }

    /// Each asset of the library (`options` naming it) as identifier → content identifier and the
    /// sorted digests of its resources, plus the pending count.
    static func contents(_ options: [String], environment: [String: String]) throws -> (assets: [String: String], pending: Int) {
        let list = try LivePairBinary.run(["library", "list", "--json"] + options, environment: environment)
        try #require(list.status == 0, "\(list.error)")
        let listed = try LivePairBinary.json(list.output)
        var assets: [String: String] = [:]
        for asset in try #require(listed["assets"] as? [[String: Any]]) {
            let identifier = try #require(asset["localIdentifier"] as? String)
            let show = try LivePairBinary.run(["library", "show", identifier, "--json"] + options, environment: environment)
            try #require(show.status == 0, "\(show.error)")
            let resources = try #require(try LivePairBinary.json(show.output)["resources"] as? [[String: Any]])
            let digests = resources.compactMap { $0["digest"] as? String }.sorted()
            assets[identifier] = "\(asset["contentIdentifier"] as? String ?? "-") \(digests.joined(separator: ","))"
        }
        return (assets, try #require(listed["pending"] as? Int))
    }

    @Test("migrate copies every asset with the same identifiers and digests and the pending half; a second run copies nothing")
    func migrateAndCompare() throws {
        let source = try Self.sourceLibrary()
        let before = try Self.snapshot(source)
        let s3 = try S3CommandStore("migrate")
        let catalog = try PostgresTestServer.freshSchemaURL()
        let target = ["--catalog", catalog, "--store", s3.url("lib")]

        let run = try LivePairBinary.run(["library", "migrate", "--from", source, "--json"] + target, environment: s3.environment)
        #expect(run.status == 0, "\(run.error)")
        let report = try LivePairBinary.json(run.output)
        #expect(report["assetsCopied"] as? Int == 3)
        #expect(report["resourcesVerified"] as? Int == 7, "six resources of the pairs and the pending half's")
        // The pending half's record, and the edit group of each of the seven originals imported by
        // name (a render or .AAE arriving later finds its asset by it: docs/editing.md).
        #expect(report["recordsCopied"] as? Int == 8)

        let expected = try Self.contents(["--library", source], environment: [:])
        let migrated = try Self.contents(target, environment: s3.environment)
        #expect(migrated.assets == expected.assets)
        #expect(expected.assets.count == 3 && migrated.pending == 1 && expected.pending == 1)
        let digests = Set(expected.assets.values.flatMap { $0.split(separator: " ")[1].split(separator: ",").map(String.init) })
        let lone = try SHA256Hex.of(file: SampleMedia.path(Self.lone))
        let objects = Set((digests.union([lone])).map { "lib/\($0.prefix(2))/\($0)" }).union(["lib/.library"])
        #expect(Set(try s3.keys()) == objects)

        let again = try LivePairBinary.run(["library", "migrate", "--from", source, "--json"] + target, environment: s3.environment)
        #expect(again.status == 0, "\(again.error)")
        let second = try LivePairBinary.json(again.output)
        #expect(second["assetsCopied"] as? Int == 0 && second["assetsAlreadyThere"] as? Int == 3)
        #expect(second["resourcesVerified"] as? Int == 0 && second["recordsCopied"] as? Int == 0)
        #expect(try Self.contents(target, environment: s3.environment).assets == expected.assets)
        #expect(try Self.snapshot(source) == before, "the source directory was not changed")

        // The migrated pending half still waits for its partner: importing the movie links them.
        let partner = try LivePairBinary.run(
            ["import", "--owner", "bob", "--json", SampleMedia.path("live/IMG_4580.mov")] + target, environment: s3.environment)
        #expect(partner.status == 0, "\(partner.error)")
        let linked = try Self.contents(target, environment: s3.environment)
        #expect(linked.assets.count == 4 && linked.pending == 0)
    }

    @Test("a migrate killed with SIGKILL after its first batch is completed by a second run, without duplicates")
    func killedAndResumed() throws {
        let source = try Self.sourceLibrary()
        let before = try Self.snapshot(source)
        let s3 = try S3CommandStore("migrate-kill")
        let catalog = try PostgresTestServer.freshSchemaURL()
        let target = ["--catalog", catalog, "--store", s3.url("lib")]

        let binary = try #require(LivePairBinary.url)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["library", "migrate", "--from", source, "--batch-size", "1"] + target
        // A progress line after every batch (not every 5 s, as standard error is a pipe).
        process.environment = ProcessInfo.processInfo.environment.merging(s3.environment) { $1 }
            .merging(["LIVEPAIR_PROGRESS_INTERVAL": "0"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Killed as soon as it reports its first committed batch.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("migrate: 1/3 assets") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "killed before it finished: \(String(decoding: seen, as: UTF8.self))")
        let partial = try Self.contents(target, environment: s3.environment)
        #expect(partial.assets.count >= 1 && partial.assets.count < 3, "\(partial.assets)")

        let resumed = try LivePairBinary.run(["library", "migrate", "--from", source, "--json"] + target, environment: s3.environment)
        #expect(resumed.status == 0, "\(resumed.error)")
        let report = try LivePairBinary.json(resumed.output)
        #expect(report["assetsAlreadyThere"] as? Int == partial.assets.count)
        #expect(report["assetsCopied"] as? Int == 3 - partial.assets.count)

        let expected = try Self.contents(["--library", source], environment: [:])
        let migrated = try Self.contents(target, environment: s3.environment)
        #expect(migrated.assets == expected.assets)
        #expect(migrated.pending == 1)
        #expect(try Self.snapshot(source) == before, "the source directory was not changed")
    }

    @Test("migrate needs --from; --from and --batch-size belong to migrate only; a missing source is refused (exit 1)")
    func usage() throws {
        let noFrom = try LivePairBinary.run(["library", "migrate", "--catalog", "postgresql://u@/d", "--store", "/tmp/s"])
        #expect(noFrom.status == 64)
        #expect(noFrom.error.contains("Missing expected option '--from <dir>'"), "\(noFrom.error)")
        let stray = try LivePairBinary.run(["library", "list", "--library", "/tmp/x", "--from", "/tmp/y"])
        #expect(stray.status == 64)
        #expect(stray.error.contains("--from is only for 'migrate'"), "\(stray.error)")
        let badBatch = try LivePairBinary.run(
            ["library", "migrate", "--from", "/tmp/y", "--batch-size", "0", "--catalog", "postgresql://u@/d", "--store", "/tmp/s"])
        #expect(badBatch.status == 64)

        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-missing-\(UUID().uuidString)").path
        let catalog = try PostgresTestServer.freshSchemaURL()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-store-\(UUID().uuidString)").path
        let refused = try LivePairBinary.run(["library", "migrate", "--from", missing, "--catalog", catalog, "--store", store])
        #expect(refused.status == 1)
        #expect(refused.error.contains("no LivePair library here"), "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: missing), "the missing source was not created")
    }
}
