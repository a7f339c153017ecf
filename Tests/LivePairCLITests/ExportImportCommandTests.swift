import Foundation
import LivePairCore
import TestSupport
import Testing

/// `livepair import` of exports in every layout, built from SampleMedia/ by the fixture scripts
/// (Tests/Fixtures/takeout/make_takeout.py: a Takeout in a zip and a tgz part with supplemental,
/// truncated and `(1)` sidecar names, an `-edited` render, a localised album and a Live Photo split
/// over the parts; Tests/Fixtures/exports/make_exports.py: old Takeout names, an iCloud Photos
/// export, icloudpd under both movie policies, Image Capture with an edit, Smart Switch), each into
/// a real library: pairs, dates, places, favourites, captions, hidden, albums, and every file's end.
@Suite("livepair import of exports: every layout into a library, metadata applied, every file accounted for")
struct ExportImportCommandTests {
    static let takeoutParts: [String] = {
        do {
            return try ArchiveFixtures.takeout(in: try TestScratch.folder("import-takeout"))
        } catch {
            Issue.record("the Takeout fixture could not be built: \(error)")
            return []
        }
    }()

    static let exports: String = {
        do {
            let folder = try TestScratch.folder("import-exports")
            try ArchiveFixtures.exports(in: folder)
            return folder
        } catch {
            Issue.record("the export fixtures could not be built: \(error)")
            return ""
        }
    }()

    static let g = "Takeout/Google Photos/"

    /// Imports `arguments` into a new library; the import's JSON and the library's assets by identifier.
    private func importInto(
        _ arguments: [String], library: String? = nil
    ) throws -> (status: Int32, report: [String: Any], assets: [String: [String: Any]], library: String, error: String) {
        let directory = try library ?? (try TestScratch.folder("import-library")) + "/library"
        let run = try LivePairBinary.run(["import", "--json", "--library", directory] + arguments)
        let report = try LivePairBinary.json(run.output)
        let list = try LivePairBinary.run(["library", "list", "--json", "--library", directory])
        let assets = try #require(try LivePairBinary.json(list.output)["assets"] as? [[String: Any]])
        let byIdentifier = Dictionary(uniqueKeysWithValues: assets.map { ($0["localIdentifier"] as? String ?? "", $0) })
        return (run.status, report, byIdentifier, directory, run.error)
    }

