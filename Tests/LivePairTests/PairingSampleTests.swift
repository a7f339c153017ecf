import LivePair
import LivePairFormats
import TestSupport
import Testing

@Suite("Pairing the real samples")
struct PairingSampleTests {
    static let samples = PairingFixtures.allSamples
    static let result = Pairing.pair(samples)

    @Test("the five real pairs pair with their exact identifiers and paths")
    func realPairs() throws {
        let result = Self.result
        #expect(result.pairs.count == 5)
        for expected in PairingFixtures.realPairs {
            let pair = try #require(result.pairs.first { $0.photo.path == SampleMedia.path(expected.still) })
            #expect(pair.video.path == SampleMedia.path(expected.movie))
            #expect(pair.contentIdentifier?.rawValue == expected.identifier)
            #expect(pair.isWeak == false)
            #expect(pair.photo.role == .livePhotoStill && pair.video.role == .livePhotoVideo)
            #expect(pair.video.type == .pairedVideo)
        }
        #expect(result.pairs.map(\.photo.path) == result.pairs.map(\.photo.path).sorted())
    }

    @Test("a wrong extension never decides: HEIC named .jpg pairs, PNG named .jpg is a photo, text named .jpg is unreadable")
    func wrongExtensions() throws {
        let workspace = try SampleVariants.Workspace()
        let heic = try workspace.copy("live/IMG_4580.HEIC", as: "IMG_4580.jpg")
        let movie = try workspace.copy("live/IMG_4580.mov", as: "IMG_4580.mov")
        let png = SampleMedia.path("broken/normalphoto.jpg")
        let text = try workspace.write(Array("not a photo\n".utf8), as: "notes.jpg")
        let readme = try workspace.write(Array("not a photo\n".utf8), as: "README.txt")
        let result = Pairing.pair([heic, movie, png, text, readme].map { AssetResource(ResourceIdentifier().identify(path: $0)) })
        #expect(result.pairs.map { [$0.photo.path, $0.video.path] } == [[heic, movie]])
        #expect(PairingFixtures.reason(of: png, in: result) == .noContentIdentifier)
        #expect(PairingFixtures.reason(of: text, in: result) == .unreadable)
        #expect(PairingFixtures.reason(of: readme, in: result) == .notMedia)
    }

    @Test("orphan stills (IMG_1853, its edit IMG_E1853 with a new identifier, IMG_2927) miss their movie")
    func orphans() {
        for file in ["live/IMG_1853.HEIC", "live/IMG_E1853.heic", "live/IMG_2927.HEIC", "live/exif-at-eof.heic"] {
            #expect(PairingFixtures.reason(of: SampleMedia.path(file), in: Self.result) == .missingPairedVideo, "\(file)")
        }
        let edited = Self.result.unpaired.first { $0.resource.path == SampleMedia.path("live/IMG_E1853.heic") }
        let original = Self.result.unpaired.first { $0.resource.path == SampleMedia.path("live/IMG_1853.HEIC") }
        #expect(edited?.resource.contentIdentifier?.rawValue == "DDFE07E3-65A7-4329-896F-41C370FF4FCD")
        #expect(original?.resource.contentIdentifier?.rawValue == "DC121C25-1A7C-4FEC-BB42-99FB89A4719D")
    }

    @Test("two different orphan stills with one identifier are listed once, as orphans, and no ambiguity (issue 20)")
    func orphanStillsShareIdentifier() throws {
        #expect(Self.result.ambiguous.isEmpty)
        let shared = Self.result.unpaired.filter { $0.resource.contentIdentifier?.rawValue == PairingFixtures.sharedStillIdentifier }
        #expect(shared.map(\.resource.path) == [SampleMedia.path("live/IMG_2927.HEIC"), SampleMedia.path("live/exif-at-eof.heic")])
        #expect(shared.map(\.reason) == [.missingPairedVideo, .missingPairedVideo])
    }

    @Test("negatives without identifier are unpaired as no-content-identifier")
    func negatives() {
        for entry in SampleMedia.manifest where entry.file.hasPrefix("plain/") {
            #expect(
                PairingFixtures.reason(of: SampleMedia.path(entry.file), in: Self.result) == .noContentIdentifier,
                "\(entry.file)")
        }
    }

    @Test("motion photos are listed as self-contained")
    func motionPhotos() {
        let listed = Set(Self.result.motionPhotos.map(\.path))
        for entry in SampleMedia.manifest where entry.file.hasPrefix("motion/") {
            #expect(listed.contains(SampleMedia.path(entry.file)), "\(entry.file)")
        }
        // The broken Google file claims to be a motion photo (validation reports its missing video).
        for path in listed { #expect(path.contains("/motion/") || path.contains("/broken/")) }
    }

    @Test("broken files are never paired")
    func broken() {
        let paired = Set(Self.result.pairs.flatMap { [$0.photo.path, $0.video.path] })
        for entry in SampleMedia.manifest where entry.file.hasPrefix("broken/") {
            #expect(!paired.contains(SampleMedia.path(entry.file)))
        }
    }

    @Test("unreadable files and files posing as media are unreadable; other files are not-media")
    func unreadable() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(Array("not a photo".utf8), as: "notes.jpg")
        try folder.write(Array("just notes".utf8), as: "notes.txt")
        let missing = PairingFixtures.resource(at: folder.path + "/vanished.HEIC")
        let inputs = [folder.resource("notes.jpg"), folder.resource("notes.txt"), missing]
        let result = Pairing.pair(inputs)
        #expect(result.unpaired.map(\.reason) == [.unreadable, .notMedia, .unreadable])
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("every sample appears exactly once")
    func exactlyOnce() {
        PairingFixtures.expectEachResourceOnce(Self.result, inputs: Self.samples)
        #expect(Self.result.duplicates.isEmpty)
    }

    @Test("no file contents are read when no two files could be duplicates")
    func noNeedlessReads() {
        let counter = CountingContentSource()
        _ = Pairing.pair(Self.samples, contents: counter)
        #expect(counter.opens == 0)
        #expect(counter.bytesRead == 0)
    }
}
