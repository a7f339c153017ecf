import LivePair
import LivePairFormats
import Testing

/// Rules checked on hand-built identities and pairing results (no files are read: the movie
/// paths do not exist, so only metadata rules run).
@Suite("Validation of hand-built pairing results")
struct ValidationSyntheticTests {
    static let identifier = ContentIdentifier(rawValue: "602FEBB7-6B59-4799-96E6-9C8484D873C7")

    static func still(_ path: String, date: CaptureDate?, identifier: ContentIdentifier? = identifier) -> AssetResource {
        var identity = ResourceIdentity(path: path)
        identity.format = .heic
        identity.role = identifier == nil ? .photo : .livePhotoStill
        identity.contentIdentifier = identifier
        identity.width = 4032
        identity.height = 3024
        identity.orientation = 6
        identity.captureDate = date
        return AssetResource(identity)
    }

    static func movie(_ path: String, date: CaptureDate?, identifier: ContentIdentifier? = identifier) -> AssetResource {
        var identity = ResourceIdentity(path: path)
        identity.format = .quickTime
        identity.role = identifier == nil ? .video : .livePhotoVideo
        identity.contentIdentifier = identifier
        identity.contentIdentifierLocation = identifier == nil ? nil : .movieMeta
        identity.stillImageTime = 1.5
        identity.duration = 2.9
        identity.width = 1920
        identity.height = 1440
        identity.orientation = 6
        identity.videoCodec = "h264"
        identity.frameRate = 30
        identity.captureDate = date
        return AssetResource(identity)
    }

    func validate(_ result: PairingResult) -> ValidationReport {
        Validator(options: ValidationOptions(parallel: false)).validate(result)
    }

    func codes(_ report: ValidationReport) -> [String] { report.allFindings.map { "\($0.code) \($0.severity)" } }

    func pair(still: CaptureDate?, movie: CaptureDate?) -> PairingResult {
        var result = PairingResult()
        result.pairs = [
            LivePhotoPair(
                contentIdentifier: Self.identifier, photo: Self.still("/u/IMG_1.HEIC", date: still),
                video: Self.movie("/u/IMG_1.MOV", date: movie), isWeak: false)
        ]
        return result
    }

    @Test("a local still date and a UTC movie date hours apart by a whole time zone are the same moment")
    func timeZoneDifference() {
        let still = CaptureDate(year: 2019, month: 12, day: 29, hour: 19, minute: 1, second: 15)  // no offset
        let movie = CaptureDate(year: 2019, month: 12, day: 30, hour: 3, minute: 1, second: 14, utcOffsetMinutes: 0)
        #expect(codes(validate(pair(still: still, movie: movie))).isEmpty)
    }

    @Test("dates 2 hours and 40 seconds apart are a capture-time mismatch")
    func farApart() {
        let still = CaptureDate(year: 2019, month: 12, day: 29, hour: 19, minute: 1, second: 15)
        let movie = CaptureDate(year: 2019, month: 12, day: 29, hour: 21, minute: 1, second: 55)
        #expect(codes(validate(pair(still: still, movie: movie))) == ["capture-time-mismatch warning"])
    }

    @Test("neither half dated: one capture-time finding on the still")
    func noDates() {
        let report = validate(pair(still: nil, movie: nil))
        #expect(codes(report) == ["capture-time-mismatch warning"])
        #expect(report.allFindings.first?.path == "/u/IMG_1.HEIC")
    }

    @Test("a weak pair gets missing-content-identifier on each half")
    func weakPair() {
        var result = PairingResult()
        let date = CaptureDate(year: 2024, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        result.pairs = [
            LivePhotoPair(
                contentIdentifier: nil, photo: Self.still("/u/a.HEIC", date: date, identifier: nil),
                video: Self.movie("/u/a.MOV", date: date, identifier: nil), isWeak: true)
        ]
        let report = validate(result)
        #expect(codes(report) == ["missing-content-identifier error", "missing-content-identifier error"])
        #expect(report.assets[0].status == .invalid)
    }

    @Test("a candidate that lost an ambiguity is a file with ambiguous-pair; the chosen asset says so too")
    func lostAmbiguity() {
        let date = CaptureDate(year: 2024, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        let chosen = LivePhotoPair(
            contentIdentifier: Self.identifier, photo: Self.still("/a/IMG_1.HEIC", date: date),
            video: Self.movie("/a/IMG_1.MOV", date: date), isWeak: false)
        let loser = Self.movie("/b/IMG_1.MOV", date: date)
        var result = PairingResult()
        result.pairs = [chosen]
        result.unpaired = [UnpairedResource(resource: loser, reason: .lostAmbiguity)]
        result.ambiguous = [
            AmbiguousMatch(
                contentIdentifier: Self.identifier!, photos: ["/a/IMG_1.HEIC"], videos: ["/a/IMG_1.MOV", "/b/IMG_1.MOV"],
                chosen: chosen, rule: "same-folder")
        ]
        let report = validate(result)
        #expect(report.assets.count == 1 && report.files.map(\.path) == ["/b/IMG_1.MOV"])
        #expect(report.assets[0].findings.map(\.code) == [.ambiguousPair])
        #expect(report.files[0].findings.map(\.code) == [.ambiguousPair])
        #expect(report.files[0].findings[0].message.contains("same-folder"))
    }

    @Test("duplicates without identities take the role of their original")
    func duplicates() {
        var result = PairingResult()
        result.unpaired = [UnpairedResource(resource: Self.still("/a/x.HEIC", date: nil, identifier: nil), reason: .noContentIdentifier)]
        result.duplicates = [DuplicateGroup(original: "/a/x.HEIC", duplicates: ["/b/x.HEIC"], kind: .identicalFile)]
        let report = validate(result)
        #expect(report.files.map(\.path) == ["/a/x.HEIC", "/b/x.HEIC"])
        #expect(report.files[1].role == .photo)
        #expect(report.files[1].findings.map(\.code) == [.duplicateFile])
    }

    @Test("a movie-only asset still gets its movie rules (H.264 without findings, an unusual codec with one)")
    func orphanMovieRules() {
        var result = PairingResult()
        var identity = Self.movie("/u/IMG_1.MOV", date: nil).identity
        identity.videoCodec = "prores"
        result.unpaired = [UnpairedResource(resource: AssetResource(identity), reason: .missingPhoto)]
        #expect(codes(validate(result)).sorted() == ["missing-pair-photo warning", "unsupported-video-codec error"])
    }
}
