import Foundation
import TestSupport
import Testing

/// `livepair import` under the ingestion policy, and `library export --for-photos`, end to end.
@Suite("livepair import policy and export for Photos, through the executable")
struct ImportPolicyCommandTests {
    typealias V = SampleVariants

    @Test("non-media files are skipped and counted (exit 0); import reports what validate flags; one file named twice is read once and each path counted")
    func importReportsFlagsAndSkipsNonMedia() throws {
        let workspace = try V.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let inbox = workspace.url.appendingPathComponent("inbox").path
        try workspace.copy("live/train.jpg", as: "inbox/train.jpg")
        try workspace.copy("live/train.mov", as: "inbox/train.mov")
        try workspace.copy("broken/google_motion_photo_broken.jpg", as: "inbox/google_motion_photo_broken.jpg")
        try workspace.copy("broken/normalphoto.jpg", as: "inbox/normalphoto.jpg")
        try workspace.write(Array("notes\n".utf8), as: "inbox/README")
        try workspace.write(Array("{\"title\": \"train\"}".utf8), as: "inbox/train.jpg.json")
        try workspace.write(Array("<?xml version=\"1.0\"?><plist version=\"1.0\"/>".utf8), as: "inbox/IMG_0001.AAE")
        let run = try LivePairBinary.run([
            "import", "--library", library, "--json", inbox, inbox + "/../inbox/train.jpg",
        ])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let json = try LivePairBinary.json(run.output)
        let summary = try #require(json["summary"] as? [String: Int])
        #expect(summary["files"] == 8, "both spellings of train.jpg are counted: \(summary)")
        #expect(summary["imported"] == 4)
        #expect(summary["duplicates"] == 1)
        #expect(summary["skipped"] == 2)
        #expect(summary["pending"] == 1)
        #expect(summary["rejected"] == 0)
        #expect(summary["flagged"] == 2)
        let files = try #require(json["files"] as? [[String: Any]])
        func entry(_ name: String) -> [String: Any]? { files.first { ($0["path"] as? String)?.hasSuffix("/" + name) == true } }
        let trainJPG = files.filter { ($0["path"] as? String)?.hasSuffix("/train.jpg") == true }
        #expect(trainJPG.map { $0["path"] as? String } == [inbox + "/../inbox/train.jpg", inbox + "/train.jpg"])
        #expect(trainJPG.map { $0["outcome"] as? String } == ["accepted", "duplicate"])
        #expect(trainJPG[0]["asset"] as? String == trainJPG[1]["asset"] as? String)
        func codes(_ name: String) -> [String] {
            (entry(name)?["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        }
        for name in ["README", "train.jpg.json"] {
            #expect(entry(name)?["outcome"] as? String == "skipped", "\(name)")
            #expect(codes(name) == ["not-media"])
        }
        // An .AAE, even one that is no adjustment data, is kept: it waits for IMG_0001's photo.
        #expect(entry("IMG_0001.AAE")?["outcome"] as? String == "pending")
        #expect(entry("IMG_0001.AAE")?["contentIdentifier"] as? String == "edit:img_0001")
        #expect(entry("google_motion_photo_broken.jpg")?["outcome"] as? String == "accepted")
        #expect(codes("google_motion_photo_broken.jpg") == ["motion-photo-video-missing"])
        #expect(entry("normalphoto.jpg")?["outcome"] as? String == "accepted")
        #expect(codes("normalphoto.jpg") == ["extension-mismatch"])

        let text = try LivePairBinary.run(["import", "--library", library, inbox])
        #expect(text.status == 0)
        #expect(text.output.contains("skipped   \(inbox)/README (not a photo or movie)"), "\(text.output)")
        #expect(text.output.contains("flagged   \(inbox)/normalphoto.jpg (duplicate, kept with findings)"))
        #expect(text.output.hasSuffix(
            "7 files: 0 imported, 4 duplicates, 1 pending, 0 rejected, 2 skipped (not media); 2 flagged\n"), "\(text.output)")
        #expect(text.output.contains("pending   \(inbox)/IMG_0001.AAE (an edit waiting for its original, img_0001)"), "\(text.output)")
    }

    @Test("two stills with one identifier and no movie both wait, whichever is ingested first (issue 20)")
    func twoStillsWithOneIdentifierBothWait() throws {
        let workspace = try V.Workspace()
        let inbox = workspace.url.appendingPathComponent("inbox").path
        try workspace.copy("live/IMG_2927.HEIC", as: "inbox/IMG_2927.HEIC")
        try workspace.copy("live/exif-at-eof.heic", as: "inbox/exif-at-eof.heic")
        for jobs in ["1", "2"] {
            let library = workspace.url.appendingPathComponent("library-\(jobs)").path
            let run = try LivePairBinary.run(["import", "--library", library, "--jobs", jobs, "--json", inbox])
            #expect(run.status == 0, "\(run.output)\(run.error)")
            let files = try #require(try LivePairBinary.json(run.output)["files"] as? [[String: Any]])
            #expect(files.map { $0["outcome"] as? String } == ["pending", "pending"])
            #expect(files.map { $0["contentIdentifier"] as? String } == Array(repeating: "1745E022-9712-43C7-B024-F308EC6413CB", count: 2))
        }
    }

    @Test("a movie without a still-image time is imported; library show lists the flag; export --for-photos restamps, a plain export does not")
    func exportForPhotosRestamps() throws {
        let workspace = try V.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let movieBytes = V.replacingText(
            "com.apple.quicktime.still-image-time", with: "com.apple.quicktime.still-image-tiXe",
            in: try SampleMedia.bytes("live/IMG_3582.mov"))
        try workspace.copy("live/IMG_3582.HEIC", as: "inbox/IMG_3582.HEIC")
        try workspace.write(movieBytes, as: "inbox/IMG_3582.mov")
        let run = try LivePairBinary.run(["import", "--library", library, "--json", workspace.url.appendingPathComponent("inbox").path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let imported = try LivePairBinary.json(run.output)
        let summary = try #require(imported["summary"] as? [String: Int])
        #expect(summary["imported"] == 2 && summary["pending"] == 0 && summary["flagged"] == 1)
        // The movie's line lists the error; the HEVC information stays on the asset only.
        let movieLine = try #require((imported["files"] as? [[String: Any]])?.first { ($0["path"] as? String)?.hasSuffix(".mov") == true })
        #expect((movieLine["findings"] as? [[String: Any]])?.compactMap { $0["code"] as? String } == ["missing-still-image-time"])

        let list = try LivePairBinary.json(try LivePairBinary.run(["library", "list", "--library", library, "--json"]).output)
        let asset = try #require((list["assets"] as? [[String: Any]])?.first)
        let identifier = try #require(asset["localIdentifier"] as? String)
        #expect(abs((asset["stillImageTime"] as? Double ?? -1) - 0.6) < 1e-9)
        let flags = (asset["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(flags.contains("missing-still-image-time"), "\(flags)")
        let show = try LivePairBinary.run(["library", "show", identifier, "--library", library])
        #expect(show.output.contains("still-image time:    0.600000 s"), "\(show.output)")
        #expect(show.output.contains("error: missing-still-image-time: IMG_3582.mov has no still-image-time track"))

        // A plain export gives the originals, byte for byte.
        let plain = workspace.url.appendingPathComponent("plain").path
        #expect(try LivePairBinary.run(["library", "export", identifier, "--library", library, "--output", plain]).status == 0)
        #expect(FileManager.default.contents(atPath: plain + "/IMG_3582.mov") == Data(movieBytes))

        // For Photos: the pair restamped with the asset's identifier and still-image time.
        let photos = workspace.url.appendingPathComponent("photos").path
        let export = try LivePairBinary.run(
            ["library", "export", identifier, "--library", library, "--output", photos, "--for-photos", "--json"])
        #expect(export.status == 0, "\(export.output)\(export.error)")
        let written = try #require(try LivePairBinary.json(export.output)["files"] as? [[String: Any]])
        #expect(written.compactMap { $0["type"] as? String } == ["photo", "pairedVideo"])
        for file in written {
            let path = try #require(file["path"] as? String)
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(file["size"] as? Int == size, "the JSON gives the written (restamped) size of \(path)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos).sorted() == ["IMG_3582.HEIC", "IMG_3582.mov"])
        let inspect = try LivePairBinary.run(["inspect", "--json", photos + "/IMG_3582.mov"]).output
        let movie = try #require((try JSONSerialization.jsonObject(with: Data(inspect.utf8)) as? [[String: Any]])?.first)
        #expect(movie["contentIdentifier"] as? String == "602FEBB7-6B59-4799-96E6-9C8484D873C7")
        #expect(abs((movie["stillImageTime"] as? Double ?? -1) - 0.6) < 0.0005, "\(movie["stillImageTime"] ?? "none")")
        let validate = try LivePairBinary.run(["validate", "--json", photos])
        #expect(validate.status == 0, "the exported pair is Photos-ready: \(validate.output)")
    }

    @Test("import --deep rejects a still whose image data does not decode (exit 1)")
    func importDeep() throws {
        let workspace = try V.Workspace()
        let library = workspace.url.appendingPathComponent("library").path
        let bytes = try SampleMedia.bytes("live/train.jpg")
        let photo = try workspace.write(
            V.overwriting(bytes, at: V.jpegScanDataOffset(in: bytes) + 10_000, count: 200_000, with: 0xFF), as: "train.jpg")
        let deep = try LivePairBinary.run(["import", "--library", library, "--deep", "--json", photo])
        #expect(deep.status == 1)
        let file = try #require((try LivePairBinary.json(deep.output)["files"] as? [[String: Any]])?.first)
        #expect(file["outcome"] as? String == "rejected")
        #expect((file["findings"] as? [[String: Any]])?.compactMap { $0["code"] as? String } == ["undecodable-photo"])
        let shallow = try LivePairBinary.run(["import", "--library", library, photo])
        #expect(shallow.status == 0 && shallow.output.contains("0 rejected"), "\(shallow.output)")
    }
}
