import Foundation
import LivePair
import LivePairCore
import LivePairFormats
import LivePairLibrary
import TestSupport
import Testing

/// Round trips through the real import readers: the library of `LibraryLayoutExportCommandTests`
/// (an edited Live Photo, an edited photo, train with a date, place, favourite and caption the
/// library set and an album, a Pixel motion photo) exported with `library export --layout` and
/// imported back with the matching `import --layout` into a new library gives the same assets.
@Suite("export layouts read back by import --layout: the same assets, metadata, albums and edits")
struct LayoutRoundTripCommandTests {
    /// What a round trip compares of an asset (`library list --json`).
    struct Facts: Equatable, CustomStringConvertible {
        var identifier: String?
        var subtypes: [String]
        var date: String?
        var latitude: Double?
        var longitude: Double?
        var favourite: Bool
        var caption: String?
        var albums: [String]
        var edited: Bool
        /// The rendered still or movie an edit keeps (`fullSizePhoto`, `fullSizePairedVideo`).
        var rendered = false

        init(_ asset: [String: Any]) {
            identifier = asset["contentIdentifier"] as? String
            subtypes = asset["mediaSubtypes"] as? [String] ?? []
            date = asset["creationDate"] as? String
            let location = asset["location"] as? [String: Double]
            latitude = location?["latitude"]
            longitude = location?["longitude"]
            favourite = asset["isFavorite"] as? Bool ?? false
            caption = asset["caption"] as? String
            albums = asset["albums"] as? [String] ?? []
            edited = asset["hasAdjustments"] as? Bool ?? false
        }

        /// The key assets are matched by: the identifier, else the date.
        var key: String { identifier ?? "@" + (date ?? "-") }

        /// Equal, with places within 1e-8 degree (about 1 mm).
        func matches(_ other: Facts) -> Bool {
            func near(_ one: Double?, _ two: Double?) -> Bool {
                switch (one, two) {
                case (nil, nil): return true
                case let (one?, two?): return abs(one - two) < 1e-8
                default: return false
                }
            }
            return identifier == other.identifier && subtypes == other.subtypes && date == other.date
                && near(latitude, other.latitude) && near(longitude, other.longitude) && favourite == other.favourite
                && caption == other.caption && albums == other.albums && edited == other.edited && rendered == other.rendered
        }

        var description: String {
            "\(identifier ?? "-") \(subtypes) \(date ?? "-") \(latitude ?? .nan),\(longitude ?? .nan) fav:\(favourite) \(caption ?? "-") \(albums) edited:\(edited) rendered:\(rendered)"
        }
    }

    /// The assets of the library at `path`, by key.
    private func facts(_ path: String) throws -> [String: Facts] {
        let list = try LivePairBinary.run(["library", "list", "--json", "--library", path])
        let assets = try #require(try LivePairBinary.json(list.output)["assets"] as? [[String: Any]])
        var found: [String: Facts] = [:]
        for asset in assets {
            var facts = Facts(asset)
            let show = try LivePairBinary.run(["library", "show", asset["localIdentifier"] as? String ?? "", "--json", "--library", path])
            let resources = try LivePairBinary.json(show.output)["resources"] as? [[String: Any]] ?? []
            facts.rendered = resources.contains { ["fullSizePhoto", "fullSizePairedVideo"].contains($0["type"] as? String ?? "") }
            found[facts.key] = facts
        }
        return found
    }

    /// The asset of `after` that is `facts` of `before`: the same identifier; for an asset without
    /// one, the one created at the same time (a motion photo made a Live Photo gets an identifier).
    private func counterpart(_ facts: Facts, in after: [String: Facts]) -> Facts? {
        after[facts.key] ?? (facts.identifier == nil ? after.values.first { $0.date == facts.date } : nil)
    }

    /// Exports the library as `layout`, imports the export with `--layout reader` (nil: detected;
    /// with `zipped`, from a zip part whose members are in that order); both libraries' facts, and
    /// the import's JSON report.
    private func roundTrip(
        _ layout: String, _ options: [String], reader: String?, zipped: ((String) -> [String])? = nil
    ) throws -> (before: [String: Facts], after: [String: Facts]) {
        let (before, after, _) = try roundTripReport(layout, options, reader: reader, zipped: zipped)
        return (before, after)
    }

