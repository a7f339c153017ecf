import Foundation
import Testing
import TestSupport

/// `GET /v1/assets` in date-taken order with cursor paging, and the asset fields a gallery's
/// detail view shows, over a real server and real files.
@Suite(.serialized) struct ServeAssetListTests {
    /// The identifiers of every page from `path` on, following `next`; the cursors seen.
    static func pages(_ client: HTTPClient, _ path: String, between: (Int) throws -> Void = { _ in }) throws -> [[String: Any]] {
        var assets: [[String: Any]] = []
        var cursor: String?
        var pageCount = 0
        repeat {
            let separator = path.contains("?") ? "&" : "?"
            let response = try client.send("GET", path + (cursor.map { separator + "cursor=" + $0 } ?? ""), token: "alice-token")
            #expect(response.status == 200)
            let page = try response.json()
            assets += try #require(page["assets"] as? [[String: Any]])
            cursor = page["next"] as? String
            pageCount += 1
            try between(pageCount)
        } while cursor != nil && pageCount < 100
        return assets
    }

    /// Seven photos taken at known times (two at the same second, one with no date: its date
    /// added counts), listed three at a time newest first and oldest first; photos imported
    /// between two pages, one newer than the cursor and one older, neither shift a page: the newer
    /// is not seen, the older comes last, nothing is seen twice or skipped.
    @Test func everyAssetIsListedInDateTakenOrderPageByPage() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let folder = server.directory + "/photos"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let taken: [String?] = [
            "2021:06:01 12:00:00", "2019:03:04 05:06:07", "2023:12:31 23:59:59", "2021:06:01 12:00:00", "2020:02:29 08:00:00", nil,
            "2022:07:14 18:30:00",
        ]
        var paths: [String] = []
        for (index, date) in taken.enumerated() {
            let path = folder + "/p\(index).jpg"
            try Data(try DatedPhotos.jpeg(taken: date, shade: UInt8(index * 30))).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        try DatedPhotos.importFiles(paths, library: server.library)

        let everything = try client.send("GET", "/v1/assets?limit=1000", token: "alice-token").json()
        #expect(everything["total"] as? Int == 7)
        let all = try #require(everything["assets"] as? [[String: Any]])
        #expect(everything["next"] == nil, "one page holds them all")
        // Newest first by date taken; the photo without a date was added today, after every date.
        let dated = all.map { ($0["creationDate"] as? String ?? "none", $0["id"] as? String ?? "") }
        #expect(dated.map(\.0) == [
            "none", "2023-12-31T23:59:59Z", "2022-07-14T18:30:00Z", "2021-06-01T12:00:00Z", "2021-06-01T12:00:00Z",
            "2020-02-29T08:00:00Z", "2019-03-04T05:06:07Z",
        ])
        #expect(all[0]["dateTaken"] as? String == all[0]["addedDate"] as? String)
        #expect(all[1]["dateTaken"] as? String == "2023-12-31T23:59:59Z")
        #expect(dated[3].1 < dated[4].1, "photos taken at the same time come by identifier")
        let newestFirst = all.compactMap { $0["id"] as? String }

        let paged = try Self.pages(client, "/v1/assets?limit=3")
        #expect(paged.compactMap { $0["id"] as? String } == newestFirst)
        let oldestFirst = try Self.pages(client, "/v1/assets?limit=2&sort=dateTaken")
        // Oldest first; the same date taken still by identifier, ascending.
        let ascending = all.sorted { ($0["dateTaken"] as? String ?? "", $0["id"] as? String ?? "") < ($1["dateTaken"] as? String ?? "", $1["id"] as? String ?? "") }
        #expect(ascending.compactMap { $0["id"] as? String } != Array(newestFirst.reversed()), "the tie keeps its order both ways")
        #expect(oldestFirst.compactMap { $0["id"] as? String } == ascending.compactMap { $0["id"] as? String })

        // New photos between the first and second pages: one taken after every other, one before.
        let newer = folder + "/newer.jpg", older = folder + "/older.jpg"
        try Data(try DatedPhotos.jpeg(taken: "2025:01:01 00:00:00", shade: 7)).write(to: URL(fileURLWithPath: newer))
        try Data(try DatedPhotos.jpeg(taken: "2001:01:01 00:00:00", shade: 9)).write(to: URL(fileURLWithPath: older))
        let whileAdding = try Self.pages(client, "/v1/assets?limit=3") { page in
            if page == 1 { try DatedPhotos.importFiles([newer, older], library: server.library) }
        }
        let seen = whileAdding.compactMap { $0["creationDate"] as? String ?? "none" }
        #expect(seen == dated.map(\.0) + ["2001-01-01T00:00:00Z"])
        #expect(Set(whileAdding.compactMap { $0["id"] as? String }).count == 8)
        let after = try client.send("GET", "/v1/assets?limit=2", token: "alice-token").json()
        #expect(after["total"] as? Int == 9)
        #expect((after["assets"] as? [[String: Any]])?.map { $0["creationDate"] as? String ?? "none" } == ["none", "2025-01-01T00:00:00Z"])

        // A cursor belongs to the date-taken order and its direction, and is never combined with an offset.
        let cursor = try #require(try client.send("GET", "/v1/assets?limit=2", token: "alice-token").json()["next"] as? String)
        for (query, message) in [
            ("cursor=\(cursor)&sort=addedDate", "cursor pages the date-taken order only"),
            ("cursor=\(cursor)&sort=dateTaken", "the other direction"), ("cursor=\(cursor)&offset=2", "cannot be combined"),
            ("cursor=bm90IG1pbmU", "not one this server gave"), ("cursor=%2F%2F%2F", "not one this server gave"),
        ] {
            let refused = try client.send("GET", "/v1/assets?" + query, token: "alice-token")
            #expect(refused.status == 400, "\(query)")
            let text = (try refused.json()["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(text.contains(message), "\(query): \(text)")
        }
        // Bob's view of the same cursor: only his assets (none), never alice's.
        let bobs = try client.send("GET", "/v1/assets?cursor=\(cursor)", token: "bob-token").json()
        #expect(bobs["total"] as? Int == 0)
        #expect((bobs["assets"] as? [Any])?.isEmpty == true)
        // Offsets still page any order.
        let byOffset = try client.send("GET", "/v1/assets?limit=4&offset=4&sort=-dateTaken", token: "alice-token").json()
        #expect(byOffset["nextOffset"] as? Int == 8)
        #expect(byOffset["offset"] as? Int == 4)
        #expect(server.stop() == 0)
    }

    /// The detail fields: a Live Photo (HEIC turned by its orientation, iPhone), a motion photo
    /// (the movie inside the still), a turned video with a location, and a generated photo, each as
    /// `GET /v1/assets/{id}` shows it; the list leaves out what is read from the files.
    @Test func theAssetCarriesWhatADetailViewShows() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        #expect(try client.upload(SampleMedia.path("live/IMG_3582.HEIC"), id: "s", token: "alice-token").status == 202)
        let live = try #require(try client.upload(SampleMedia.path("live/IMG_3582.mov"), id: "m", token: "alice-token").json()["asset"] as? [String: Any])
        let motion = try #require(
            try client.upload(SampleMedia.path("motion/motionphoto.heic"), id: "mp", token: "alice-token").json()["asset"] as? [String: Any])
        let video = try #require(try client.upload(SampleMedia.path("plain/with-gps.mov"), id: "v", token: "alice-token").json()["asset"] as? [String: Any])
        let photoPath = server.directory + "/turned.jpg"
        try Data(try DatedPhotos.jpeg(taken: "2024:05:01 10:00:00", width: 80, height: 40, make: "Maker", model: "Model 7", orientation: 8))
            .write(to: URL(fileURLWithPath: photoPath))
        let photo = try #require(try client.upload(photoPath, id: "p", token: "alice-token").json()["asset"] as? [String: Any])

        func detail(_ asset: [String: Any]) throws -> [String: Any] {
            try client.send("GET", "/v1/assets/" + (asset["id"] as? String ?? ""), token: "alice-token").json()
        }
        let liveDetail = try detail(live)
        #expect(liveDetail["isLivePhoto"] as? Bool == true)
        #expect(liveDetail["isMotionPhoto"] as? Bool == false)
        #expect(liveDetail["mediaSubtypes"] as? [String] == ["photoLive"])
        #expect(liveDetail["pixelWidth"] as? Int == 5712)
        let stillTime = try #require(liveDetail["stillImageTime"] as? Double)
        #expect(abs(stillTime - 1.331667) < 0.001, "\(stillTime)")
        let liveMetadata = try #require(liveDetail["metadata"] as? [String: Any])
        #expect(liveMetadata["orientation"] as? Int == 6)
        #expect(liveMetadata["uprightWidth"] as? Int == 4284)
        #expect(liveMetadata["uprightHeight"] as? Int == 5712)
        #expect(liveMetadata["make"] as? String == "Apple")
        #expect(liveMetadata["model"] as? String == "iPhone 15 Pro")
        #expect((liveDetail["derivativeFailures"] as? [Any])?.isEmpty == true)

        let motionDetail = try detail(motion)
        #expect(motionDetail["isLivePhoto"] as? Bool == true)
        #expect(motionDetail["isMotionPhoto"] as? Bool == true)
        let motionMetadata = try #require(motionDetail["metadata"] as? [String: Any])
        #expect(motionMetadata["make"] as? String == "samsung")
        #expect(motionMetadata["model"] as? String == "SM-S901U1")
        #expect(motionMetadata["uprightWidth"] as? Int == 3000)
        #expect(motionMetadata["uprightHeight"] as? Int == 4000)

        let videoDetail = try detail(video)
        #expect(videoDetail["mediaType"] as? String == "video")
        #expect(videoDetail["isMotionPhoto"] as? Bool == false)
        let duration = try #require(videoDetail["duration"] as? Double)
        #expect(abs(duration - 4.002) < 0.01, "\(duration)")
        let location = try #require(videoDetail["location"] as? [String: Any])
        #expect(abs((location["latitude"] as? Double ?? 0) - 32.0929) < 0.0001)
        #expect(abs((location["longitude"] as? Double ?? 0) - 34.862) < 0.0001)
        let videoMetadata = try #require(videoDetail["metadata"] as? [String: Any])
        #expect(videoMetadata["uprightWidth"] as? Int == 320, "turned a quarter by its track matrix")
        #expect(videoMetadata["uprightHeight"] as? Int == 568)

        let photoDetail = try detail(photo)
        #expect(photoDetail["creationDate"] as? String == "2024-05-01T10:00:00Z")
        #expect(photoDetail["location"] == nil)
        #expect(photoDetail["isLivePhoto"] as? Bool == false)
        let photoMetadata = try #require(photoDetail["metadata"] as? [String: Any])
        #expect(photoMetadata["uprightWidth"] as? Int == 40)
        #expect(photoMetadata["uprightHeight"] as? Int == 80)
        #expect(photoMetadata["make"] as? String == "Maker")
        #expect(photoMetadata["model"] as? String == "Model 7")

        let list = try #require(try client.send("GET", "/v1/assets", token: "alice-token").json()["assets"] as? [[String: Any]])
        #expect(list.count == 4)
        #expect(list.allSatisfy { $0["metadata"] == nil && $0["dateTaken"] is String && $0["derivativeFailures"] is [Any] })
        #expect(server.stop() == 0)
    }

    /// A photo whose stored bytes no longer decode (a damaged disk): after the derivative jobs ran
    /// (`livepair library derivatives`), the list and the asset say which derivatives failed and why.
    @Test func aFailedDerivativeIsListedWithItsCause() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let bytes = try DatedPhotos.jpeg(taken: "2024:05:01 10:00:00", width: 96, height: 64, shade: 77)
        let path = server.directory + "/damaged.jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let asset = try #require(try client.upload(path, id: "d", token: "alice-token").json()["asset"] as? [String: Any])
        let identifier = try #require(asset["id"] as? String)
        // The store's copy, found by its bytes, overwritten with zeros in place.
        let store = try #require(FileManager.default.enumerator(atPath: server.library))
        var stored: [String] = []
        while let relative = store.nextObject() as? String {
            let full = server.library + "/" + relative
            if FileManager.default.contents(atPath: full) == Data(bytes) { stored.append(full) }
        }
        #expect(stored.count == 1, "\(stored)")
        for file in stored {
            chmod(file, 0o644)
            try Data(count: bytes.count).write(to: URL(fileURLWithPath: file))
        }
        let process = Process()
        process.executableURL = LivePairBinary.url
        process.arguments = ["library", "derivatives", "--library", server.library]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()

        let listed = try #require((try client.send("GET", "/v1/assets", token: "alice-token").json()["assets"] as? [[String: Any]])?.first)
        let one = try client.send("GET", "/v1/assets/" + identifier, token: "alice-token").json()
        for shown in [listed, one] {
            let failures = try #require(shown["derivativeFailures"] as? [[String: Any]])
            #expect(failures.compactMap { $0["derivative"] as? String } == ["placeholder", "still"])
            #expect(failures.allSatisfy { ($0["message"] as? String ?? "").hasPrefix("the image cannot be decoded") }, "\(failures)")
        }
        #expect(server.stop() == 0)
    }
}
