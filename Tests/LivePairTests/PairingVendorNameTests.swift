import LivePair
import LivePairFormats
import TestSupport
import Testing

@Suite("Pairing ignores names")
struct PairingVendorNameTests {
    @Test("vendor-renamed halves pair by identifier (icloudpd _HEVC, Photos UUID_3, (1) copies, Takeout .MP4)")
    func vendorNames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let uuid = "0C9D2F7E-3F1B-4C55-9A0E-6D7B8A1F2E3D"
        let layout: [(still: String, stillName: String, movie: String, movieName: String)] = [
            ("live/IMG_3582.HEIC", "icloudpd/IMG_3582.HEIC", "live/IMG_3582.mov", "icloudpd/IMG_3582_HEVC.MOV"),
            ("live/IMG_4580.HEIC", "library/\(uuid).heic", "live/IMG_4580.mov", "library/\(uuid)_3.mov"),
            ("live/IMG_3582_edited.heic", "browser/IMG_1234(1).HEIC", "live/IMG_3582_edited.mov", "browser/IMG_1234 (2).MOV"),
            ("live/train.jpg", "takeout/IMG_0042.JPG", "live/train.mov", "takeout/IMG_0042.MP4"),
            ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "a/FullSizeRender.jpeg",
             "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov", "b/FullSizeRender_video.mov"),
        ]
        var inputs: [AssetResource] = []
        for item in layout {
            try folder.copy(item.still, as: item.stillName)
            try folder.copy(item.movie, as: item.movieName)
            inputs += [folder.resource(item.stillName), folder.resource(item.movieName)]
        }
        let takeoutMovie = folder.resource("takeout/IMG_0042.MP4")
        #expect(takeoutMovie.identity.format == .quickTime, "the .MP4 keeps the QuickTime brand")

        let result = Pairing.pair(inputs)
        #expect(result.pairs.count == layout.count)
        #expect(result.unpaired.isEmpty && result.ambiguous.isEmpty && result.duplicates.isEmpty)
        for item in layout {
            let pair = result.pairs.first { $0.photo.path == folder.path + "/" + item.stillName }
            #expect(pair?.video.path == folder.path + "/" + item.movieName, "\(item.stillName)")
            #expect(pair?.isWeak == false)
        }
        PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
    }

    @Test("same-name files with different identifiers do not pair, even with name matching on")
    func sameNameDifferentIdentifiers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copy("live/train.jpg", as: "train.jpg")
        try folder.copy("live/IMG_3582.mov", as: "train.mov")
        let inputs = [folder.resource("train.jpg"), folder.resource("train.mov")]
        let permissive = PairingOptions(matchNames: true, captureTimeTolerance: 1e12, matchNamesWithoutCaptureDate: true)
        for options in [PairingOptions(), permissive] {
            let result = Pairing.pair(inputs, options: options)
            #expect(result.pairs.isEmpty)
            #expect(PairingFixtures.reason(of: folder.path + "/train.jpg", in: result) == .missingPairedVideo)
            #expect(PairingFixtures.reason(of: folder.path + "/train.mov", in: result) == .missingPhoto)
            PairingFixtures.expectEachResourceOnce(result, inputs: inputs)
        }
    }

    @Test("halves in different folders pair")
    func differentFolders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copy("live/IMG_4580.HEIC", as: "photos/2024/IMG_4580.HEIC")
        try folder.copy("live/IMG_4580.mov", as: "videos/clip.mov")
        let result = Pairing.pair([folder.resource("photos/2024/IMG_4580.HEIC"), folder.resource("videos/clip.mov")])
        #expect(result.pairs.count == 1)
        #expect(result.ambiguous.isEmpty)
    }

    @Test("a movie without its still is missing-photo")
    func orphanMovie() throws {
        let result = Pairing.pair([PairingFixtures.sample("live/IMG_4580.mov")])
        #expect(result.unpaired.map(\.reason) == [.missingPhoto])
        #expect(result.unpaired.first?.resource.contentIdentifier?.rawValue == "4E1A1B89-CE70-4FF8-873B-E4470B839314")
    }
}