    /// `roundTrip` with the import's report; `inspect` is given both libraries' paths before
    /// the workspace goes.
    private func roundTripReport(
        _ layout: String, _ options: [String], reader: String?, zipped: ((String) -> [String])? = nil,
        inspect: ((_ before: String, _ after: String) throws -> Void)? = nil
    ) throws -> (before: [String: Facts], after: [String: Facts], report: [String: Any]) {
        let workspace = try SampleVariants.Workspace()
        let library = try LibraryLayoutExportCommandTests.library(workspace)
        let output = workspace.url.appendingPathComponent(layout).path
        let exported = try LivePairBinary.run(
            ["library", "export", "--layout", layout, "--library", library, "--output", output, "--quiet"] + options)
        try #require(exported.status == 0, "\(exported.output)\(exported.error)")
        var input = output
        if let zipped {
            input = workspace.url.appendingPathComponent("takeout-001.zip").path
            let members = zipped(output)
            let script = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n"
                + "    for name in sys.argv[3:]: z.write(sys.argv[2] + '/' + name, name)\n"
            _ = try ReferenceTool.run("python3", ["-c", script, input, output] + members)
        }
        let again = workspace.url.appendingPathComponent("again").path
        let imported = try LivePairBinary.run(
            ["import", "--quiet", "--json"] + (reader.map { ["--layout", $0] } ?? []) + ["--library", again, input])
        #expect(imported.status == 0, "\(imported.output)\(imported.error)")
        let report = try LivePairBinary.json(imported.output)
        if zipped != nil {
            // The album's copies (read first) and the rest of the year folder went in while the part streamed.
            let summary = report["summary"] as? [String: Any]
            #expect(summary?["ingestedWhileReading"] as? Int == 3, "\(summary ?? [:])")
        }
        // A plain import keeps a still without its movie pending (the source library settled it too).
        #expect(try LivePairBinary.run(["library", "settle", "--older-than", "0s", "--library", again]).status == 0)
        try inspect?(library, again)
        return (try facts(library), try facts(again), report)
    }

    @Test("google-photos read back as a Takeout: identifiers, dates to the millisecond, places, favourites, captions, the album, both renders")
    func googlePhotos() throws {
        let (before, after) = try roundTrip("google-photos", [], reader: "takeout")
        try checkGooglePhotos(before, after)
    }

    /// A google-photos round trip: everything back but the `.AAE`, for which Google Photos has no
    /// place (the export says so): the render comes back as the asset's current version, without
    /// adjustment data.
    private func checkGooglePhotos(_ before: [String: Facts], _ after: [String: Facts]) throws {
        #expect(before.count == 4 && after.count == 4, "\(after.values)")
        #expect(before.values.filter(\.edited).count == 2 && after.values.filter(\.rendered).count == 2)
        for facts in before.values {
            let back = try #require(counterpart(facts, in: after), "\(facts) did not come back: \(after.values)")
            var expected = facts
            expected.edited = false
            #expect(back.matches(expected), "\(expected)\n\(back)")
        }
    }

