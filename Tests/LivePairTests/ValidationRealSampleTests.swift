import Foundation
import LivePair
import Synchronization
import TestSupport
import Testing

@Suite("Validation of the real samples")
struct ValidationRealSampleTests {
    /// Every real pair with exactly the findings it gets: none but the HEVC remark.
    static let pairs: [(photo: String, video: String, findings: [String])] = [
        ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov", []),
        ("live/IMG_3582.HEIC", "live/IMG_3582.mov", ["hevc-video info IMG_3582.mov"]),
        // Validated without IMG_3582.HEIC/.mov, the edit's render has no original beside it.
        (
            "live/IMG_3582_edited.heic", "live/IMG_3582_edited.mov",
            [
                "edit-render-without-original info IMG_3582_edited.heic",
                "edit-render-without-original info IMG_3582_edited.mov", "hevc-video info IMG_3582_edited.mov",
            ]
        ),
        ("live/IMG_4580.HEIC", "live/IMG_4580.mov", ["hevc-video info IMG_4580.mov"]),
        ("live/train.jpg", "live/train.mov", []),
    ]

    @Test("real pairs validate without errors, with exactly the pinned findings", arguments: pairs)
    func realPairs(pair: (photo: String, video: String, findings: [String])) throws {
        let report = ValidationFixture.report(samples: [pair.photo, pair.video])
        #expect(report.files.isEmpty)
        let asset = try #require(report.assets.first)
        #expect(report.assets.count == 1)
        #expect(asset.kind == .livePhoto)
        #expect(asset.photo == SampleMedia.path(pair.photo) && asset.video == SampleMedia.path(pair.video))
        #expect(asset.contentIdentifier?.rawValue == SampleMedia.entry(pair.photo)?.contentIdentifier)
        #expect(ValidationFixture.summary(report) == pair.findings)
        #expect(asset.status == .valid)
        #expect(!report.hasErrors)
    }

    @Test("the whole sample set, halves in any order: pinned findings per file")
    func wholeSet() {
        let report = ValidationFixture.report(samples: SampleMedia.manifest.map(\.file).reversed())
        let expected = [
            "motion-photo-video-missing error google_motion_photo_broken.jpg",
            "hevc-video info IMG_3582.mov",
            "hevc-video info IMG_3582_edited.mov",
            "hevc-video info IMG_4580.mov",
            "ambiguous-pair warning IMG_2927.HEIC", "missing-pair-video warning IMG_2927.HEIC",
            "ambiguous-pair warning exif-at-eof.heic", "missing-pair-video warning exif-at-eof.heic",
            "missing-pair-video warning IMG_1853.HEIC",
            "missing-pair-video warning IMG_E1853.heic",
            "hevc-video info motionphoto.heic", "hevc-video info photo-sg22-ultra.heic",
            "hevc-video info samsung-one-ui-6.heic",
            "corrupt-file error IllegalArgumentException.HeifReader.processBoxes.heif",
            "corrupt-file error NegativeArraySizeException.HeifReader.processBoxes.heif",
            "corrupt-file error badimage.jpeg",
            "extension-mismatch warning normalphoto.jpg",
        ]
        #expect(ValidationFixture.summary(report).sorted() == expected.sorted())
        #expect(report.assets.count == 5 + 4 + 5)  // 5 pairs, 4 orphan stills, 5 motion photos (one broken)
        #expect(report.files.count == 11 + 2)  // and the two .AAE edit files, unknown content without findings
        #expect(report.countsBySeverity == [.error: 4, .warning: 7, .info: 6])
    }

