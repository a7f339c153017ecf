import Foundation
import LivePairCore
import LivePairFormats
import LivePairLibrary
import TestSupport
import Testing

/// `livepair library export --layout apple-photos|google-photos|folder` and `livepair migrate`, on
/// a library of the real sample files: an edited Live Photo (IMG_3582), an edited photo
/// (IMG_1853), a Live Photo whose date and place the library changed as a Takeout sidecar would
/// (train), a Pixel motion photo, and an album (docs/exports.md, "Export layouts").
@Suite("library export --layout and migrate, through the executable")
struct LibraryLayoutExportCommandTests {
    /// The date and place given to train's asset (a sidecar's, unlike the file's own).
    static let trainDate = Date(timeIntervalSince1970: 1_580_702_706.789)  // 2020-02-03T04:05:06.789Z
    static let trainPlace = AssetLocation(latitude: 48.858_370_5, longitude: 2.294_481_3)
    static let trainIdentifier = "E905E6C6-C747-4805-942F-9904A0281F02"
    static let album = "Voyage à Paris"
    static let caption = "Le train de 11 h 44, \"direct\""

    /// The inbox of the sample files, as an iPhone's Image Capture import names an edit.
    static func inbox(_ workspace: SampleVariants.Workspace) throws -> String {
        for (file, name) in [
            ("live/IMG_3582.HEIC", "IMG_3582.HEIC"), ("live/IMG_3582.mov", "IMG_3582.mov"),
            ("live/IMG_3582_edited.heic", "IMG_E3582.HEIC"), ("live/IMG_3582_edited.mov", "IMG_E3582.MOV"),
            ("live/IMG_3582.AAE", "IMG_3582.AAE"), ("live/IMG_1853.HEIC", "IMG_1853.HEIC"),
            ("live/IMG_E1853.heic", "IMG_E1853.heic"), ("live/IMG_1853.AAE", "IMG_1853.AAE"),
            ("live/train.jpg", "train.jpg"), ("live/train.mov", "train.mov"),
            ("motion/PXL_20200710_061629144.MP.jpg", "PXL_20200710_061629144.MP.jpg"),
        ] {
            _ = try workspace.copy(file, as: "inbox/" + name)
        }
        return workspace.url.appendingPathComponent("inbox").path
    }