    @Test("an edited Live Photo's render through google-photos and back: its movie half is the current version's movie")
    func renderMovieThroughGooglePhotos() throws {
        _ = try roundTripReport("google-photos", [], reader: "takeout", inspect: { before, after in
            // The source: IMG_3582 with its render IMG_E3582.HEIC + IMG_E3582.MOV (fullSizePairedVideo).
            let (sourceMovie, _) = try Self.currentVersion(of: Self.editedIdentifier, in: before)
            let render = try #require(sourceMovie)
            #expect(render.contentIdentifier?.rawValue.hasPrefix("87D06EAA") == true, "\(render.contentIdentifier?.rawValue ?? "none")")
            // Back from the Takeout: a motion photo whose render is a motion photo; the current
            // version's still is that render, and the movie it carries is the render's movie.
            let (movie, still) = try Self.currentVersion(of: Self.editedIdentifier, in: after)
            #expect(movie == nil, "a motion photo keeps its movie inside its still")
            let motion = try #require(still.motionPhoto, "the current version's still is not a motion photo: \(still.role)")
            #expect(still.contentIdentifier == render.contentIdentifier)
            let offset = try #require(motion.videoOffset), length = try #require(motion.videoLength)
            let source = try FileByteSource(path: still.path)
            let embedded = FileManager.default.temporaryDirectory.appendingPathComponent("render-movie-\(UUID().uuidString).mp4").path
            defer { try? FileManager.default.removeItem(atPath: embedded) }
            try Data(try source.readExactly(at: offset, count: Int(length), context: still.path)).write(to: URL(fileURLWithPath: embedded))
            let back = ResourceIdentifier().identify(path: embedded)
            #expect(back.contentIdentifier == render.contentIdentifier)
            #expect(back.width == render.width && back.height == render.height && back.videoCodec == render.videoCodec)
            #expect(abs((back.duration ?? 0) - (render.duration ?? -1)) < 0.001, "\(back.duration ?? 0) \(render.duration ?? 0)")
            // The key photo: the render movie's still-image time, which the motion photo keeps
            // exactly (LivePair:StillImageTime) and a conversion back gives to the tick.
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: copy) }
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: still.path, toPath: copy + "/IMG_E3582.HEIC")
            let converted = try LivePairBinary.run(["convert", "--to", "live-photo", copy + "/IMG_E3582.HEIC", "--output", copy + "/back"])
            #expect(converted.status == 0, "\(converted.output)\(converted.error)")
            let movieBack = ResourceIdentifier().identify(path: copy + "/back/IMG_E3582.MOV")
            let time = try #require(render.stillImageTime)
            #expect(movieBack.contentIdentifier == render.contentIdentifier)
            #expect(abs((movieBack.stillImageTime ?? -1) - time) < 1e-9, "\(movieBack.stillImageTime ?? -1) \(time)")
        })
    }

    static let editedIdentifier = "602FEBB7-6B59-4799-96E6-9C8484D873C7"

    /// The current version of the asset with content identifier `identifier` in the library at
    /// `path`: its movie (`movie(version: .current)`) and its still, identified from their stored files.
    static func currentVersion(of identifier: String, in path: String) throws -> (movie: ResourceIdentity?, still: ResourceIdentity) {
        let library = try PhotoLibrary.open(at: path)
        let asset = try #require(Array(try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true))).first { $0.contentIdentifier == identifier })
        let resources = try library.assetResources(for: asset)
        let still = try #require(resources.still(version: .current))
        #expect(still.type == .fullSizePhoto)
        let movie = try resources.movie(version: .current).map { ResourceIdentifier().identify(path: try library.storagePath(for: $0)) }
        return (movie, ResourceIdentifier().identify(path: try library.storagePath(for: still)))
    }

    @Test("google-photos in a zip part, the album folder's copies first: the same, the renders joining the copies ingested while the part streamed")
    func googlePhotosZipped() throws {
        let (before, after) = try roundTrip("google-photos", [], reader: "takeout") { output in
            let files = LibraryLayoutExportCommandTests.files(output)
            return files.filter { $0.contains("/Voyage à Paris/") } + files.filter { !$0.contains("/Voyage à Paris/") }
        }
        try checkGooglePhotos(before, after)
    }

    @Test("apple-photos read back as Image Capture: identifiers, dates, places and both edits")
    func applePhotos() throws {
        let (before, after) = try roundTrip("apple-photos", [], reader: "image-capture")
        #expect(before.count == 4 && after.count == 4, "\(after.values)")
        for facts in before.values {
            let back = try #require(counterpart(facts, in: after), "\(facts) did not come back: \(after.values)")
            var expected = facts
            // The Pixel motion photo became a Live Photo with an identifier of its own.
            if facts.identifier == nil {
                #expect(back.identifier?.count == 36)
                expected.identifier = back.identifier
            }
            // What Photos reads from files only: favourites, captions and albums live in its library.
            expected.favourite = false
            expected.caption = nil
            expected.albums = []
            #expect(back.matches(expected), "\(expected)\n\(back)")
        }
    }

    @Test("folder read back, its layout detected: identifiers, dates to the millisecond, places, favourites, captions, albums and both edits the library set")
    func folder() throws {
        let (before, after, report) = try roundTripReport("folder", ["--albums", "flat"], reader: nil)
        #expect(report["layout"] as? String == "folder")
        let summary = try #require(report["summary"] as? [String: Any])
        // One NAME.json per asset, each applied; the album made from train.jpg.json's titles.
        #expect(summary["sidecars"] as? Int == 4 && summary["albums"] as? Int == 1 && summary["ignored"] as? Int == 0, "\(summary)")
        let files = try #require(report["files"] as? [[String: Any]])
        let sidecars = files.filter { $0["disposition"] as? String == "sidecar" }
        #expect(Set(sidecars.compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) })
            == ["IMG_1853.HEIC.json", "IMG_3582.HEIC.json", "PXL_20200710_061629144.MP.jpg.json", "train.jpg.json"], "\(sidecars)")
        #expect(before.count == 4 && after.count == 4, "\(after.values)")
        let train = try #require(after[LibraryLayoutExportCommandTests.trainIdentifier])
        // What the library set, and train's files do not hold, came back from train.jpg.json.
        #expect(train.date == "2020-02-03T04:05:06.789Z" && train.favourite && train.caption == LibraryLayoutExportCommandTests.caption)
        #expect(train.albums == [LibraryLayoutExportCommandTests.album])
        for facts in before.values {
            let back = try #require(counterpart(facts, in: after), "\(facts) did not come back: \(after.values)")
            #expect(back.matches(facts), "\(facts)\n\(back)")
        }
    }

    @Test("folder read as plain: the files only, not what only NAME.json holds")
    func folderAsPlain() throws {
        let (before, after) = try roundTrip("folder", ["--albums", "flat"], reader: "plain")
        #expect(before.count == 4 && after.count == 4, "\(after.values)")
        for facts in before.values {
            let back = try #require(counterpart(facts, in: after), "\(facts) did not come back: \(after.values)")
            var expected = facts
            // `plain` reads the files only: train's date, place, favourite, caption and album,
            // which the library set, are in train.jpg.json (docs/exports.md), and its files keep
            // their own.
            if facts.identifier == LibraryLayoutExportCommandTests.trainIdentifier {
                #expect(back.date == "2021-04-10T10:44:00.814Z")
                (expected.date, expected.latitude, expected.longitude) = (back.date, back.latitude, back.longitude)
                (expected.favourite, expected.caption) = (false, nil)
            }
            expected.albums = []
            #expect(back.matches(expected), "\(expected)\n\(back)")
        }
    }
}
