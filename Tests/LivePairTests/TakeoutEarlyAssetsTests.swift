import LivePair
import LivePairFormats
import TestSupport
import Testing

/// `TakeoutEarlyAssets` on real files (SampleMedia/live/IMG_4580 is a Live Photo, motion/
/// PXL_20200710_061629144.MP.jpg a motion photo) fed as a Takeout's parts would give them.
@Suite("Takeout assets given while the parts stream: only what no later file can change")
struct TakeoutEarlyAssetsTests {
    static let folder = "Takeout/Google Photos/Photos from 2025/"

    private func media(_ sample: String, as name: String, digest: [UInt8]? = nil, folder: String = folder) -> ExportEntry {
        let identity = ResourceIdentifier().identify(path: SampleMedia.path(sample))
        return ExportEntry(path: folder + name, location: "part.zip:" + folder + name, content: .identified(identity), digest: digest)
    }

    private func sidecar(_ name: String, trashed: Bool = false, folder: String = folder) -> ExportEntry {
        let json = #"{"title": "x", "photoTakenTime": {"timestamp": "1700000000"}, "trashed": \#(trashed)}"#
        return ExportEntry(path: folder + name, location: "part.zip:" + folder + name, content: .json(Array(json.utf8)))
    }

    @Test("a Live Photo is given when its still, its movie and both their own sidecars are read, in any order, once")
    func livePhoto() {
        let early = TakeoutEarlyAssets()
        #expect(early.add(sidecar("IMG_4580.mov.supplemental-metadata.json")).isEmpty)
        #expect(early.add(media("live/IMG_4580.HEIC", as: "IMG_4580.HEIC")).isEmpty)
        #expect(early.add(media("live/IMG_4580.mov", as: "IMG_4580.mov")).isEmpty)
        let given = early.add(sidecar("IMG_4580.HEIC.json"))
        #expect(given.count == 1)
        #expect(given.first?.kind == .livePhoto && given.first?.pairedBy == .identifier)
        #expect(given.first?.photo == Self.folder + "IMG_4580.HEIC" && given.first?.video == Self.folder + "IMG_4580.mov")
        #expect(given.first?.contentIdentifier?.rawValue == "4E1A1B89-CE70-4FF8-873B-E4470B839314")
        // Read again (another sidecar name for the still): never given twice.
        #expect(early.add(sidecar("IMG_4580.HEIC.supplemental-metadata.json")).isEmpty)
    }

    @Test("a Live Photo whose movie has no sidecar of its own goes with its still's")
    func movieWithoutSidecar() {
        let early = TakeoutEarlyAssets()
        #expect(early.add(media("live/IMG_4580.mov", as: "IMG_4580.mov")).isEmpty)
        #expect(early.add(media("live/IMG_4580.HEIC", as: "IMG_4580.HEIC")).isEmpty)
        let given = early.add(sidecar("IMG_4580.HEIC.supplemental-metadata.json"))
        #expect(given.map(\.video) == [Self.folder + "IMG_4580.mov"])
        // A movie whose own sidecar says trashed does not.
        let trashed = TakeoutEarlyAssets()
        _ = trashed.add(media("live/IMG_4580.mov", as: "IMG_4580.mov"))
        _ = trashed.add(sidecar("IMG_4580.mov.json", trashed: true))
        _ = trashed.add(media("live/IMG_4580.HEIC", as: "IMG_4580.HEIC"))
        #expect(trashed.add(sidecar("IMG_4580.HEIC.json")).isEmpty)
    }

    @Test("what a later file could change waits: a trashed or missing sidecar, a third file with the identifier, a render, a copy")
    func waits() {
        let trashed = TakeoutEarlyAssets()
        _ = trashed.add(media("live/IMG_4580.HEIC", as: "IMG_4580.HEIC"))
        _ = trashed.add(media("live/IMG_4580.mov", as: "IMG_4580.mov"))
        _ = trashed.add(sidecar("IMG_4580.mov.json"))
        #expect(trashed.add(sidecar("IMG_4580.HEIC.json", trashed: true)).isEmpty)
        // A cut sidecar name (rule `truncated`) or an old STEM.json is not enough either.
        let weak = TakeoutEarlyAssets()
        _ = weak.add(media("live/IMG_4580.HEIC", as: "IMG_4580.HEIC"))
        _ = weak.add(media("live/IMG_4580.mov", as: "IMG_4580.mov"))
        _ = weak.add(sidecar("IMG_4580.mov.json"))
        #expect(weak.add(sidecar("IMG_4580.json")).isEmpty)
        // Three files with one identifier in a folder: the plan decides.
        let crowded = TakeoutEarlyAssets()
        _ = crowded.add(media("live/IMG_4580.HEIC", as: "IMG_4580.HEIC"))
        _ = crowded.add(media("live/IMG_4580.HEIC", as: "IMG_4580(1).HEIC"))
        _ = crowded.add(media("live/IMG_4580.mov", as: "IMG_4580.mov"))
        _ = crowded.add(sidecar("IMG_4580.mov.json"))
        _ = crowded.add(sidecar("IMG_4580.HEIC(1).json"))
        #expect(crowded.add(sidecar("IMG_4580.HEIC.json")).isEmpty)
        // An -edited render never; a motion photo alone once its sidecar is read.
        let motion = TakeoutEarlyAssets()
        #expect(motion.add(media("motion/PXL_20200710_061629144.MP.jpg", as: "PXL_1-edited.jpg")).isEmpty)
        #expect(motion.add(sidecar("PXL_1-edited.jpg.json")).isEmpty)
        #expect(motion.add(media("motion/PXL_20200710_061629144.MP.jpg", as: "PXL_1.MP.jpg", digest: [1, 2, 3])).isEmpty)
        let given = motion.add(sidecar("PXL_1.MP.jpg.supplemental-metadata.json"))
        #expect(given.map(\.kind) == [.motionPhoto] && given.first?.photo == Self.folder + "PXL_1.MP.jpg")
        // Its copy in an album folder (the same bytes) is left to the plan, which keeps one.
        let album = "Takeout/Google Photos/Voyage/"
        _ = motion.add(sidecar("PXL_1.MP.jpg.json", folder: album))
        #expect(motion.add(media("motion/PXL_20200710_061629144.MP.jpg", as: "PXL_1.MP.jpg", digest: [1, 2, 3], folder: album)).isEmpty)
    }
}
