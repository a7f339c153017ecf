import Foundation
import LivePair
import LivePairFormats
import TestSupport
import Testing

@Suite("Edit groups and their findings")
struct EditGroupingTests {
    @Test("names: renders, adjustment data and originals", arguments: [
        ("IMG_E1234", false, "img_1234", "render"), ("IMG_1234_edited", false, "img_1234", "render"),
        ("IMG_1234-adjusted", false, "img_1234", "render"), ("IMG_E1234(1)", false, "img_1234", "render"),
        ("IMG_1234", true, "img_1234", "adjustments"), ("IMG_O1234", true, "img_1234", "adjustments"),
        ("IMG_1234(1)", true, "img_1234", "adjustments"), ("IMG_1234", false, "img_1234", "original"),
        ("IMG_1234_HEVC", false, "img_1234", "original"), ("IMG_EDIT", false, "img_edit", "original"),
        ("DSC_E", false, "dsc_e", "original"), ("IMG_O1234", false, "img_o1234", "original"),
    ])
    func names(stem: String, isAdjustmentData: Bool, group: String, part: String) {
        let found = EditGrouping.classify(stem: stem, isAdjustmentData: isAdjustmentData)
        #expect(found.stem == group)
        #expect("\(found.part)" == part)
    }

    static let live = [
        "IMG_1853.AAE", "IMG_1853.HEIC", "IMG_E1853.heic", "IMG_3582.AAE", "IMG_3582.HEIC", "IMG_3582.mov",
        "IMG_3582_edited.heic", "IMG_3582_edited.mov", "IMG_4580.HEIC", "IMG_4580.mov", "train.jpg", "train.mov",
    ].map { SampleMedia.path("live/" + $0) }

