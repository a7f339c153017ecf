import LivePair
import LivePairFormats
import Testing

@Suite("Takeout sidecars: every naming rule, album metadata names, the JSON fields")
struct TakeoutSidecarMatcherTests {
    @Test("each naming rule ties the JSON to its file, and only to it")
    func rules() {
        #expect(TakeoutSidecarMatcher.rule(json: "IMG_1234.jpg.json", media: "IMG_1234.jpg") == .exact)
        #expect(TakeoutSidecarMatcher.rule(json: "IMG_1234.jpg(1).json", media: "IMG_1234(1).jpg") == .exact)
        #expect(TakeoutSidecarMatcher.rule(json: "IMG_1234.jpg(1).json", media: "IMG_1234.jpg") == nil)
        #expect(TakeoutSidecarMatcher.rule(json: "IMG_1234.jpg.json", media: "IMG_1234(1).jpg") == nil)
        #expect(
            TakeoutSidecarMatcher.rule(json: "IMG_1234.jpg.supplemental-metadata.json", media: "IMG_1234.jpg") == .supplementalMetadata)
        #expect(
            TakeoutSidecarMatcher.rule(json: "IMG_1234.jpg.supplemental-metadata(1).json", media: "IMG_1234(1).jpg")
                == .supplementalMetadata)
        // The whole name cut at 51 characters, at three places.
        #expect(
            TakeoutSidecarMatcher.rule(
                json: "IMG_4580_sunset_lake_x.HEIC.supplemental-metad.json", media: "IMG_4580_sunset_lake_x.HEIC") == .truncated)
        #expect(
            TakeoutSidecarMatcher.rule(
                json: "Photo_of_harbour_at_dawn_IMG_2682_x.heic.suppl.json", media: "Photo_of_harbour_at_dawn_IMG_2682_x.heic")
                == .truncated)
        let long = "20230323_101938_a_very_long_name_from_a_web_upload_IMG_1853.HEIC"
        #expect(TakeoutSidecarMatcher.rule(json: String(long.prefix(46)) + ".json", media: long) == .truncated)
        // A cut name of another length is no truncation; a short prefix never matches.
        #expect(TakeoutSidecarMatcher.rule(json: "IMG_1234.jpg.suppl.json", media: "IMG_1234.jpg") == nil)
        #expect(TakeoutSidecarMatcher.rule(json: "IMG_1234.json", media: "IMG_1234.jpg") == .stem)
        #expect(TakeoutSidecarMatcher.rule(json: "IMG_1234.jpg.json", media: "IMG_1235.jpg") == nil)
    }

    @Test("one JSON per file, the strongest rule first; a movie does not take its still's JSON")
    func oneEach() {
        let matches = TakeoutSidecarMatcher.match(
            jsonNames: ["IMG_1.HEIC.json", "IMG_1.json", "IMG_2.jpg.json", "IMG_2.jpg(1).json"],
            mediaNames: ["IMG_1.HEIC", "IMG_1.MP4", "IMG_2.jpg", "IMG_2(1).jpg"])
        #expect(matches["IMG_1.HEIC"]?.json == "IMG_1.HEIC.json")
        #expect(matches["IMG_1.HEIC"]?.rule == .exact)
        // IMG_1.json by stem: the still has its own already, so the movie takes it.
        #expect(matches["IMG_1.MP4"]?.json == "IMG_1.json")
        #expect(matches["IMG_1.MP4"]?.rule == .stem)
        #expect(matches["IMG_2.jpg"]?.json == "IMG_2.jpg.json")
        #expect(matches["IMG_2(1).jpg"]?.json == "IMG_2.jpg(1).json")
    }

    @Test("a year folder of 5,000 photos and 5,000 sidecars of every naming kind: each tied to its own")
    func largeFolder() {
        var media: [String] = []
        var json: [String: String] = [:]
        for index in 0..<5000 {
            switch index % 5 {
            case 0:
                let name = "IMG_\(index).jpg"
                media.append(name)
                json[name + ".json"] = name
            case 1:
                let name = "IMG_\(index).HEIC"
                media.append(name)
                json[name + ".supplemental-metadata.json"] = name
            case 2:
                let name = "PXL_20250101_\(100000 + index)_long_upload_name.jpg"
                media.append(name)
                json[String((name + ".supplemental-metadata").prefix(46)) + ".json"] = name
            case 3:
                let name = "IMG_\(index - 3)(1).jpg"
                media.append(name)
                json["IMG_\(index - 3).jpg(1).json"] = name
            default:
                let name = "VID_\(index).mp4"
                media.append(name)
                json["VID_\(index).json"] = name
            }
        }
        let matches = TakeoutSidecarMatcher.match(jsonNames: Array(json.keys), mediaNames: media)
        #expect(matches.count == 5000)
        for (jsonName, mediaName) in json {
            #expect(matches[mediaName]?.json == jsonName, "\(mediaName)")
        }
    }

    @Test("album metadata under its localised names, with a copy counter")
    func albumNames() {
        for name in ["metadata.json", "métadonnées.json", "Metadaten.json", "metadatos.json", "metadati.json", "metadata(1).json"] {
            #expect(TakeoutAlbumMetadata.isAlbumMetadataName(name), "\(name)")
        }
        #expect(!TakeoutAlbumMetadata.isAlbumMetadataName("metadata.jpg.json"))
        #expect(!TakeoutAlbumMetadata.isAlbumMetadataName("print-subscriptions.json"))
    }

    @Test("JSON fields: photoTakenTime as a UTC date, geoData 0,0 as none, favourite, archived, trashed, caption")
    func fields() throws {
        let text = """
            {"title": "a.jpg", "description": "Caption", "photoTakenTime": {"timestamp": "1618051440", "formatted": "x"},
             "geoData": {"latitude": 0.0, "longitude": 0.0}, "geoDataExif": {"latitude": 48.8584, "longitude": 2.2945},
             "favorited": true, "archived": true}
            """
        let json = try JSONReader().read(Array(text.utf8))
        #expect(TakeoutMetadata.isMediaSidecar(json))
        let metadata = TakeoutMetadata(json: json)
        #expect(metadata.takenDate?.iso8601 == "2021-04-10T10:44:00Z")
        #expect(metadata.location == GPSCoordinate(latitude: 48.8584, longitude: 2.2945))
        #expect(metadata.isFavorite && metadata.isArchived && !metadata.isTrashed)
        #expect(metadata.caption == "Caption")
        let empty = try JSONReader().read(Array(#"{"photoTakenTime": {"timestamp": "0"}, "geoData": {"latitude": 0, "longitude": 0}, "description": ""}"#.utf8))
        #expect(TakeoutMetadata(json: empty) == TakeoutMetadata())
        #expect(CaptureDate(secondsSince1970: -1).iso8601 == "1969-12-31T23:59:59Z")
        // Hostile timestamps are no date, never an overflow.
        for timestamp in ["-9223372036854775808", "9223372036854775807", "253402300800"] {
            let json = try JSONReader().read(Array("{\"photoTakenTime\": {\"timestamp\": \"\(timestamp)\"}}".utf8))
            #expect(TakeoutMetadata(json: json).takenDate == nil, "\(timestamp)")
        }
    }
}
