import LivePair
import LivePairFormats
import TestSupport
import Testing

@Suite("Pairing by name (opt-in)")
struct PairingNameMatchTests {
    /// A plain still (IMG_2682, iPhone 7, 2019) renamed next to a plain movie (IMG_3539, iPhone 5, 2016).
    private func plainHalves(_ folder: TemporaryFolder, movieFolder: String = "") throws -> [AssetResource] {
        try folder.copy("plain/IMG_2682.heic", as: "IMG_3539.HEIC")
        try folder.copy("plain/IMG_3539.MOV", as: movieFolder + "IMG_3539.MOV")
        return [folder.resource("IMG_3539.HEIC"), folder.resource(movieFolder + "IMG_3539.MOV")]
    }

    @Test("without the flag, plain files with one stem stay unpaired")
    func offByDefault() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inputs = try plainHalves(folder)
        let result = Pairing.pair(inputs, options: PairingOptions(captureTimeTolerance: 1e12))
        #expect(result.pairs.isEmpty)
        #expect(result.unpaired.map(\.reason) == [.noContentIdentifier, .noContentIdentifier])
    }

    @Test("with the flag, capture times years apart do not pair at the default tolerance")
    func toleranceGuards() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inputs = try plainHalves(folder)
        #expect(inputs.allSatisfy { $0.identity.captureDate != nil })
        let result = Pairing.pair(inputs, options: PairingOptions(matchNames: true))
        #expect(result.pairs.isEmpty)
        #expect(PairingOptions().captureTimeTolerance == 3)
    }

    @Test("with the flag and a huge tolerance, they pair weakly without identifier")
    func weakPair() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inputs = try plainHalves(folder)
        let result = Pairing.pair(inputs, options: PairingOptions(matchNames: true, captureTimeTolerance: 1e10))
        let pair = try #require(result.pairs.first)
        #expect(pair.isWeak)
        #expect(pair.contentIdentifier == nil)
        #expect(pair.photo.path == folder.path + "/IMG_3539.HEIC")
        #expect(pair.video.path == folder.path + "/IMG_3539.MOV")
        #expect(result.unpaired.isEmpty)
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("different folders never pair by name")
    func differentFolders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let inputs = try plainHalves(folder, movieFolder: "videos/")
        let result = Pairing.pair(inputs, options: PairingOptions(matchNames: true, captureTimeTolerance: 1e10))
        #expect(result.pairs.isEmpty)
    }

    @Test("a half with an identifier is never paired by name")
    func identifiedHalvesNeverByName() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copy("live/IMG_1853.HEIC", as: "IMG_1853.HEIC")
        try folder.copy("plain/IMG_3539.MOV", as: "IMG_1853.MOV")
        let inputs = [folder.resource("IMG_1853.HEIC"), folder.resource("IMG_1853.MOV")]
        let options = PairingOptions(matchNames: true, captureTimeTolerance: 1e12, matchNamesWithoutCaptureDate: true)
        let result = Pairing.pair(inputs, options: options)
        #expect(result.pairs.isEmpty)
        #expect(PairingFixtures.reason(of: folder.path + "/IMG_1853.HEIC", in: result) == .missingPairedVideo)
        #expect(PairingFixtures.reason(of: folder.path + "/IMG_1853.MOV", in: result) == .noContentIdentifier)
    }

    // Synthetic identities: the rules on dates without files (sizes differ, so nothing is read).

    private static func synthetic(_ path: String, movie: Bool, size: UInt64, date: CaptureDate?) -> AssetResource {
        var identity = ResourceIdentity(path: path)
        identity.format = movie ? .quickTime : .heic
        identity.role = movie ? .video : .photo
        identity.fileSize = size
        identity.captureDate = date
        return AssetResource(identity)
    }

    private static func date(_ second: Int, hour: Int = 12, offset: Int? = nil) -> CaptureDate {
        CaptureDate(year: 2024, month: 5, day: 1, hour: hour, minute: 0, second: second, utcOffsetMinutes: offset)
    }

    @Test("a missing capture date pairs only with matchNamesWithoutCaptureDate (Takeout movies have zero dates)")
    func missingDate() {
        let inputs = [
            Self.synthetic("/up/IMG_0001.HEIC", movie: false, size: 10, date: Self.date(0)),
            Self.synthetic("/up/IMG_0001.MP4", movie: true, size: 20, date: nil),
        ]
        let strict = Pairing.pair(inputs, options: PairingOptions(matchNames: true), contents: ForbiddenContentSource())
        #expect(strict.pairs.isEmpty)
        let lenient = Pairing.pair(
            inputs, options: PairingOptions(matchNames: true, matchNamesWithoutCaptureDate: true), contents: ForbiddenContentSource())
        #expect(lenient.pairs.first?.isWeak == true)
    }

    @Test("the tolerance is inclusive; the nearest movie wins; stems are normalised")
    func toleranceAndNearest() {
        let inputs = [
            Self.synthetic("/up/IMG_0001.HEIC", movie: false, size: 10, date: Self.date(10)),
            Self.synthetic("/up/IMG_0001 (1).MOV", movie: true, size: 20, date: Self.date(13)),
            Self.synthetic("/up/IMG_0001_HEVC.MOV", movie: true, size: 30, date: Self.date(11)),
            Self.synthetic("/up/IMG_0002.HEIC", movie: false, size: 40, date: Self.date(0)),
            Self.synthetic("/up/IMG_0002.MOV", movie: true, size: 50, date: Self.date(4)),
        ]
        let result = Pairing.pair(inputs, options: PairingOptions(matchNames: true), contents: ForbiddenContentSource())
        #expect(result.pairs.map(\.video.path) == ["/up/IMG_0001_HEVC.MOV"])
        #expect(Set(result.unpaired.map(\.resource.path)) == ["/up/IMG_0001 (1).MOV", "/up/IMG_0002.HEIC", "/up/IMG_0002.MOV"])
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("a local-time still and a UTC movie two hours apart (plus 1 s) count as 1 s apart")
    func timeZoneDifference() {
        let inputs = [
            Self.synthetic("/up/IMG_0003.HEIC", movie: false, size: 10, date: Self.date(0, hour: 14)),
            Self.synthetic("/up/IMG_0003.MOV", movie: true, size: 20, date: Self.date(1, hour: 12, offset: 0)),
        ]
        let result = Pairing.pair(inputs, options: PairingOptions(matchNames: true), contents: ForbiddenContentSource())
        #expect(result.pairs.count == 1)
        let known = [
            Self.synthetic("/up/IMG_0004.HEIC", movie: false, size: 10, date: Self.date(0, hour: 14, offset: 120)),
            Self.synthetic("/up/IMG_0004.MOV", movie: true, size: 20, date: Self.date(1, hour: 13, offset: 0)),
        ]
        // Both offsets known: 14:00+02:00 and 13:00:01Z are an hour apart.
        #expect(Pairing.pair(known, options: PairingOptions(matchNames: true), contents: ForbiddenContentSource()).pairs.isEmpty)
    }

    @Test(
        "stem normalisation",
        arguments: [
            ("IMG_1234_HEVC", "img_1234"), ("IMG_1234(1)", "img_1234"), ("IMG_1234 (2)", "img_1234"),
            ("img_1234(1)_HEVC", "img_1234"), ("51F2BEF7-431A-4D31-8AC1-3284A57826AE_3", "51f2bef7-431a-4d31-8ac1-3284a57826ae"),
            ("51F2BEF7-431A-4D31-8AC1-3284A57826AE_2_100_a", "51f2bef7-431a-4d31-8ac1-3284a57826ae"),
            ("DSC_01", "dsc_01"), ("IMG_E1234", "img_e1234"), ("(1)", "(1)"), ("_HEVC", "_hevc"), ("FullSizeRender", "fullsizerender"),
        ])
    func stems(stem: String, normalized: String) {
        #expect(StemNormalizer.normalize(stem) == normalized)
    }
}