    @Test("the real edits: IMG_1853 (key photo) and IMG_3582 (black and white, depth) with their renders")
    func realGroups() throws {
        let resources = Self.live.map { AssetResource(ResourceIdentifier().identify(path: $0)) }
        let groups = Pairing.pair(resources).editGroups
        let folder = SampleMedia.path("live")
        #expect(groups.map(\.stem) == ["img_1853", "img_3582"])
        #expect(groups.allSatisfy { $0.folder == folder })
        #expect(groups[0].originals == [folder + "/IMG_1853.HEIC"])
        #expect(groups[0].renders == [folder + "/IMG_E1853.heic"])
        #expect(groups[0].adjustments == [folder + "/IMG_1853.AAE"])
        #expect(groups[1].originals == [folder + "/IMG_3582.HEIC", folder + "/IMG_3582.mov"])
        #expect(groups[1].renders == [folder + "/IMG_3582_edited.heic", folder + "/IMG_3582_edited.mov"])
        #expect(groups[1].adjustments == [folder + "/IMG_3582.AAE"])

        let aae = try #require(resources.first { $0.path.hasSuffix("IMG_1853.AAE") })
        #expect(aae.role == .adjustmentData && aae.identity.isComplete)
        #expect(
            aae.identity.adjustment
                == AdjustmentInfo(
                    formatIdentifier: "com.apple.photo", formatVersion: "1.4",
                    master: AdjustmentRecipe.Master(width: 3024, height: 4032, orientation: 6),
                    operations: ["LivePhotoKeyFrame"], keyPhotoTime: 2.9))
        // Edit data changes nothing else: the pairs are the same with or without it.
        let media = resources.filter { $0.role != .adjustmentData }
        #expect(Pairing.pair(resources).pairs == Pairing.pair(media).pairs)
        // And complete groups have no edit finding.
        let report = ValidationFixture.report(Self.live)
        #expect(!report.allFindings.contains { $0.code.rawValue.hasPrefix("edit-") })
        #expect(report.files.filter { $0.role == .adjustmentData }.count == 2)
    }

    private func copy(_ sample: String, as name: String, into folder: String) throws {
        try FileManager.default.copyItem(atPath: SampleMedia.path(sample), toPath: folder + "/" + name)
    }

    @Test("edit data without its photo, a render without its original")
    func orphans() throws {
        let folder = try TestScratch.folder("edit-orphans")
        try copy("live/IMG_1853.AAE", as: "IMG_1853.AAE", into: folder)
        try copy("live/IMG_E1853.heic", as: "IMG_E1853.heic", into: folder)
        let report = ValidationFixture.report([folder + "/IMG_1853.AAE", folder + "/IMG_E1853.heic"])
        #expect(
            ValidationFixture.summary(report).sorted() == [
                "edit-data-without-photo warning IMG_1853.AAE", "edit-render-without-original info IMG_E1853.heic",
                "missing-pair-video warning IMG_E1853.heic",
            ])
        let finding = try #require(report.allFindings.first { $0.code == .editDataWithoutPhoto })
        #expect(finding.message == "IMG_1853.AAE is edit data, but no photo named img_1853.* is in its folder")
        // In another folder, the original does not count.
        let other = try TestScratch.folder("edit-original-elsewhere")
        try copy("live/IMG_1853.HEIC", as: "IMG_1853.HEIC", into: other)
        let split = ValidationFixture.report([folder + "/IMG_1853.AAE", other + "/IMG_1853.HEIC"])
        #expect(ValidationFixture.summary(split).contains("edit-data-without-photo warning IMG_1853.AAE"))
    }

    @Test("edit data made on a master of another size")
    func masterSizeMismatch() throws {
        let folder = try TestScratch.folder("edit-master")
        try copy("live/IMG_1853.AAE", as: "IMG_1853.AAE", into: folder)
        try copy("live/IMG_3582.HEIC", as: "IMG_1853.HEIC", into: folder)
        let report = ValidationFixture.report([folder + "/IMG_1853.AAE", folder + "/IMG_1853.HEIC"])
        let finding = try #require(report.allFindings.first { $0.code == .editMasterSizeMismatch })
        #expect(finding.severity == .warning && finding.path == folder + "/IMG_1853.AAE")
        #expect(finding.message == "IMG_1853.AAE was made on a 3024x4032 image; IMG_1853.HEIC is 5712x4284")
        // The right original, stored 4032x3024 for a 3024x4032 master (orientation 6), agrees.
        let right = try TestScratch.folder("edit-master-right")
        try copy("live/IMG_1853.AAE", as: "IMG_1853.AAE", into: right)
        try copy("live/IMG_1853.HEIC", as: "IMG_1853.HEIC", into: right)
        let agreeing = ValidationFixture.report([right + "/IMG_1853.AAE", right + "/IMG_1853.HEIC"])
        #expect(!agreeing.allFindings.contains { $0.code.rawValue.hasPrefix("edit-") })
    }

    @Test("a damaged or hostile .AAE is a corrupt file: cut short, a DEFLATE bomb")
    func hostile() throws {
        let folder = try TestScratch.folder("edit-hostile")
        let bytes = try SampleMedia.bytes("live/IMG_1853.AAE")
        try Data(bytes.prefix(600)).write(to: URL(fileURLWithPath: folder + "/IMG_1.AAE"))
        let fixtures = SampleMedia.root.deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/adjustments")
        let bomb = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("zeros-64MiB.deflate")))
        let sidecar = AdjustmentSidecar(
            adjustmentData: AdjustmentData(formatIdentifier: "com.apple.photo", formatVersion: "1.4", data: bomb))
        try Data(sidecar.xmlBytes).write(to: URL(fileURLWithPath: folder + "/IMG_2.AAE"))
        let report = ValidationFixture.report([folder + "/IMG_1.AAE", folder + "/IMG_2.AAE"])
        #expect(
            ValidationFixture.summary(report) == [
                "corrupt-file error IMG_1.AAE", "edit-data-without-photo warning IMG_1.AAE", "corrupt-file error IMG_2.AAE",
                "edit-data-without-photo warning IMG_2.AAE",
            ])
        let bombFinding = try #require(report.allFindings.last { $0.code == .corruptFile })
        #expect(bombFinding.message.contains("inflated size is"))
        #expect(bombFinding.message.contains("above the limit of 16777216"))
        #expect(report.files.allSatisfy { $0.role == .adjustmentData })
    }
}
