import Foundation
import TestSupport
import Testing

/// `livepair pair` on a Google Takeout export built from SampleMedia/ (Tests/Fixtures/takeout/
/// make_takeout.py): one zip and one tgz part, one asset's still, movie and JSON spread over them.
@Suite("livepair pair on a Google Takeout in two parts: sidecars, albums, pairs across parts, every file accounted for")
struct TakeoutPairCommandTests {
    /// The two parts, built once for the suite.
    static let parts: [String] = {
        do {
            return try ArchiveFixtures.takeout(in: try TestScratch.folder("takeout"))
        } catch {
            Issue.record("the Takeout fixture could not be built: \(error)")
            return []
        }
    }()

    static let g = "Takeout/Google Photos/"

    private func pairJSON(_ arguments: [String]) throws -> (status: Int32, object: [String: Any], error: String) {
        let run = try LivePairBinary.run(["pair", "--json"] + arguments)
        return (run.status, try LivePairBinary.json(run.output), run.error)
    }

    @Test("the layout is detected; each asset has its halves, date, place, favourite, caption, album and sidecar rule")
    func assets() throws {
        let (status, object, error) = try pairJSON(Self.parts)
        #expect(status == 0, "\(error)")
        #expect(object["layout"] as? String == "takeout")
        let assets = try #require(object["assets"] as? [[String: Any]])
        let byPath = Dictionary(uniqueKeysWithValues: assets.map { (($0["photo"] as? String ?? $0["video"] as? String) ?? "", $0) })
        let g = Self.g
        // path -> kind, video, pairedBy, identifier, date, date source, latitude, longitude, favourite, hidden, caption, albums, rule
        typealias Expected = (
            kind: String, video: String?, pairedBy: String?, identifier: String?, date: String, source: String,
            latitude: Double?, longitude: Double?, favourite: Bool, hidden: Bool, caption: String?, albums: [String], rule: String?
        )
        // A sidecar date in the same second as the file's own (with its offset) gives way to the
        // file's, which has the fraction: source "file" (docs/exports.md, Precedence).
        let expected: [String: Expected] = [
            g + "Photos from 2021/train.jpg": (
                "live-photo", g + "Photos from 2021/train.MP4", "stem-and-time", "E905E6C6-C747-4805-942F-9904A0281F02",
                "2021-04-10T11:44:00.814+01:00", "file", 48.8584, 2.2945, true, false, "Le train", ["Voyage à Paris"], "supplemental-metadata"
            ),
            g + "Photos from 2025/IMG_3582.HEIC": (
                "live-photo", g + "Photos from 2025/IMG_3582.mov", "identifier", "602FEBB7-6B59-4799-96E6-9C8484D873C7",
                "2025-05-26T09:27:06.603-05:00", "file", 34.66477222222222, -86.47038333333333, true, false, nil, [], "supplemental-metadata"
            ),
            g + "Photos from 2025/IMG_4580_sunset_lake_x.HEIC": (
                "live-photo", g + "Photos from 2025/IMG_4580_sunset_lake_x.mov", "identifier",
                "4E1A1B89-CE70-4FF8-873B-E4470B839314", "2025-08-17T19:33:48Z", "sidecar", 45.4408, 12.3155, false, false,
                "Lake at sunset", [], "truncated"
            ),
            g + "Photos from 2025/Photo_of_harbour_at_dawn_IMG_2682_x.heic": (
                "photo", nil, nil, nil, "2019-03-21T11:04:22Z", "sidecar", -33.8568, 151.2153, false, true, nil, [], "truncated"
            ),
            g + "Photos from 2021/20230323_101938_a_very_long_name_from_a_web_upload_IMG_1853.HEIC": (
                "photo", nil, nil, nil, "2023-03-23T10:19:38Z", "sidecar", 51.5007, -0.1246, false, false, nil, [], "truncated"
            ),
            g + "Photos from 2021/PXL_20200710_061629144.MP.jpg": (
                "motion-photo", nil, nil, nil, "2020-07-10T06:16:29.237898Z", "file", 37.422, -122.0841, false, false, nil, [], "truncated"
            ),
            g + "Photos from 2021/IMG_2927.HEIC": (
                "photo", nil, nil, nil, "2020-05-04T18:39:11Z", "sidecar", nil, nil, false, false, nil, [], "exact"
            ),
            g + "Photos from 2021/IMG_2927(1).HEIC": (
                "photo", nil, nil, nil, "2020-05-04T16:39:12Z", "sidecar", 47.207124055563895, 106.24310509584444, false, false, nil,
                [], "exact"
            ),
            // Same stem, captured five years apart: never paired.
            g + "Photos from 2016/IMG_3539.HEIC": (
                "photo", nil, nil, nil, "2021-08-06T11:32:22.397-07:00", "file", 36.11215277777778, -115.17070833333334, false,
                false, nil, [], nil
            ),
            g + "Photos from 2016/IMG_3539.MOV": (
                "video", nil, nil, nil, "2016-01-18T15:20:40-07:00", "file", nil, nil, false, false, nil, [], nil
            ),
        ]
        #expect(Set(byPath.keys) == Set(expected.keys))
        for (path, want) in expected {
            let asset = try #require(byPath[path], "\(path)")
            #expect(asset["kind"] as? String == want.kind, "\(path)")
            if want.kind == "video" {
                #expect(asset["video"] as? String == path)
            } else {
                #expect(asset["video"] as? String == want.video, "\(path)")
            }
            #expect(asset["pairedBy"] as? String == want.pairedBy, "\(path)")
            #expect(asset["contentIdentifier"] as? String == want.identifier, "\(path)")
            #expect(asset["creationDate"] as? String == want.date, "\(path)")
            #expect(asset["creationDateSource"] as? String == want.source, "\(path)")
            let location = asset["location"] as? [String: Double]
            // Read back through Foundation's JSON parser, which may round the last bit.
            #expect(abs((location?["latitude"] ?? .nan) - (want.latitude ?? .nan)) < 1e-9 || location == nil && want.latitude == nil, "\(path)")
            #expect(abs((location?["longitude"] ?? .nan) - (want.longitude ?? .nan)) < 1e-9 || location == nil && want.longitude == nil, "\(path)")
            #expect(asset["favorite"] as? Bool == want.favourite, "\(path)")
            #expect(asset["hidden"] as? Bool == want.hidden, "\(path)")
            #expect(asset["caption"] as? String == want.caption, "\(path)")
            #expect(asset["albums"] as? [String] == want.albums, "\(path)")
            #expect(asset["sidecarRule"] as? String == want.rule, "\(path)")
        }
        #expect(byPath[g + "Photos from 2025/IMG_3582.HEIC"]?["render"] as? String == g + "Photos from 2025/IMG_3582-edited.HEIC")
        let albums = try #require(object["albums"] as? [[String: Any]])
        #expect(albums.count == 1)
        #expect(albums.first?["title"] as? String == "Voyage à Paris")
        #expect(albums.first?["members"] as? [String] == [g + "Photos from 2021/train.jpg"])
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(
            summary == [
                "files": 33, "assets": 10, "livePhotos": 3, "pairedByStemAndTime": 1, "motionPhotos": 1, "photos": 5, "videos": 1,
                "edits": 1, "albums": 1, "sidecars": 10, "sidecarDates": 5, "ignored": 8,
            ])
    }

