import Foundation
import LivePair
import LivePairMedia
import Testing
import TestSupport

/// An edited Live Photo over HTTP (docs/editing.md, docs/http.md): uploaded one file at a time,
/// one asset that says `hasAdjustments`; `version` chooses the render or the original.
@Suite struct ServeEditTests {
    @Test func anEditedLivePhotoServesItsCurrentAndOriginalVersions() throws {
        let server = try ServeProcess()
        defer { _ = server.stop() }
        let client = HTTPClient(base: server.base)
        // The render first, the original's movie last: the parts wait, then join.
        let uploads = [
            ("live/IMG_3582_edited.heic", "IMG_E3582.HEIC"), ("live/IMG_3582.AAE", "IMG_3582.AAE"),
            ("live/IMG_3582.HEIC", "IMG_3582.HEIC"), ("live/IMG_3582_edited.mov", "IMG_E3582.MOV"), ("live/IMG_3582.mov", "IMG_3582.mov"),
        ]
        var last: [String: Any] = [:]
        for (index, (file, name)) in uploads.enumerated() {
            let response = try client.upload(
                SampleMedia.path(file), id: "u\(index)", token: "alice-token",
                headers: ["X-Original-Filename": name, "X-Original-Folder": "/DCIM/100APPLE"])
            #expect([201, 202].contains(response.status), "\(name): \(response.status)")
            last = try response.json()
        }
        let asset = try #require(last["asset"] as? [String: Any])
        let identifier = try #require(asset["id"] as? String)
        let fetched = try client.send("GET", "/v1/assets/\(identifier)", token: "alice-token").json()
        #expect(fetched["hasAdjustments"] as? Bool == true)
        // The edit summarised from its .AAE: Photos' black and white and depth steps.
        let edit = try #require(fetched["edit"] as? [String: Any])
        #expect(edit["readable"] as? Bool == true && edit["formatIdentifier"] as? String == "com.apple.photo")
        #expect(edit["formatVersion"] as? String == "1.11" && edit["editor"] as? String == "com.apple.Photos")
        let operations = (edit["operations"] as? [[String: Any]] ?? []).map { "\($0["identifier"] ?? "")=\($0["enabled"] ?? "")" }
        #expect(operations == ["SmartBlackAndWhite=1", "DepthEffect=1"])
        #expect(edit["keyPhotoTime"] == nil && edit["trim"] == nil && edit["muted"] as? Bool == false)
        #expect(asset["edit"] as? [String: Any] != nil)  // the upload's answer has it too
        let types = (fetched["resources"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
        #expect(types.sorted() == ["adjustmentData", "fullSizePairedVideo", "fullSizePhoto", "pairedVideo", "photo"])

        // The render by type, or as the current version's photo; the original as the photo.
        let render = try SampleMedia.bytes("live/IMG_3582_edited.heic")
        let original = try SampleMedia.bytes("live/IMG_3582.HEIC")
        for (path, expected) in [
            ("resources/fullSizePhoto", render), ("resources/photo?version=current", render), ("resources/photo", original),
            ("resources/photo?version=original", original),
        ] {
            let response = try client.send("GET", "/v1/assets/\(identifier)/\(path)", token: "alice-token")
            #expect(response.status == 200 && [UInt8](response.body) == expected, "\(path)")
        }

        // Derivatives: the current version (the black-and-white render) by default, the original on request.
        var stills: [String: Data] = [:]
        for query in ["still.jpg?size=256", "still.jpg?size=256&version=current", "still.jpg?size=256&version=original"] {
            let response = try client.send("GET", "/v1/assets/\(identifier)/\(query)", token: "alice-token")
            #expect(response.status == 200, "\(query)")
            let file = server.directory + "/still.jpg"
            try response.body.write(to: URL(fileURLWithPath: file))
            let decoded = try StillImageReader.decode(path: file)
            #expect(decoded.width == 192 && decoded.height == 256, "\(query): \(decoded.width)x\(decoded.height)")
            stills[query] = response.body
        }
        #expect(stills["still.jpg?size=256"] == stills["still.jpg?size=256&version=current"])
        #expect(stills["still.jpg?size=256"] != stills["still.jpg?size=256&version=original"])
        let motion = try client.send("GET", "/v1/assets/\(identifier)/motion.mp4?size=256", token: "alice-token")
        let originalMotion = try client.send("GET", "/v1/assets/\(identifier)/motion.mp4?size=256&version=original", token: "alice-token")
        #expect(motion.status == 200 && originalMotion.status == 200)
        #expect(motion.header("ETag") != originalMotion.header("ETag"))
        let bad = try client.send("GET", "/v1/assets/\(identifier)/still.jpg?version=edited", token: "alice-token")
        #expect(bad.status == 400)
    }

    @Test func anEditedLivePhotosStillImageTimeIsTheRendersWithTheOriginalsBeside() throws {
        // A key photo edit of train (its own still-image time 0.48 s) made by LivePair: the
        // render's movie is trimmed to start at 0.2 s, its key photo 0.5 s into the original,
        // its sound at half volume and its frames black and white.
        let folder = try TestScratch.folder("serve-edit-still-time")
        let rendered = try LivePhotoEditingContext(
            photo: SampleMedia.path("live/train.jpg"), video: SampleMedia.path("live/train.mov"),
            settings: LivePhotoEditSettings(photoTime: 0.5, trim: 0.2...1.0, audioVolume: 0.5, filter: .mono)
        ).render(outputDirectory: folder)
        #expect(abs(rendered.stillImageTime - (rendered.photoTime - rendered.renderedRange.lowerBound)) < 1e-6)
        let server = try ServeProcess()
        defer { _ = server.stop() }
        let client = HTTPClient(base: server.base)
        var identifier: String?
        for (index, path) in [
            SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov"), rendered.photoPath, rendered.videoPath,
            rendered.adjustmentsPath,
        ].enumerated() {
            let response = try client.upload(path, id: "t\(index)", token: "alice-token", headers: ["X-Original-Folder": "/train"])
            #expect([201, 202].contains(response.status), "\(path): \(response.status)")
            identifier = (try response.json()["asset"] as? [String: Any])?["id"] as? String ?? identifier
        }
        let id = try #require(identifier)
        let fetched = try client.send("GET", "/v1/assets/\(id)", token: "alice-token").json()
        let types = (fetched["resources"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }.sorted()
        #expect(types == ["adjustmentData", "fullSizePairedVideo", "fullSizePhoto", "pairedVideo", "photo"])
        // The current version's key photo (the render's movie), the original's beside it.
        let current = try #require(fetched["stillImageTime"] as? Double)
        #expect(abs(current - rendered.stillImageTime) < 1e-6, "\(current)")
        #expect((fetched["originalStillImageTime"] as? Double).map { abs($0 - 0.48) < 1e-6 } == true)
        let edit = try #require(fetched["edit"] as? [String: Any])
        #expect(edit["keyPhotoTime"] as? Double == 0.5)
        #expect(edit["audioVolume"] as? Double == 0.5 && edit["filter"] as? String == "mono", "\(edit)")
        let trim = try #require(edit["trim"] as? [String: Double])
        #expect(abs((trim["start"] ?? 0) - 0.2) < 1e-6 && abs((trim["end"] ?? 0) - 1.0) < 1e-6, "\(trim)")
        // The list says the same.
        let listed = try #require((try client.send("GET", "/v1/assets", token: "alice-token").json()["assets"] as? [[String: Any]])?.first)
        #expect((listed["stillImageTime"] as? Double).map { abs($0 - current) < 1e-9 } == true)
    }

    @Test func aKeyPhotoEditIsSummarisedWithItsTime() throws {
        let server = try ServeProcess()
        defer { _ = server.stop() }
        let client = HTTPClient(base: server.base)
        try Self.uploadKeyPhotoEdit(client)
        let page = try client.send("GET", "/v1/assets", token: "alice-token").json()
        let assets = page["assets"] as? [[String: Any]] ?? []
        try #require(assets.count == 1)
        let edit = try #require(assets[0]["edit"] as? [String: Any])
        #expect(edit["formatVersion"] as? String == "1.4")
        #expect(edit["keyPhotoTime"] as? Double == 2.9)
        #expect((edit["operations"] as? [[String: Any]])?.compactMap { $0["identifier"] as? String } == ["LivePhotoKeyFrame"])
    }

    /// The edit summary comes from the catalog: kept when first made (here by the upload that
    /// completed the edit), so once the stored `.AAE` is overwritten with zeros (a damaged disk),
    /// the listing and the asset still show the same summary, byte for byte, never
    /// `{"readable": false}`: no listing reads the `.AAE` again.
    @Test func anEditSummaryIsKeptInTheCatalogAndTheAAEIsNotReadAgain() throws {
        let server = try ServeProcess()
        defer { _ = server.stop() }
        let client = HTTPClient(base: server.base)
        try Self.uploadKeyPhotoEdit(client)
        func edits() throws -> [Data] {
            let listed = try #require((try client.send("GET", "/v1/assets", token: "alice-token").json()["assets"] as? [[String: Any]])?.first)
            let identifier = try #require(listed["id"] as? String)
            let one = try client.send("GET", "/v1/assets/\(identifier)", token: "alice-token").json()
            return try [listed, one].map { try JSONSerialization.data(withJSONObject: try #require($0["edit"]), options: [.sortedKeys]) }
        }
        let before = try edits()
        #expect(before[0] == before[1])
        #expect(String(decoding: before[0], as: UTF8.self).contains(#""keyPhotoTime":2.9"#))
        let sidecar = try Data(contentsOf: URL(fileURLWithPath: SampleMedia.path("live/IMG_1853.AAE")))
        let store = try #require(FileManager.default.enumerator(atPath: server.library))
        var overwritten = 0
        while let relative = store.nextObject() as? String {
            let path = server.library + "/" + relative
            guard FileManager.default.contents(atPath: path) == sidecar else { continue }
            chmod(path, 0o644)
            try Data(count: sidecar.count).write(to: URL(fileURLWithPath: path))
            overwritten += 1
        }
        #expect(overwritten == 1)
        #expect(try edits() == before)
    }

    /// Uploads IMG_1853's key photo edit as alice: its `.AAE`, its render, and a still as its original.
    static func uploadKeyPhotoEdit(_ client: HTTPClient) throws {
        for (index, (file, name)) in [
            ("live/IMG_1853.AAE", "IMG_1853.AAE"), ("live/IMG_E1853.heic", "IMG_E1853.heic"), ("plain/IMG_2682.heic", "IMG_1853.HEIC"),
        ].enumerated() {
            let response = try client.upload(
                SampleMedia.path(file), id: "k\(index)", token: "alice-token",
                headers: ["X-Original-Filename": name, "X-Original-Folder": "/DCIM"])
            #expect([201, 202].contains(response.status), "\(name): \(response.status)")
        }
    }
}
