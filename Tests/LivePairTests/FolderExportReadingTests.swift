import LivePair
import LivePairFormats
import Testing

/// LivePair's own `folder` export read back: its `NAME.json` sidecars (`FolderExportSidecar`), the
/// layout's detection and the plan's ends for sidecars (the round trip through `import` is
/// `LayoutRoundTripCommandTests`).
@Suite("folder exports: LivePair's NAME.json sidecars, detection, ends")
struct FolderExportReadingTests {
    /// A sidecar as `library export --layout folder` writes it (fields abridged).
    static let trainSidecar = """
        {"asset": {"localIdentifier": "7F2C0D1E-0000-4000-8000-000000000001/L0/001", "creationDate": "2020-02-03T04:05:06.789Z",
        "location": {"latitude": 48.8583705, "longitude": 2.2944813}, "isFavorite": true, "isHidden": false,
        "contentIdentifier": "E905E6C6-C747-4805-942F-9904A0281F02"},
        "caption": "Le train", "albums": ["Voyage à Paris", "Trains"],
        "files": [{"type": "photo", "name": "train.jpg", "size": 1, "digest": "00"}, {"type": "pairedVideo", "name": "train.mov"}]}
        """

    @Test("a LivePair sidecar gives the date to the millisecond, place, favourite, caption, albums and file names")
    func sidecar() throws {
        let sidecar = try #require(FolderExportSidecar(bytes: Array(Self.trainSidecar.utf8)))
        #expect(sidecar.creationDate == CaptureDate(year: 2020, month: 2, day: 3, hour: 4, minute: 5, second: 6, nanoseconds: 789_000_000, utcOffsetMinutes: 0))
        #expect(sidecar.location == GPSCoordinate(latitude: 48.8583705, longitude: 2.2944813))
        #expect(sidecar.isFavorite && !sidecar.isHidden && sidecar.caption == "Le train")
        #expect(sidecar.albums == ["Voyage à Paris", "Trains"] && sidecar.files == ["train.jpg", "train.mov"])
    }

    @Test("other JSON is not a LivePair sidecar: Takeout's, no files, a file name that is a path")
    func notSidecars() {
        let takeout = #"{"title": "train.jpg", "photoTakenTime": {"timestamp": "1580702706"}}"#
        let noFiles = #"{"asset": {"localIdentifier": "x"}, "files": []}"#
        let path = #"{"asset": {"localIdentifier": "x"}, "files": [{"name": "../etc/passwd"}]}"#
        for text in [takeout, noFiles, path, "[1]", "{"] {
            #expect(FolderExportSidecar(bytes: Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("detected when the first M.json beside its M is LivePair's, before the .AAE's image-capture; only that one is read")
    func detection() {
        var asked: [String] = []
        let paths = ["f/IMG_1853.AAE", "f/IMG_1853.HEIC", "f/IMG_1853.HEIC.json", "f/train.jpg", "f/train.jpg.json"]
        #expect(ExportLayout.detect(paths: paths, isFolderSidecar: { asked.append($0); return true }) == .folder)
        #expect(asked == ["f/IMG_1853.HEIC.json"])
        asked = []
        #expect(ExportLayout.detect(paths: paths, isFolderSidecar: { asked.append($0); return false }) == .imageCapture)
        #expect(asked == ["f/IMG_1853.HEIC.json"])
        // A JSON beside no file of its name is never read.
        #expect(ExportLayout.detect(paths: ["f/train.jpg", "f/train.json"], isFolderSidecar: { _ in Issue.record(); return true }) == .plain)
        #expect(ExportLayout(rawValue: "folder") == .folder && ExportLayout.folder.importsThroughPlan && !ExportLayout.folder.hasSidecars)
    }

    @Test("a LivePair sidecar without its files is sidecar-without-media; another JSON not-a-sidecar")
    func ends() {
        let entries = [
            ExportEntry(path: "f/train.jpg.json", location: "f/train.jpg.json", content: .json(Array(Self.trainSidecar.utf8))),
            ExportEntry(path: "f/notes.json", location: "f/notes.json", content: .json(Array(#"{"a": 1}"#.utf8))),
        ]
        let plan = ExportPlanner.plan(.folder, entries)
        #expect(plan.assets.isEmpty && plan.albums.isEmpty)
        #expect(plan.files.map { "\($0.path) \($0.disposition.rawValue) \($0.reason ?? "-")" }
            == ["f/train.jpg.json ignored sidecar-without-media", "f/notes.json ignored not-a-sidecar"])
    }
}