    /// A library of the inbox (IMG_1853, whose still has no movie, settled), with train's date,
    /// place and favourite changed and the album holding train and IMG_3582.
    static func library(_ workspace: SampleVariants.Workspace) throws -> String {
        let path = workspace.url.appendingPathComponent("library").path
        let imported = try LivePairBinary.run(["import", "--quiet", "--library", path, try inbox(workspace)])
        try #require(imported.status == 0, "\(imported.error)")
        try #require(try LivePairBinary.run(["library", "settle", "--older-than", "0s", "--library", path]).status == 0)
        let library = try PhotoLibrary.open(at: path)
        let assets = Array(try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true)))
        try #require(assets.count == 4)
        let train = try #require(assets.first { $0.contentIdentifier == trainIdentifier })
        let edited = try #require(assets.first { $0.contentIdentifier == "602FEBB7-6B59-4799-96E6-9C8484D873C7" })
        _ = try library.performChangesAndWait { context in
            let change = context.changeRequest(for: train)
            change.creationDate = trainDate
            change.location = trainPlace
            change.isFavorite = true
            change.caption = caption
            context.creationRequestForAssetCollection(withTitle: album).addAssets([train, edited])
        }
        return path
    }

    /// The files under `folder`, relative, sorted (hidden ones too).
    static func files(_ folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var found: [String] = []
        while let next = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + next, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(next)
            }
        }
        return found.sorted()
    }

    /// exiftool's values of `tags` (`-n -s3`, one per line).
    static func exiftool(_ path: String, _ tags: [String]) throws -> [String] {
        try ReferenceTool.run("exiftool", ["-n", "-s3"] + tags.map { "-" + $0 } + [path])
            .split(separator: "\n").map(String.init)
    }

    /// The modification time of `path`.
    static func fileTime(_ path: String) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
    }

    /// Checks what train's files must say: the identifier and still time kept, the library's date
    /// (UTC, to the millisecond) and place in the still's Exif and the movie's keys, read by
    /// LivePair's reader and by exiftool.
    static func checkTrain(still: String, movie: String) throws {
        let reader = ResourceIdentifier()
        let (photo, video) = (reader.identify(path: still), reader.identify(path: movie))
        #expect(photo.contentIdentifier?.rawValue == trainIdentifier && video.contentIdentifier?.rawValue == trainIdentifier)
        #expect(abs((video.stillImageTime ?? -1) - 0.48) < 1e-9, "\(video.stillImageTime ?? -1)")
        #expect(photo.captureDate == CaptureDate(year: 2020, month: 2, day: 3, hour: 4, minute: 5, second: 6, nanoseconds: 789_000_000, utcOffsetMinutes: 0))
        #expect(video.captureDate == CaptureDate(year: 2020, month: 2, day: 3, hour: 4, minute: 5, second: 6, nanoseconds: 789_000_000, utcOffsetMinutes: 0))
        for (name, location) in [("still", photo.location), ("movie", video.location)] {
            let read = try #require(location, "\(name) has no place")
            #expect(abs(read.latitude - trainPlace.latitude) < 1e-8 && abs(read.longitude - trainPlace.longitude) < 1e-8, "\(name): \(read)")
        }
        #expect(try exiftool(still, ["MediaGroupUUID", "DateTimeOriginal", "SubSecTimeOriginal", "OffsetTimeOriginal"])
            == [trainIdentifier, "2020:02:03 04:05:06", "789", "+00:00"])
        let gps = try exiftool(still, ["GPSLatitude", "GPSLongitude"]).compactMap(Double.init)
        #expect(gps.count == 2 && abs(gps[0] - trainPlace.latitude) < 1e-8 && abs(gps[1] - trainPlace.longitude) < 1e-8, "\(gps)")
        #expect(try exiftool(movie, ["Keys:ContentIdentifier", "Keys:CreationDate", "Keys:GPSCoordinates"])
            == [trainIdentifier, "2020:02:03 04:05:06.789+00:00", "48.8583705 2.2944813"])
    }

    @Test("apple-photos (--for-photos): Live Photos with one identifier, IMG_E renders and .AAE under Photos' names, originals byte for byte, the library's date and place written, file times, album folders")
    func applePhotos() throws {
        let workspace = try SampleVariants.Workspace()
        let library = try Self.library(workspace)
        let output = workspace.url.appendingPathComponent("photos").path
        let run = try LivePairBinary.run(["library", "export", "--for-photos", "--library", library, "--output", output, "--json", "--quiet"])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(Self.files(output) == [
            "IMG_1853.AAE", "IMG_1853.HEIC", "IMG_E1853.HEIC", "PXL_20200710_061629144.JPG", "PXL_20200710_061629144.MOV",
            "Voyage à Paris/IMG_3582.AAE", "Voyage à Paris/IMG_3582.HEIC", "Voyage à Paris/IMG_3582.MOV",
            "Voyage à Paris/IMG_E3582.HEIC", "Voyage à Paris/IMG_E3582.MOV", "Voyage à Paris/train.JPG", "Voyage à Paris/train.MOV",
        ])
        // The edit groups: originals, renders and adjustment data byte for byte.
        for (written, sample) in [
            ("IMG_1853.HEIC", "live/IMG_1853.HEIC"), ("IMG_E1853.HEIC", "live/IMG_E1853.heic"), ("IMG_1853.AAE", "live/IMG_1853.AAE"),
            ("Voyage à Paris/IMG_3582.HEIC", "live/IMG_3582.HEIC"), ("Voyage à Paris/IMG_3582.MOV", "live/IMG_3582.mov"),
            ("Voyage à Paris/IMG_E3582.HEIC", "live/IMG_3582_edited.heic"), ("Voyage à Paris/IMG_3582.AAE", "live/IMG_3582.AAE"),
        ] {
            #expect(FileManager.default.contents(atPath: output + "/" + written) == Data(try SampleMedia.bytes(sample)), "\(written)")
        }
        try Self.checkTrain(still: output + "/Voyage à Paris/train.JPG", movie: output + "/Voyage à Paris/train.MOV")
        // The motion photo became a Live Photo with its identifier on both halves.
        let reader = ResourceIdentifier()
        let pixel = [output + "/PXL_20200710_061629144.JPG", output + "/PXL_20200710_061629144.MOV"].map(reader.identify(path:))
        #expect(pixel[0].contentIdentifier != nil && pixel[0].contentIdentifier == pixel[1].contentIdentifier)
        #expect(try Self.exiftool(output + "/PXL_20200710_061629144.JPG", ["MediaGroupUUID"])
            == [try #require(pixel[0].contentIdentifier?.rawValue)])
        // File times are the creation dates.
        #expect(abs(try Self.fileTime(output + "/Voyage à Paris/train.MOV").timeIntervalSince(Self.trainDate)) < 0.001)
        #expect(abs(try Self.fileTime(output + "/IMG_1853.AAE").timeIntervalSince1970 - 1_679_591_978.409) < 0.001)
        let validate = try LivePairBinary.run(["validate", "--json", output + "/Voyage à Paris/train.JPG", output + "/Voyage à Paris/train.MOV"])
        #expect(validate.status == 0, "\(validate.output)")
        // The report.
        let report = try LivePairBinary.json(run.output)
        #expect(report["layout"] as? String == "apple-photos")
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(summary == ["assets": 4, "failed": 0, "files": 12, "albums": 1, "datesWritten": 1, "locationsWritten": 1])
        let assets = try #require(report["assets"] as? [[String: Any]])
        let trainEntry = try #require(assets.first { ($0["folder"] as? String) == Self.album && ($0["metadataWritten"] as? [String])?.isEmpty == false })
        #expect(trainEntry["metadataWritten"] as? [String] == ["date", "location"])
        #expect((trainEntry["files"] as? [[String: Any]])?.compactMap { $0["handling"] as? String } == ["restamped", "restamped"])

        // Round trip: the export imported again keeps identifiers, still times, dates and places.
        let again = workspace.url.appendingPathComponent("again").path
        #expect(try LivePairBinary.run(["import", "--quiet", "--library", again, output]).status == 0)
        let reimported = try PhotoLibrary.open(at: again)
        let live = Array(try reimported.fetchAssets(with: FetchOptions(predicate: .livePhotos, includeHiddenAssets: true)))
        let train = try #require(live.first { $0.contentIdentifier == Self.trainIdentifier })
        #expect(train.creationDate == Self.trainDate || abs((train.creationDate ?? .distantPast).timeIntervalSince(Self.trainDate)) < 0.0005)
        #expect(abs((train.location?.latitude ?? 0) - Self.trainPlace.latitude) < 1e-8)
        #expect(abs((train.location?.longitude ?? 0) - Self.trainPlace.longitude) < 1e-8)
        #expect(abs((train.stillImageTime ?? -1) - 0.48) < 1e-9)
        #expect(live.contains { $0.contentIdentifier == "602FEBB7-6B59-4799-96E6-9C8484D873C7" && $0.hasAdjustments })
    }

    @Test("google-photos: motion photos with the date and place in the still, Takeout sidecars, album metadata.json; imported again, identifiers, still times, dates and places are kept")
    func googlePhotos() throws {
        let workspace = try SampleVariants.Workspace()
        let library = try Self.library(workspace)
        let output = workspace.url.appendingPathComponent("google").path
        let run = try LivePairBinary.run(["library", "export", "--layout", "google-photos", "--library", library, "--output", output, "--quiet"])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let root = "Takeout/Google Photos/"
        #expect(Self.files(output) == [
            "Photos from 2020/PXL_20200710_061629144.MP.jpg", "Photos from 2020/PXL_20200710_061629144.MP.jpg.supplemental-metadata.json",
            "Photos from 2020/train.JPG", "Photos from 2020/train.JPG.supplemental-metadata.json",
            "Photos from 2023/IMG_1853-edited.heic", "Photos from 2023/IMG_1853.HEIC",
            "Photos from 2023/IMG_1853.HEIC.supplemental-metadata.json",
            "Photos from 2025/IMG_3582-edited.HEIC", "Photos from 2025/IMG_3582.HEIC", "Photos from 2025/IMG_3582.HEIC.supplemental-metadata.json",
            "Voyage à Paris/IMG_3582-edited.HEIC", "Voyage à Paris/IMG_3582.HEIC", "Voyage à Paris/IMG_3582.HEIC.supplemental-metadata.json",
            "Voyage à Paris/metadata.json", "Voyage à Paris/train.JPG", "Voyage à Paris/train.JPG.supplemental-metadata.json",
        ].map { root + $0 })
        #expect(run.output.contains("not written\t"), "the .AAE files are said not written: \(run.output)")
        let sidecar = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: output + "/" + root + "Photos from 2020/train.JPG.supplemental-metadata.json")))
                as? [String: Any])
        #expect(sidecar["title"] as? String == "train.JPG" && sidecar["description"] as? String == Self.caption)
        #expect((sidecar["photoTakenTime"] as? [String: Any])?["timestamp"] as? String == "1580702706")
        #expect((sidecar["photoTakenTime"] as? [String: Any])?["formatted"] as? String == "3 Feb 2020, 04:05:06 UTC")
        let geo = try #require(sidecar["geoData"] as? [String: Any])
        #expect(geo["latitude"] as? Double == Self.trainPlace.latitude && geo["longitude"] as? Double == Self.trainPlace.longitude)
        #expect(sidecar["favorited"] as? Bool == true)
        let album = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: output + "/" + root + "Voyage à Paris/metadata.json"))) as? [String: Any]
        #expect(album?["title"] as? String == Self.album)
        // The motion photo: one file, its still carrying the identifier, the date and the place.
        let motion = output + "/" + root + "Photos from 2020/train.JPG"
        let identity = ResourceIdentifier().identify(path: motion)
        #expect(identity.motionPhoto != nil && identity.contentIdentifier?.rawValue == Self.trainIdentifier)
        #expect(try Self.exiftool(motion, ["DateTimeOriginal", "SubSecTimeOriginal", "OffsetTimeOriginal", "MotionPhoto"])
            == ["2020:02:03 04:05:06", "789", "+00:00", "1"])
        #expect(abs(try Self.fileTime(motion).timeIntervalSince(Self.trainDate)) < 0.001)
        // An edited Live Photo's render is a motion photo of its own identifier.
        let render = ResourceIdentifier().identify(path: output + "/" + root + "Photos from 2025/IMG_3582-edited.HEIC")
        #expect(render.motionPhoto != nil && render.contentIdentifier?.rawValue.hasPrefix("87D06EAA") == true, "\(render.contentIdentifier?.rawValue ?? "none")")
        // Takeout's reader (pair --layout takeout) takes every sidecar and the album.
        let paired = try LivePairBinary.run(["pair", "--layout", "takeout", "--json", output])
        #expect(paired.status == 0, "\(paired.error)")
        #expect(!paired.output.contains("sidecar-without-media"), "\(paired.output)")

        // Round trip (the library built here; import reads the motion photos by content).
        let again = workspace.url.appendingPathComponent("again").path
        #expect(try LivePairBinary.run(["import", "--quiet", "--library", again, output + "/" + root + "Photos from 2020"]).status == 0)
        let reimported = try PhotoLibrary.open(at: again)
        let train = try #require(Array(try reimported.fetchAssets(with: FetchOptions(includeHiddenAssets: true))).first {
            $0.contentIdentifier == Self.trainIdentifier
        })
        #expect(train.isLivePhoto)
        #expect(abs((train.creationDate ?? .distantPast).timeIntervalSince(Self.trainDate)) < 0.0005)
        #expect(abs((train.location?.latitude ?? 0) - Self.trainPlace.latitude) < 1e-8)
        #expect(abs((train.location?.longitude ?? 0) - Self.trainPlace.longitude) < 1e-8)
        // The library keeps no still time for a motion photo; the motion photo keeps Apple's exact
        // time (LivePair:StillImageTime), which a conversion back gives to the tick.
        let back = workspace.url.appendingPathComponent("back").path
        #expect(try LivePairBinary.run(["convert", "--to", "live-photo", motion, "--output", back]).status == 0)
        let movie = ResourceIdentifier().identify(path: back + "/train.MOV")
        #expect(movie.contentIdentifier?.rawValue == Self.trainIdentifier)
        #expect(abs((movie.stillImageTime ?? -1) - 0.48) < 1e-9, "\(movie.stillImageTime ?? -1)")
    }

    @Test("folder --albums flat: originals under their names, edits beside them, a JSON sidecar per asset")
    func folder() throws {
        let workspace = try SampleVariants.Workspace()
        let library = try Self.library(workspace)
        let output = workspace.url.appendingPathComponent("folder").path
        let run = try LivePairBinary.run(
            ["library", "export", "--layout", "folder", "--albums", "flat", "--library", library, "--output", output, "--quiet"])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(Self.files(output) == [
            "IMG_1853.AAE", "IMG_1853.HEIC", "IMG_1853.HEIC.json", "IMG_3582.AAE", "IMG_3582.HEIC", "IMG_3582.HEIC.json",
            "IMG_3582.mov", "IMG_E1853.heic", "IMG_E3582.HEIC", "IMG_E3582.MOV", "PXL_20200710_061629144.MP.jpg",
            "PXL_20200710_061629144.MP.jpg.json", "train.jpg", "train.jpg.json", "train.mov",
        ])
        for name in ["train.jpg", "train.mov", "PXL_20200710_061629144.MP.jpg", "IMG_E1853.heic"] {
            let sample = name.hasPrefix("PXL") ? "motion/" + name : "live/" + name
            #expect(FileManager.default.contents(atPath: output + "/" + name) == Data(try SampleMedia.bytes(sample)), "\(name)")
        }
        let sidecar = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/train.jpg.json"))) as? [String: Any])
        let asset = try #require(sidecar["asset"] as? [String: Any])
        #expect(asset["creationDate"] as? String == "2020-02-03T04:05:06.789Z" && asset["isFavorite"] as? Bool == true)
        #expect(asset["contentIdentifier"] as? String == Self.trainIdentifier)
        #expect(sidecar["albums"] as? [String] == [Self.album] && sidecar["caption"] as? String == Self.caption)
        #expect((sidecar["files"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["train.jpg", "train.mov"])
    }

    @Test("--album and --since select; a missing album exits 1; wrong options are usage errors")
    func selectionAndUsage() throws {
        let workspace = try SampleVariants.Workspace()
        let library = try Self.library(workspace)
        let base = ["library", "export", "--library", library, "--quiet", "--output"]
        let album = workspace.url.appendingPathComponent("album").path
        #expect(try LivePairBinary.run(base + [album, "--layout", "apple-photos", "--album", Self.album]).status == 0)
        #expect(Self.files(album).filter { !$0.hasSuffix(".AAE") && !$0.contains("IMG_E") }
            == ["Voyage à Paris/IMG_3582.HEIC", "Voyage à Paris/IMG_3582.MOV", "Voyage à Paris/train.JPG", "Voyage à Paris/train.MOV"])
        let since = workspace.url.appendingPathComponent("since").path
        #expect(try LivePairBinary.run(base + [since, "--layout", "folder", "--albums", "flat", "--since", "2023-01-01"]).status == 0)
        #expect(Self.files(since).filter { $0.hasSuffix(".json") } == ["IMG_1853.HEIC.json", "IMG_3582.HEIC.json"])
        let missing = try LivePairBinary.run(base + [workspace.url.appendingPathComponent("none").path, "--layout", "folder", "--album", "Nope"])
        #expect(missing.status == 1 && missing.error.contains("no album is titled 'Nope'"), "\(missing.error)")
        for arguments in [["--layout", "icloud"], ["--layout", "folder", "--albums", "nested"], ["--layout", "folder", "--since", "yesterday"],
                          ["--layout", "folder", "--still", "jpeg"], ["--for-photos", "--layout", "folder"], []] {
            let run = try LivePairBinary.run(base + [workspace.url.appendingPathComponent("x").path] + arguments)
            #expect(run.status == 64, "\(arguments): \(run.error)")
        }
    }

    @Test("Takeout -> library -> apple-photos -> import: the sidecar's date, place, favourite, caption and album reach the files and come back (the library built from pair --layout takeout's report until import reads Takeout)")
    func takeoutRoundTrip() throws {
        let workspace = try SampleVariants.Workspace()
        let year = "takeout/Takeout/Google Photos/Photos from 2020/"
        _ = try workspace.copy("live/train.jpg", as: year + "train.jpg")
        _ = try workspace.copy("live/train.mov", as: year + "train.mov")
        let sidecar = """
            {"title": "train.jpg", "description": "Le train", "photoTakenTime": {"timestamp": "1580702706", "formatted": ""},
             "geoData": {"latitude": 48.8583705, "longitude": 2.2944813, "altitude": 0.0}, "favorited": true}
            """
        _ = try workspace.write(Array(sidecar.utf8), as: year + "train.jpg.supplemental-metadata.json")
        let takeout = workspace.url.appendingPathComponent("takeout").path
        let paired = try LivePairBinary.run(["pair", "--layout", "takeout", "--json", takeout])
        #expect(paired.status == 0, "\(paired.error)")
        let planned = try #require((try LivePairBinary.json(paired.output)["assets"] as? [[String: Any]])?.first)
        #expect(planned["creationDateSource"] as? String == "sidecar" && planned["contentIdentifier"] as? String == Self.trainIdentifier)
        // The library: the files imported, the sidecar's facts applied as the report gives them.
        let library = workspace.url.appendingPathComponent("library").path
        #expect(try LivePairBinary.run(["import", "--quiet", "--library", library, workspace.url.appendingPathComponent(year).path]).status == 0)
        let opened = try PhotoLibrary.open(at: library)
        let asset = try #require(Array(try opened.fetchAssets(with: FetchOptions(includeHiddenAssets: true))).first)
        let place = try #require(planned["location"] as? [String: Double])
        let createdText = try #require(planned["creationDate"] as? String)
        let created = try #require(ISO8601DateFormatter().date(from: createdText))
        _ = try opened.performChangesAndWait { context in
            let change = context.changeRequest(for: asset)
            change.creationDate = created
            change.location = AssetLocation(latitude: place["latitude"] ?? 0, longitude: place["longitude"] ?? 0)
            change.isFavorite = planned["favorite"] as? Bool ?? false
            change.caption = planned["caption"] as? String
        }
        let output = workspace.url.appendingPathComponent("photos").path
        #expect(try LivePairBinary.run(["library", "export", "--for-photos", "--library", library, "--output", output, "--quiet"]).status == 0)
        #expect(Self.files(output) == ["train.JPG", "train.MOV"])
        #expect(try Self.exiftool(output + "/train.JPG", ["DateTimeOriginal", "OffsetTimeOriginal", "GPSLatitude", "GPSLongitude"])
            == ["2020:02:03 04:05:06", "+00:00", "48.8583705", "2.2944813"])
        let again = workspace.url.appendingPathComponent("again").path
        #expect(try LivePairBinary.run(["import", "--quiet", "--library", again, output]).status == 0)
        let back = try #require(Array(try PhotoLibrary.open(at: again).fetchAssets(with: FetchOptions(includeHiddenAssets: true))).first)
        #expect(back.contentIdentifier == Self.trainIdentifier && back.isLivePhoto)
        #expect(back.creationDate == Date(timeIntervalSince1970: 1_580_702_706))
        #expect(abs((back.location?.latitude ?? 0) - 48.858_370_5) < 1e-8 && abs((back.location?.longitude ?? 0) - 2.294_481_3) < 1e-8)
        #expect(abs((back.stillImageTime ?? -1) - 0.48) < 1e-9)
    }

    @Test("google-photos --still jpeg: a HEIC Live Photo becomes a JPEG motion photo, upright, with its identifier, Exif and Display P3 profile")
    func googlePhotosJPEG() throws {
        let workspace = try SampleVariants.Workspace()
        _ = try workspace.copy("live/IMG_4580.HEIC", as: "inbox/IMG_4580.HEIC")
        _ = try workspace.copy("live/IMG_4580.mov", as: "inbox/IMG_4580.mov")
        let library = workspace.url.appendingPathComponent("library").path
        #expect(try LivePairBinary.run(["import", "--quiet", "--library", library, workspace.url.appendingPathComponent("inbox").path]).status == 0)
        let output = workspace.url.appendingPathComponent("google").path
        let run = try LivePairBinary.run(
            ["library", "export", "--layout", "google-photos", "--still", "jpeg", "--library", library, "--output", output, "--quiet"])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let folder = output + "/Takeout/Google Photos/" + LibraryLayoutExportCommandTests.files(output).first.map {
            String($0.dropFirst("Takeout/Google Photos/".count).prefix { $0 != "/" })
        }!
        #expect(Self.files(folder) == ["IMG_4580.JPG", "IMG_4580.JPG.supplemental-metadata.json"])
        let motion = folder + "/IMG_4580.JPG"
        let source = ResourceIdentifier().identify(path: SampleMedia.path("live/IMG_4580.HEIC"))
        let written = ResourceIdentifier().identify(path: motion)
        #expect(written.format == .jpeg && written.motionPhoto != nil && written.contentIdentifier == source.contentIdentifier)
        #expect(written.orientation == 1 && written.width == 3024 && written.height == 4032 && written.captureDate == source.captureDate)
        #expect(try Self.exiftool(motion, ["MotionPhoto", "Orientation", "Make", "ColorSpace", "ProfileDescription"])
            == ["1", "1", "Apple", "65535", "Display P3"])
    }

    @Test("an asset that fails (its stored movie cut short) has none of its files left; the others are written; exit 1")
    func failedAssetCleanedUp() throws {
        let workspace = try SampleVariants.Workspace()
        let library = try Self.library(workspace)
        let opened = try PhotoLibrary.open(at: library)
        let train = try #require(Array(try opened.fetchAssets(with: FetchOptions(includeHiddenAssets: true))).first {
            $0.contentIdentifier == Self.trainIdentifier
        })
        let movie = try #require(try opened.assetResources(for: train).first { $0.type == .pairedVideo })
        let stored = try opened.storagePath(for: movie)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: stored)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: stored))
        try handle.truncate(atOffset: 1000)
        try handle.close()
        let output = workspace.url.appendingPathComponent("photos").path
        let run = try LivePairBinary.run(
            ["library", "export", "--layout", "apple-photos", "--albums", "flat", "--library", library, "--output", output, "--json", "--quiet"])
        #expect(run.status == 1, "\(run.error)")
        #expect(Self.files(output) == [
            "IMG_1853.AAE", "IMG_1853.HEIC", "IMG_3582.AAE", "IMG_3582.HEIC", "IMG_3582.MOV", "IMG_E1853.HEIC", "IMG_E3582.HEIC",
            "IMG_E3582.MOV", "PXL_20200710_061629144.JPG", "PXL_20200710_061629144.MOV",
        ])
        let report = try LivePairBinary.json(run.output)
        #expect((report["summary"] as? [String: Int])?["failed"] == 1)
        let failed = try #require((report["assets"] as? [[String: Any]])?.first { $0["error"] is String })
        #expect(failed["asset"] as? String == train.localIdentifier && (failed["files"] as? [Any])?.isEmpty == true)
    }

    @Test("migrate a folder --to apple-photos: the same files as an export, the temporary library removed")
    func migrate() throws {
        let workspace = try SampleVariants.Workspace()
        let inbox = try Self.inbox(workspace)
        let output = workspace.url.appendingPathComponent("migrated").path
        let run = try LivePairBinary.run(["migrate", inbox, "--to", "apple-photos", "--output", output, "--json", "--quiet"])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(Self.files(output) == [
            "IMG_1853.AAE", "IMG_1853.HEIC", "IMG_3582.AAE", "IMG_3582.HEIC", "IMG_3582.MOV", "IMG_E1853.HEIC", "IMG_E3582.HEIC",
            "IMG_E3582.MOV", "PXL_20200710_061629144.JPG", "PXL_20200710_061629144.MOV", "train.JPG", "train.MOV",
        ])
        #expect(FileManager.default.contents(atPath: output + "/train.JPG") == Data(try SampleMedia.bytes("live/train.jpg")))
        let report = try LivePairBinary.json(run.output)
        #expect((report["import"] as? [String: Int])?["imported"] == 8)
        #expect(report["settled"] as? Int == 1)
        #expect(((report["export"] as? [String: Any])?["summary"] as? [String: Int])?["assets"] == 4)
        #expect(try LivePairBinary.run(["migrate", inbox, "--to", "icloud", "--output", output]).status == 64)
    }
}