    @Test("an orphan still reports its missing movie, an orphan movie its missing still")
    func orphans() throws {
        let still = ValidationFixture.report(samples: ["live/IMG_1853.HEIC"])
        #expect(ValidationFixture.summary(still) == ["missing-pair-video warning IMG_1853.HEIC"])
        let asset = try #require(still.assets.first)
        #expect(asset.video == nil && asset.status == .warning)
        #expect(asset.findings[0].message.contains("DC121C25-1A7C-4FEC-BB42-99FB89A4719D"))

        let movie = ValidationFixture.report(samples: ["live/IMG_3582.mov"])
        #expect(
            ValidationFixture.summary(movie) == ["missing-pair-photo warning IMG_3582.mov", "hevc-video info IMG_3582.mov"])
        #expect(movie.assets.first?.photo == nil)
    }

    @Test("an edited still (IMG_E1853, new identifier) is an orphan, not an identifier mismatch")
    func editedVersionIsOrphan() {
        let report = ValidationFixture.report(samples: ["live/IMG_1853.HEIC", "live/IMG_E1853.heic"])
        #expect(
            ValidationFixture.summary(report).sorted() == [
                "missing-pair-video warning IMG_1853.HEIC", "missing-pair-video warning IMG_E1853.heic",
            ])
    }

    @Test("negatives (LivePhotoVideoIndex without identifier, movies with timed metadata, non-motion photos) have no findings",
        arguments: [
            "plain/IMG_0102.HEIC", "plain/IMG_2682.heic", "plain/IMG_5747.HEIC", "plain/IMG_3539.MOV",
            "plain/with-gps.mov", "plain/pixel_8.jpg", "plain/sewing-threads.heic",
        ])
    func negatives(file: String) {
        let report = ValidationFixture.report(samples: [file])
        #expect(report.assets.isEmpty)
        #expect(report.files.count == 1)
        #expect(report.allFindings.isEmpty)
    }

    @Test("motion photos are assets on their own; the Samsung ones get the HEVC remark")
    func motionPhotos() {
        let report = ValidationFixture.report(samples: [
            "motion/PXL_20200710_061629144.MP.jpg", "motion/motionphoto.heic", "motion/photo-sg22-ultra.heic",
            "motion/samsung-one-ui-6.heic",
        ])
        #expect(report.assets.map(\.kind) == [.motionPhoto, .motionPhoto, .motionPhoto, .motionPhoto])
        #expect(
            ValidationFixture.summary(report) == [
                "hevc-video info motionphoto.heic", "hevc-video info photo-sg22-ultra.heic",
                "hevc-video info samsung-one-ui-6.heic",
            ])
    }

    @Test("a motion photo whose video is missing is an error (real broken sample)")
    func brokenMotionPhoto() throws {
        let report = ValidationFixture.report(samples: ["broken/google_motion_photo_broken.jpg"])
        let asset = try #require(report.assets.first)
        #expect(asset.kind == .motionPhoto && asset.status == .invalid)
        #expect(ValidationFixture.summary(report) == ["motion-photo-video-missing error google_motion_photo_broken.jpg"])
        #expect(asset.findings[0].message.contains("MicroVideoOffset 1024"))
    }

    @Test("serial and parallel validation give the same report")
    func deterministic() {
        let paths = SampleMedia.manifest.map { SampleMedia.path($0.file) }
        let serial = Validator(options: ValidationOptions(parallel: false)).validate(paths: paths)
        let parallel = Validator(options: ValidationOptions(parallel: true)).validate(paths: paths.shuffled())
        #expect(serial == parallel)
    }

    @Test("progress is reported once per asset and file, up to the total")
    func progress() {
        let resources = SampleMedia.manifest.map { AssetResource(ResourceIdentifier().identify(path: SampleMedia.path($0.file))) }
        let calls = Mutex<[Int]>([])
        let totals = Mutex<Set<Int>>([])
        let report = Validator().validate(Pairing.pair(resources)) { done, total in
            calls.withLock { $0.append(done) }
            totals.withLock { _ = $0.insert(total) }
        }
        let count = report.assets.count + report.files.count
        #expect(calls.withLock { $0.sorted() } == Array(1...count))
        #expect(totals.withLock { $0 } == [count])
    }
}
