import Foundation
import TestSupport
import Testing

/// `livepair library albums [show TITLE] [--json]` on a library that imported the iCloud Photos
/// export of Tests/Fixtures/exports/make_exports.py (`Albums/Holidays.csv`, `Albums/Family.csv`).
@Suite("livepair library albums: the albums an import made, their counts, members and assets")
struct LibraryAlbumsCommandTests {
    /// A library with the iCloud export imported, and the asset each of its photos went into.
    static let imported: (library: String, assetOf: [String: String]) = {
        do {
            let exports = try TestScratch.folder("albums-exports")
            try ArchiveFixtures.exports(in: exports)
            let library = try TestScratch.folder("albums-library") + "/library"
            let run = try LivePairBinary.run(["import", "--json", "--library", library, exports + "/icloud"])
            let files = try LivePairBinary.json(run.output)["files"] as? [[String: Any]] ?? []
            var assetOf: [String: String] = [:]
            for file in files {
                guard let path = file["path"] as? String, let asset = file["asset"] as? String else { continue }
                assetOf[(path as NSString).lastPathComponent] = asset
            }
            return (library, assetOf)
        } catch {
            Issue.record("the iCloud export could not be imported: \(error)")
            return ("", [:])
        }
    }()

    @Test("albums --json: each album's title, count and members; the text lists counts and titles")
    func list() throws {
        let (library, assetOf) = Self.imported
        let run = try LivePairBinary.run(["library", "albums", "--json", "--library", library])
        #expect(run.status == 0, "\(run.error)")
        let object = try LivePairBinary.json(run.output)
        #expect(object["count"] as? Int == 2)
        let albums = try #require(object["albums"] as? [[String: Any]])
        let byTitle = Dictionary(albums.map { ($0["title"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        let holidays = try #require(byTitle["Holidays"])
        let family = try #require(byTitle["Family"])
        let lake = try #require(assetOf["IMG_4580.HEIC"])
        let beach = try #require(assetOf["Beach, sunset.jpg"])
        let movie = try #require(assetOf["with-gps.mov"])
        let hidden = try #require(assetOf["IMG_5747.HEIC"])
        // Albums/Holidays.csv names IMG_4580.HEIC and "Beach, sunset.jpg"; Albums/Family.csv
        // IMG_5747.HEIC (a hidden asset: counted), with-gps.mov and IMG_4580.HEIC.
        #expect(holidays["count"] as? Int == 2 && family["count"] as? Int == 3)
        #expect(Set(holidays["members"] as? [String] ?? []) == [lake, beach])
        #expect(Set(family["members"] as? [String] ?? []) == [hidden, movie, lake])
        #expect((holidays["localIdentifier"] as? String)?.count == 36)

        let text = try LivePairBinary.run(["library", "albums", "--library", library])
        #expect(text.status == 0)
        let lines = text.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "ASSETS  TITLE")
        #expect(Set(lines.dropFirst().prefix(2)) == ["2       Holidays", "3       Family"])
        #expect(lines.last == "2 albums")
    }

    @Test("albums show TITLE: the album's assets as list shows them; an unknown title is an error")
    func show() throws {
        let (library, assetOf) = Self.imported
        let run = try LivePairBinary.run(["library", "albums", "show", "Family", "--json", "--library", library])
        #expect(run.status == 0, "\(run.error)")
        let object = try LivePairBinary.json(run.output)
        #expect((object["albums"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Family"])
        let assets = try #require(object["assets"] as? [[String: Any]])
        #expect(
            Set(assets.compactMap { $0["localIdentifier"] as? String })
                == [assetOf["IMG_4580.HEIC"], assetOf["with-gps.mov"], assetOf["IMG_5747.HEIC"]])
        #expect(object["count"] as? Int == 3)
        let lake = try #require(assets.first { $0["localIdentifier"] as? String == assetOf["IMG_4580.HEIC"] })
        #expect(lake["isFavorite"] as? Bool == true && lake["mediaSubtypes"] as? [String] == ["photoLive"])

        let text = try LivePairBinary.run(["library", "albums", "show", "Family", "--library", library])
        #expect(text.status == 0)
        #expect(text.output.hasPrefix("IDENTIFIER  "))
        #expect(text.output.contains("IMG_4580.HEIC + IMG_4580.mov") && text.output.contains("with-gps.mov"))
        #expect(text.output.hasSuffix("\n3 assets\n"))

        let missing = try LivePairBinary.run(["library", "albums", "show", "Nowhere", "--library", library])
        #expect(missing.status == 1)
        #expect(missing.error == "Error: no album is titled Nowhere\n")
        let usage = try LivePairBinary.run(["library", "albums", "Family", "--library", library])
        #expect(usage.status == 64)
        #expect(usage.error.contains("'albums' takes no argument but 'show <title>'."))
    }
}