    @Test("every member of both parts ends as media, sidecar, album metadata or ignored with its reason")
    func everyFile() throws {
        let (_, object, _) = try pairJSON(["--layout", "takeout"] + Self.parts)
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.count == 33)
        let g = Self.g
        let zip = Self.parts[0] + ":", tgz = Self.parts[1] + ":"
        var ends: [String: String] = [:]
        for file in files {
            let path = file["path"] as? String ?? ""
            let disposition = file["disposition"] as? String ?? ""
            ends[path] = disposition + ((file["reason"] as? String).map { " " + $0 } ?? "")
        }
        #expect(ends[g + "Photos from 2016/with-gps.mov"] == "ignored trashed")
        // The same bytes under another name, recognised by the digest taken while the part streamed.
        #expect(ends[g + "Photos from 2016/IMG_3539_copy.HEIC"] == "ignored duplicate")
        // Takeout's split of the motion photo: the loose MP4 equals its embedded video.
        #expect(ends[g + "Photos from 2021/PXL_20200710_061629144.MP4"] == "ignored duplicate")
        #expect(
            files.first { $0["path"] as? String == g + "Photos from 2021/PXL_20200710_061629144.MP4" }?["asset"] as? String
                == g + "Photos from 2021/PXL_20200710_061629144.MP.jpg")
        #expect(
            files.first { $0["path"] as? String == g + "Photos from 2016/IMG_3539_copy.HEIC" }?["asset"] as? String
                == g + "Photos from 2016/IMG_3539.HEIC")
        #expect(ends[g + "Photos from 2016/with-gps.mov.json"] == "sidecar")
        #expect(ends[g + "Photos from 2016/gone.jpg.json"] == "ignored sidecar-without-media")
        #expect(ends[g + "Voyage à Paris/train.jpg"] == "ignored duplicate")
        #expect(ends[g + "Voyage à Paris/train.MP4"] == "ignored duplicate")
        #expect(ends[g + "Voyage à Paris/train.jpg.supplemental-metadata.json"] == "sidecar")
        #expect(ends[g + "Voyage à Paris/métadonnées.json"] == "album-metadata")
        #expect(ends[g + "print-subscriptions.json"] == "ignored not-a-sidecar")
        #expect(ends["Takeout/archive_browser.html"] == "ignored not-media")
        #expect(ends[g + "Photos from 2025/IMG_3582-edited.HEIC"] == "media")
        #expect(ends.values.filter { $0 == "media" }.count == 14)
        #expect(ends.values.filter { $0 == "sidecar" }.count == 10)
        // Where each was read: the part and the member.
        let locations = Dictionary(uniqueKeysWithValues: files.map { ($0["path"] as? String ?? "", $0["location"] as? String ?? "") })
        #expect(locations[g + "Photos from 2025/IMG_4580_sunset_lake_x.HEIC"] == zip + g + "Photos from 2025/IMG_4580_sunset_lake_x.HEIC")
        #expect(locations[g + "Photos from 2025/IMG_4580_sunset_lake_x.mov"] == tgz + g + "Photos from 2025/IMG_4580_sunset_lake_x.mov")
        let sidecarOwner = files.first { ($0["path"] as? String)?.hasSuffix("IMG_4580_sunset_lake_x.HEIC.supplemental-metad.json") == true }
        #expect(sidecarOwner?["asset"] as? String == g + "Photos from 2025/IMG_4580_sunset_lake_x.HEIC")
    }

    @Test("the text report names how each Live Photo was paired, the album and each ignored file with its reason")
    func textReport() throws {
        let run = try LivePairBinary.run(["pair"] + Self.parts)
        #expect(run.status == 0)
        let g = Self.g
        #expect(run.output.contains("live-photo  \(g)Photos from 2021/train.jpg + \(g)Photos from 2021/train.MP4  [paired by stem-and-time]"))
        #expect(run.output.contains("  Voyage à Paris (1 asset)  \(g)Voyage à Paris\n"))
        #expect(run.output.contains("  trashed  \(Self.parts[1]):\(g)Photos from 2016/with-gps.mov\n"))
        #expect(
            run.output.hasSuffix(
                "33 files, 10 assets, 3 livePhotos, 1 pairedByStemAndTime, 1 motionPhotos, 5 photos, 1 videos, 1 edits, 1 albums, "
                    + "10 sidecars, 5 sidecarDates, 8 ignored\n"))
    }

    @Test("--layout plain pairs the merged tree by identifier only: the halves in different parts still meet")
    func plainLayout() throws {
        let (status, object, _) = try pairJSON(["--layout", "plain"] + Self.parts)
        #expect(status == 0)
        let pairs = try #require(object["pairs"] as? [[String: Any]])
        let g = Self.g
        #expect(
            pairs.map { ($0["photo"] as? String ?? "") + " + " + ($0["video"] as? String ?? "") } == [
                g + "Photos from 2025/IMG_3582.HEIC + " + g + "Photos from 2025/IMG_3582.mov",
                g + "Photos from 2025/IMG_4580_sunset_lake_x.HEIC + " + g + "Photos from 2025/IMG_4580_sunset_lake_x.mov",
            ])
    }

    @Test("the same export unpacked into a folder gives the same assets")
    func unpackedFolder() throws {
        let folder = try TestScratch.folder("takeout-unpacked")
        try ArchiveFixtures.python(
            program: """
                import sys, tarfile, zipfile
                zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[3])
                tarfile.open(sys.argv[2]).extractall(sys.argv[3])
                """, Self.parts + [folder])
        let (status, object, _) = try pairJSON([folder])
        #expect(status == 0)
        let assets = try #require(object["assets"] as? [[String: Any]])
        #expect(assets.count == 10)
        let train = assets.first { ($0["photo"] as? String)?.hasSuffix("Photos from 2021/train.jpg") == true }
        #expect(train?["pairedBy"] as? String == "stem-and-time")
        #expect(train?["albums"] as? [String] == ["Voyage à Paris"])
        #expect((object["summary"] as? [String: Int])?["files"] == 33)
        // In a folder the copy is found by Pairing's byte comparison.
        let copy = (object["files"] as? [[String: Any]])?.first { ($0["path"] as? String)?.hasSuffix("/IMG_3539_copy.HEIC") == true }
        #expect(copy?["reason"] as? String == "duplicate")
        let split = (object["files"] as? [[String: Any]])?.first {
            ($0["path"] as? String)?.hasSuffix("/PXL_20200710_061629144.MP4") == true
        }
        #expect(split?["reason"] as? String == "duplicate")
    }

    @Test("a hostile part: unsafe names and links reported, never read; a damaged part is an error, the rest still reported")
    func hostilePart() throws {
        let folder = try TestScratch.folder("takeout-hostile")
        let part = folder + "/takeout-20261201T000000Z-003.tgz"
        try ArchiveFixtures.python(
            program: """
                import io, sys, tarfile
                with tarfile.open(sys.argv[1], 'w:gz') as t:
                    for name in ['../../escape.jpg', '/etc/absolute.jpg', 'Takeout/Google Photos/x/../../../up.jpg']:
                        info = tarfile.TarInfo(name); info.size = 1; t.addfile(info, io.BytesIO(b'x'))
                    link = tarfile.TarInfo('Takeout/Google Photos/Photos from 2021/link.jpg')
                    link.type = tarfile.SYMTYPE; link.linkname = '/etc/passwd'; t.addfile(link)
                """, [part])
        let broken = folder + "/takeout-20261201T000000Z-004.zip"
        try Data("PK\u{3}\u{4} not really a zip".utf8).write(to: URL(fileURLWithPath: broken))
        let (status, object, error) = try pairJSON(Self.parts + [part, broken])
        #expect(status == 1)
        #expect(error.contains("Error: \(broken): damaged: "))
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.count == 37)
        let reasons = Dictionary(uniqueKeysWithValues: files.map { ($0["location"] as? String ?? "", $0["reason"] as? String ?? "") })
        #expect(reasons[part + ":../../escape.jpg"] == "unsafe-name")
        #expect(reasons[part + ":/etc/absolute.jpg"] == "unsafe-name")
        #expect(reasons[part + ":Takeout/Google Photos/x/../../../up.jpg"] == "unsafe-name")
        #expect(reasons[part + ":Takeout/Google Photos/Photos from 2021/link.jpg"] == "not-a-regular-file")
        #expect((object["assets"] as? [Any])?.count == 10)
    }
}