    /// The file entries of an import report by tree path.
    private func files(_ report: [String: Any]) -> [String: [String: Any]] {
        let files = report["files"] as? [[String: Any]] ?? []
        return Dictionary(files.map { ($0["path"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What a test expects of one asset.
    struct Expected {
        var live: Bool
        var date: String
        var latitude: Double?
        var longitude: Double?
        var favourite = false
        var hidden = false
        var caption: String?
        var albums: [String] = []
    }

    private func check(_ asset: [String: Any]?, _ want: Expected, _ label: String) {
        guard let asset else {
            Issue.record("no asset for \(label)")
            return
        }
        #expect((asset["mediaSubtypes"] as? [String] ?? []).contains("photoLive") == want.live, "\(label)")
        #expect(asset["creationDate"] as? String == want.date, "\(label)")
        let location = asset["location"] as? [String: Double]
        #expect(abs((location?["latitude"] ?? .nan) - (want.latitude ?? .nan)) < 1e-9 || location == nil && want.latitude == nil, "\(label)")
        #expect(abs((location?["longitude"] ?? .nan) - (want.longitude ?? .nan)) < 1e-9 || location == nil && want.longitude == nil, "\(label)")
        #expect(asset["isFavorite"] as? Bool == want.favourite, "\(label)")
        #expect(asset["isHidden"] as? Bool == want.hidden, "\(label)")
        #expect(asset["caption"] as? String == want.caption, "\(label)")
        #expect(asset["albums"] as? [String] == want.albums, "\(label)")
    }

    @Test("a Takeout in a zip and a tgz part: every pair linked, sidecar metadata and the album applied, every file's end reported")
    func takeoutParts() throws {
        let (status, report, assets, _, error) = try importInto(Self.takeoutParts)
        #expect(status == 0, "\(error)")
        #expect(report["layout"] as? String == "takeout")
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == 33)
        #expect(summary["media"] as? Int == 14 && summary["imported"] as? Int == 14)
        #expect(summary["sidecars"] as? Int == 10 && summary["albumMetadata"] as? Int == 1 && summary["ignored"] as? Int == 8)
        #expect(summary["assets"] as? Int == 10 && summary["livePhotos"] as? Int == 3 && summary["motionPhotos"] as? Int == 1)
        #expect(summary["edits"] as? Int == 1 && summary["albums"] as? Int == 1 && summary["sidecarDatesApplied"] as? Int == 5)
        // IMG_3582 (its still's JSON and both halves read: ingested while the parts streamed; its
        // -edited render joined it after the plan); the others wait for the plan (cut sidecar
        // names, a stem-and-time pair, photos without a movie).
        #expect(summary["ingestedWhileReading"] as? Int == 1)
        #expect(report["problems"] as? [String] == [])
        #expect(
            summary["ignoredReasons"] as? [String: Int]
                == ["duplicate": 4, "not-a-sidecar": 1, "not-media": 1, "sidecar-without-media": 1, "trashed": 1])
        let files = files(report)
        #expect(files.count == 33)
        for (path, file) in files {
            let disposition = file["disposition"] as? String ?? ""
            #expect(["media", "sidecar", "album-metadata", "ignored"].contains(disposition), "\(path)")
            if disposition == "media" { #expect(file["outcome"] as? String == "accepted" && file["asset"] != nil, "\(path)") }
            if disposition == "ignored" { #expect(file["reason"] != nil, "\(path)") }
        }
        func asset(_ path: String) -> [String: Any]? { (files[Self.g + path]?["asset"] as? String).flatMap { assets[$0] } }
        let g = "Photos from "
        // Paired by stem and time (the movie lost its identifier): one Live Photo, both files in it.
        #expect(files[Self.g + g + "2021/train.jpg"]?["asset"] as? String == files[Self.g + g + "2021/train.MP4"]?["asset"] as? String)
        #expect(files[Self.g + g + "2025/IMG_3582.mov"]?["asset"] as? String == files[Self.g + g + "2025/IMG_3582.HEIC"]?["asset"] as? String)
        // The -edited render went into its original's asset.
        #expect(
            files[Self.g + g + "2025/IMG_3582-edited.HEIC"]?["asset"] as? String == files[Self.g + g + "2025/IMG_3582.HEIC"]?["asset"] as? String)
        // A still and a movie sharing a stem, captured five years apart: never linked.
        #expect(files[Self.g + g + "2016/IMG_3539.HEIC"]?["asset"] as? String != files[Self.g + g + "2016/IMG_3539.MOV"]?["asset"] as? String)
        check(
            asset(g + "2021/train.jpg"),
            Expected(live: true, date: "2021-04-10T10:44:00.814Z", latitude: 48.8584, longitude: 2.2945, favourite: true, caption: "Le train",
                albums: ["Voyage à Paris"]), "train")
        check(
            asset(g + "2025/IMG_3582.HEIC"),
            Expected(live: true, date: "2025-05-26T14:27:06.603Z", latitude: 34.66477222222222, longitude: -86.47038333333333, favourite: true),
            "IMG_3582")
        check(
            asset(g + "2025/IMG_4580_sunset_lake_x.HEIC"),
            Expected(live: true, date: "2025-08-17T19:33:48.000Z", latitude: 45.4408, longitude: 12.3155, caption: "Lake at sunset"), "lake")
        check(
            asset(g + "2025/Photo_of_harbour_at_dawn_IMG_2682_x.heic"),
            Expected(live: false, date: "2019-03-21T11:04:22.000Z", latitude: -33.8568, longitude: 151.2153, hidden: true), "harbour")
        check(
            asset(g + "2021/20230323_101938_a_very_long_name_from_a_web_upload_IMG_1853.HEIC"),
            Expected(live: false, date: "2023-03-23T10:19:38.000Z", latitude: 51.5007, longitude: -0.1246), "cut stem")
        check(
            asset(g + "2021/PXL_20200710_061629144.MP.jpg"),
            Expected(live: true, date: "2020-07-10T06:16:29.238Z", latitude: 37.422, longitude: -122.0841), "motion photo")
        check(asset(g + "2021/IMG_2927.HEIC"), Expected(live: false, date: "2020-05-04T18:39:11.000Z"), "IMG_2927")
        check(
            asset(g + "2021/IMG_2927(1).HEIC"),
            Expected(live: false, date: "2020-05-04T16:39:12.000Z", latitude: 47.207124055563895, longitude: 106.24310509584444), "(1) copy")
        // No sidecar date: the file's own.
        check(
            asset(g + "2016/IMG_3539.HEIC"),
            Expected(live: false, date: "2021-08-06T18:32:22.397Z", latitude: 36.11215277777778, longitude: -115.17070833333334), "IMG_3539")
        #expect(files[Self.g + g + "2016/with-gps.mov"]?["reason"] as? String == "trashed")
        #expect(files[Self.g + "Voyage à Paris/métadonnées.json"]?["album"] as? String == "Voyage à Paris")
        #expect(assets.count == 10)
    }

    @Test("importing the same Takeout again adds nothing: every media file is a duplicate of its asset")
    func takeoutAgain() throws {
        let first = try importInto(Self.takeoutParts)
        let second = try importInto(Self.takeoutParts, library: first.library)
        #expect(second.status == 0, "\(second.error)")
        let summary = try #require(second.report["summary"] as? [String: Any])
        #expect(summary["imported"] as? Int == 0 && summary["duplicates"] as? Int == 14)
        #expect(Set(second.assets.keys) == Set(first.assets.keys))
        #expect(second.assets.values.filter { ($0["albums"] as? [String]) == ["Voyage à Paris"] }.count == 1)
    }

    @Test("old Takeout names (NAME.ext.json, STEM.json for the movie): the Live Photo and its sidecar metadata")
    func takeoutOldNames() throws {
        let (status, report, assets, _, error) = try importInto([Self.exports + "/takeout-old"])
        #expect(status == 0, "\(error)")
        #expect(report["layout"] as? String == "takeout")
        let files = files(report)
        #expect(files.count == 6)
        let folder = Self.exports + "/takeout-old/Takeout/Google Photos/Photos from 2019/"
        #expect(files[folder + "IMG_5100.json"]?["disposition"] as? String == "sidecar")
        #expect(files[folder + "IMG_5100.jpeg"]?["asset"] as? String == files[folder + "IMG_5100.mov"]?["asset"] as? String)
        check(
            (files[folder + "IMG_5100.jpeg"]?["asset"] as? String).flatMap { assets[$0] },
            Expected(live: true, date: "2019-12-30T03:01:15.000Z", latitude: 37.7749, longitude: -122.4194, favourite: true, caption: "Night walk"),
            "IMG_5100")
        // geoData 0,0 is no place: the file's own GPS stays; the sidecar's date wins over the file's.
        check(
            (files[folder + "IMG_0102.HEIC"]?["asset"] as? String).flatMap { assets[$0] },
            Expected(
                live: false, date: "2010-01-01T00:00:00.000Z", latitude: 36.11215277777778, longitude: -115.17070833333334,
                caption: "Old friends"), "IMG_0102")
    }

    @Test("an iCloud Photos export: CSV favourites, hidden and dates, two album CSVs, a deleted file and Memories reported")
    func icloud() throws {
        let (status, report, assets, _, error) = try importInto([Self.exports + "/icloud"])
        #expect(status == 0, "\(error)")
        #expect(report["layout"] as? String == "icloud")
        let root = Self.exports + "/icloud/iCloud Photos/"
        let files = files(report)
        #expect(files.count == 11)
        #expect(files[root + "Photos/Photo Details.csv"]?["disposition"] as? String == "sidecar")
        #expect(files[root + "Photos/Photo Details-1.csv"]?["disposition"] as? String == "sidecar")
        #expect(files[root + "Albums/Holidays.csv"]?["album"] as? String == "Holidays")
        #expect(files[root + "Photos/pixel_8.jpg"]?["reason"] as? String == "deleted")
        #expect(files[root + "Memories/Summer 2025.csv"]?["reason"] as? String == "memories")
        func asset(_ name: String) -> [String: Any]? { (files[root + "Photos/" + name]?["asset"] as? String).flatMap { assets[$0] } }
        #expect(files[root + "Photos/IMG_4580.mov"]?["asset"] as? String == files[root + "Photos/IMG_4580.HEIC"]?["asset"] as? String)
        let lake = try #require(asset("IMG_4580.HEIC"))
        #expect(lake["isFavorite"] as? Bool == true && (lake["mediaSubtypes"] as? [String]) == ["photoLive"])
        #expect(lake["albums"] as? [String] == ["Family", "Holidays"])
        // No capture date in the file: the CSV's, to the minute (a name with a comma, quoted).
        check(asset("Beach, sunset.jpg"), Expected(live: false, date: "2023-10-06T12:11:00.000Z", favourite: true, albums: ["Holidays"]), "beach")
        #expect(asset("IMG_5747.HEIC")?["isHidden"] as? Bool == true)
        #expect(asset("IMG_5747.HEIC")?["creationDate"] as? String == "2025-12-13T23:39:20.108Z")
        #expect(asset("with-gps.mov")?["albums"] as? [String] == ["Family"])
        #expect(assets.count == 4)
        #expect((report["albums"] as? [[String: Any]])?.map { $0["count"] as? Int } == [3, 2])
    }

    @Test(
        "icloudpd under both movie policies, Image Capture with an edit, Smart Switch motion photos",
        arguments: [
            ("icloudpd-suffix", "icloudpd", 2, 1, 1, 0), ("icloudpd-original", "icloudpd", 2, 1, 1, 0),
            ("image-capture", "image-capture", 3, 1, 0, 0), ("smart-switch", "smart-switch", 2, 2, 0, 2),
        ])
    func fileLayouts(_ folder: String, _ layout: String, _ fileCount: Int, _ assetCount: Int, _ live: Int, _ motion: Int) throws {
        let (status, report, assets, _, error) = try importInto(["--layout", layout, Self.exports + "/" + folder])
        #expect(status == 0, "\(error)")
        #expect(report["layout"] as? String == layout)
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == fileCount && summary["imported"] as? Int == fileCount)
        #expect(summary["assets"] as? Int == assetCount && summary["livePhotos"] as? Int == live && summary["motionPhotos"] as? Int == motion)
        #expect(assets.count == assetCount)
        if folder == "image-capture" {
            #expect(assets.values.first?["hasAdjustments"] as? Bool == true)
            #expect(summary["edits"] as? Int == 1)
        }
    }

    @Test("iCloud -> library -> google-photos -> import --layout takeout: every asset comes back with its identifier, date, place, favourite, hidden flag and albums; the Live Photo's still time to the tick")
    func icloudRoundTripThroughGooglePhotos() throws {
        let (status, _, assets, library, error) = try importInto([Self.exports + "/icloud"])
        #expect(status == 0, "\(error)")
        let output = try TestScratch.folder("icloud-google") + "/google"
        let export = try LivePairBinary.run(["library", "export", "--layout", "google-photos", "--library", library, "--output", output, "--quiet"])
        #expect(export.status == 0, "\(export.output)\(export.error)")
        let (againStatus, _, again, _, againError) = try importInto(["--layout", "takeout", output])
        #expect(againStatus == 0, "\(againError)")
        /// What must survive the trip, keyed by content identifier (or date, for a file without one).
        func facts(_ assets: [String: [String: Any]]) -> [String: String] {
            Dictionary(uniqueKeysWithValues: assets.values.map { asset in
                let key = asset["contentIdentifier"] as? String ?? asset["creationDate"] as? String ?? "?"
                let location = (asset["location"] as? [String: Double]).map { String(format: "%.8f,%.8f", $0["latitude"] ?? 0, $0["longitude"] ?? 0) }
                let fields: [String] = [
                    asset["mediaType"] as? String ?? "?", (asset["mediaSubtypes"] as? [String] ?? []).contains("photoLive") ? "live" : "-",
                    asset["creationDate"] as? String ?? "-", location ?? "-", "favourite=\(asset["isFavorite"] as? Bool ?? false)",
                    "hidden=\(asset["isHidden"] as? Bool ?? false)", (asset["albums"] as? [String] ?? []).sorted().joined(separator: "+"),
                ]
                return (key, fields.joined(separator: " "))
            })
        }
        #expect(assets.count == 4)
        #expect(facts(again) == facts(assets))
        // The Live Photo (IMG_4580, a motion photo in Google's layout) converted back keeps its still time.
        let live = try #require(assets.values.first { ($0["mediaSubtypes"] as? [String] ?? []).contains("photoLive") })
        let identifier = try #require(live["contentIdentifier"] as? String)
        let motion = try #require(FileManager.default.enumerator(atPath: output)?.allObjects.compactMap { $0 as? String }.first {
            $0.hasSuffix("IMG_4580.HEIC") && !$0.contains("/Holidays/") && !$0.contains("/Family/")
        })
        let back = try TestScratch.folder("icloud-google-back")
        let converted = try LivePairBinary.run(["convert", "--to", "live-photo", output + "/" + motion, "--output", back])
        #expect(converted.status == 0, "\(converted.error)")
        let movie = ResourceIdentifier().identify(path: back + "/IMG_4580.MOV")
        let original = ResourceIdentifier().identify(path: SampleMedia.path("live/IMG_4580.mov"))
        #expect(movie.contentIdentifier?.rawValue == identifier)
        #expect(abs((movie.stillImageTime ?? -1) - (original.stillImageTime ?? -2)) < 1e-9, "\(movie.stillImageTime ?? -1)")
    }

    @Test("validate reads the Takeout parts as its layout's plan: the stem-and-time pair is checked as a pair")
    func validateParts() throws {
        let run = try LivePairBinary.run(["validate", "--json", "--layout", "takeout"] + Self.takeoutParts)
        #expect(run.status == 1, "\(run.error)")
        let object = try LivePairBinary.json(run.output)
        #expect(object["summary"] as? [String: Int] == ["assets": 7, "files": 3, "error": 1, "warning": 5, "info": 2])
        let assets = try #require(object["assets"] as? [[String: Any]])
        let train = try #require(assets.first { $0["photo"] as? String == Self.g + "Photos from 2021/train.jpg" })
        #expect(train["kind"] as? String == "live-photo" && train["status"] as? String == "invalid")
        #expect(train["video"] as? String == Self.g + "Photos from 2021/train.MP4")
        let lake = try #require(assets.first { $0["photo"] as? String == Self.g + "Photos from 2025/IMG_4580_sunset_lake_x.HEIC" })
        #expect(lake["status"] as? String == "valid")
    }

    @Test("the layout is detected from the folder's contents")
    func detection() throws {
        let (_, report, _, _, _) = try importInto([Self.exports + "/icloud"])
        #expect(report["layout"] as? String == "icloud")
        let pair = try LivePairBinary.run(["pair", "--json", Self.exports + "/icloud"])
        let plan = try LivePairBinary.json(pair.output)
        #expect(plan["layout"] as? String == "icloud")
        #expect((plan["summary"] as? [String: Int])?["assets"] == 4)
        #expect((plan["albums"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Family", "Holidays"])
        let bad = try LivePairBinary.run(["import", "--library", try TestScratch.folder("bad") + "/l", "--layout", "picasa", Self.exports])
        #expect(bad.status == 64)
        #expect(bad.error.contains("use plain, takeout, icloud, icloudpd, image-capture, smart-switch"))
    }
}
