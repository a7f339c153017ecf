import Foundation
import LivePair
import TestSupport
import Testing

/// One generated variant per rule, derived from the real samples in a temporary folder; each
/// asserts the exact finding code and severity.
@Suite("Validation of generated variants")
struct ValidationVariantTests {
    typealias V = SampleVariants

    static let heic = "live/IMG_3582.HEIC"
    static let mov = "live/IMG_3582.mov"
    static let identifier = "602FEBB7-6B59-4799-96E6-9C8484D873C7"
    static let otherIdentifier = "11111111-2222-4333-8444-555555555555"

    /// The findings of `code` in `report`, as "severity file-name".
    func findings(_ code: FindingCode, in report: ValidationReport) -> [String] {
        report.allFindings.filter { $0.code == code }.map { "\($0.severity) \(($0.path as NSString).lastPathComponent)" }
    }

    /// Writes the still unchanged and `movie` as IMG_3582.mov, and validates both.
    func pairWithMovie(_ movie: [UInt8], _ workspace: V.Workspace) throws -> ValidationReport {
        let photo = try workspace.copy(Self.heic, as: "IMG_3582.HEIC")
        let video = try workspace.write(movie, as: "IMG_3582.mov")
        return ValidationFixture.report([photo, video])
    }

    @Test("identifier-mismatch: a same-name movie with another identifier")
    func identifierMismatch() throws {
        let workspace = try V.Workspace()
        let movie = V.replacingText(Self.identifier, with: Self.otherIdentifier, in: try SampleMedia.bytes(Self.mov))
        let report = try pairWithMovie(movie, workspace)
        #expect(findings(.identifierMismatch, in: report) == ["error IMG_3582.mov"])
        #expect(report.assets.count == 1 && report.assets[0].status == .invalid)
        #expect(findings(.missingPairVideo, in: report).isEmpty && findings(.missingPairPhoto, in: report).isEmpty)
        #expect(report.allFindings[0].message.contains(Self.otherIdentifier))
    }

    @Test("identifier-mismatch: vendor names (_HEVC, (1)) are matched for the explanation")
    func identifierMismatchVendorNames() throws {
        let workspace = try V.Workspace()
        let photo = try workspace.copy(Self.heic, as: "IMG_3582(1).HEIC")
        let movie = V.replacingText(Self.identifier, with: Self.otherIdentifier, in: try SampleMedia.bytes(Self.mov))
        let video = try workspace.write(movie, as: "IMG_3582_HEVC.MOV")
        let report = ValidationFixture.report([photo, video])
        #expect(findings(.identifierMismatch, in: report) == ["error IMG_3582_HEVC.MOV"])
    }

    @Test("missing-content-identifier: the movie's identifier key is gone")
    func missingContentIdentifier() throws {
        let workspace = try V.Workspace()
        let movie = V.replacingText(
            "com.apple.quicktime.content.identifier", with: "com.apple.quicktime.content.identifieX",
            in: try SampleMedia.bytes(Self.mov))
        let report = try pairWithMovie(movie, workspace)
        #expect(findings(.missingContentIdentifier, in: report) == ["error IMG_3582.mov"])
        #expect(report.assets.count == 1 && report.files.isEmpty)
        #expect(findings(.missingPairVideo, in: report).isEmpty)
    }

    @Test("malformed-content-identifier: both halves carry the same non-UUID text")
    func malformedIdentifier() throws {
        let workspace = try V.Workspace()
        let text = "LIVEPAIR-TEST-IDENTIFIER-NOT-A-UUID"
        let padded = text + String(repeating: "X", count: 36 - text.count)
        let photo = try workspace.write(
            V.replacingText(Self.identifier, with: padded, in: try SampleMedia.bytes(Self.heic)), as: "IMG_3582.HEIC")
        let video = try workspace.write(
            V.replacingText(Self.identifier, with: padded, in: try SampleMedia.bytes(Self.mov)), as: "IMG_3582.mov")
        let report = ValidationFixture.report([photo, video])
        #expect(report.assets.count == 1 && report.assets[0].video != nil)
        #expect(findings(.malformedContentIdentifier, in: report).sorted() == ["warning IMG_3582.HEIC", "warning IMG_3582.mov"])
    }

    @Test("missing-still-image-time: the still-image-time key renamed")
    func missingStillImageTime() throws {
        let workspace = try V.Workspace()
        let movie = V.replacingText(
            "com.apple.quicktime.still-image-time", with: "com.apple.quicktime.still-image-tiXe",
            in: try SampleMedia.bytes(Self.mov))
        let report = try pairWithMovie(movie, workspace)
        #expect(findings(.missingStillImageTime, in: report) == ["error IMG_3582.mov"])
        #expect(report.assets[0].status == .invalid)
    }

    @Test("still-image-time-out-of-range: the empty edit moves the still past the end")
    func stillImageTimeOutOfRange() throws {
        let workspace = try V.Workspace()
        let movie = V.settingStillImageTime(ticks: 3000, in: try SampleMedia.bytes(Self.mov))  // 5 s at 600 ticks/s
        let report = try pairWithMovie(movie, workspace)
        #expect(findings(.stillImageTimeOutOfRange, in: report) == ["error IMG_3582.mov"])
        let message = try #require(report.allFindings.first { $0.code == .stillImageTimeOutOfRange }).message
        #expect(message == "the movie's still-image time 5 s is after its end (1.91 s)")
    }

    @Test("still-image-time-not-on-frame: the video edit ends before the still")
    func stillImageTimeNotOnFrame() throws {
        let workspace = try V.Workspace()
        let movie = V.settingVideoEditDuration(ticks: 400, in: try SampleMedia.bytes(Self.mov))  // frames end at 0.67 s
        let report = try pairWithMovie(movie, workspace)
        #expect(findings(.stillImageTimeNotOnFrame, in: report) == ["warning IMG_3582.mov"])
        #expect(!report.hasErrors)
    }

    @Test("non-apple-metadata-location: the identifier only in moov/udta/meta")
    func nonAppleLocation() throws {
        let workspace = try V.Workspace()
        let movie = V.movingMetadataToUserData(in: try SampleMedia.bytes(Self.mov))
        let report = try pairWithMovie(movie, workspace)
        #expect(report.assets.count == 1 && report.assets[0].video != nil)
        #expect(findings(.nonAppleMetadataLocation, in: report) == ["warning IMG_3582.mov"])
    }

    @Test("extension-mismatch: a JPEG still named .heic")
    func extensionMismatch() throws {
        let workspace = try V.Workspace()
        let photo = try workspace.copy("live/train.jpg", as: "train.heic")
        let video = try workspace.copy("live/train.mov", as: "train.mov")
        let report = ValidationFixture.report([photo, video])
        #expect(ValidationFixture.summary(report) == ["extension-mismatch warning train.heic"])
        #expect(report.allFindings[0].message == "train.heic is named .heic but contains a JPEG image")
    }

    @Test("Google Takeout's .MP4 name for a QuickTime movie is tolerated")
    func takeoutMP4() throws {
        let workspace = try V.Workspace()
        let photo = try workspace.copy("live/train.jpg", as: "train.jpg")
        let video = try workspace.copy("live/train.mov", as: "train(1).MP4")
        #expect(ValidationFixture.report([photo, video]).allFindings.isEmpty)
    }

    @Test("orientation-mismatch: the still's EXIF orientation turned a quarter")
    func orientationMismatchExif() throws {
        let workspace = try V.Workspace()
        let photo = try workspace.write(V.settingJPEGOrientation(6, in: try SampleMedia.bytes("live/train.jpg")), as: "train.jpg")
        let video = try workspace.copy("live/train.mov", as: "train.mov")
        let report = ValidationFixture.report([photo, video])
        #expect(ValidationFixture.summary(report) == ["orientation-mismatch warning train.mov"])
    }

    @Test("orientation-mismatch: the movie's track matrix turned a quarter")
    func orientationMismatchMatrix() throws {
        let workspace = try V.Workspace()
        let photo = try workspace.copy("live/train.jpg", as: "train.jpg")
        let video = try workspace.write(
            V.settingVideoMatrix(quarterTurn: true, in: try SampleMedia.bytes("live/train.mov")), as: "train.mov")
        let report = ValidationFixture.report([photo, video])
        #expect(ValidationFixture.summary(report) == ["orientation-mismatch warning train.mov"])
    }

    @Test("aspect-mismatch: a 16:9 still with a 4:3 movie is information only")
    func aspectMismatch() throws {
        let workspace = try V.Workspace()
        let photo = try workspace.write(
            V.settingJPEGSize(width: 4032, height: 2268, in: try SampleMedia.bytes("live/train.jpg")), as: "train.jpg")
        let video = try workspace.copy("live/train.mov", as: "train.mov")
        let report = ValidationFixture.report([photo, video])
        #expect(ValidationFixture.summary(report) == ["aspect-mismatch info train.jpg"])
        #expect(report.assets[0].status == .valid)
    }

    @Test("capture-time-mismatch: the movie's dates zeroed (Takeout)")
    func captureTimeZeroDates() throws {
        let workspace = try V.Workspace()
        var movie = V.zeroingMovieCreationTime(in: try SampleMedia.bytes(Self.mov))
        movie = V.replacingText("2025-05-26T09:27:06", with: "0000-00-00T00:00:00", in: movie)
        let report = try pairWithMovie(movie, workspace)
        #expect(findings(.captureTimeMismatch, in: report) == ["warning IMG_3582.mov"])
        #expect(report.allFindings.first { $0.code == .captureTimeMismatch }?.message.contains("no capture date") == true)
    }

    @Test("capture-time-mismatch: halves taken an hour apart")
    func captureTimeApart() throws {
        let workspace = try V.Workspace()
        let movie = V.replacingText("2025-05-26T09:27:06", with: "2025-05-26T10:27:06", in: try SampleMedia.bytes(Self.mov))
        let report = try pairWithMovie(movie, workspace)
        #expect(findings(.captureTimeMismatch, in: report) == ["warning IMG_3582.mov"])
        let message = report.allFindings.first { $0.code == .captureTimeMismatch }?.message ?? ""
        #expect(message.contains("3599.4 s apart"), "\(message)")
    }

    @Test("unsupported-video-codec: the video sample entry is not H.264 or HEVC")
    func unsupportedCodec() throws {
        let workspace = try V.Workspace()
        let bytes = try SampleMedia.bytes("live/train.mov")
        let moov = try #require(V.box(["moov"], in: bytes))
        let movie = V.replacingAll(Array("avc1".utf8), with: Array("mp4v".utf8), in: bytes, range: moov.offset..<moov.end)
        let photo = try workspace.copy("live/train.jpg", as: "train.jpg")
        let video = try workspace.write(movie, as: "train.mov")
        let report = ValidationFixture.report([photo, video])
        #expect(findings(.unsupportedVideoCodec, in: report) == ["error train.mov"])
        #expect(report.allFindings.first { $0.code == .unsupportedVideoCodec }?.message.contains("mpeg4") == true)
    }

    @Test("unusual-duration: a 20 s Live Photo movie")
    func unusualDuration() throws {
        let workspace = try V.Workspace()
        let movie = V.settingMovieDuration(ticks: 600 * 20, in: try SampleMedia.bytes(Self.mov))
        let report = try pairWithMovie(movie, workspace)
        #expect(findings(.unusualDuration, in: report) == ["info IMG_3582.mov"])
    }

    @Test("corrupt-file: a truncated movie (its moov is gone) next to its still")
    func corruptMovie() throws {
        let workspace = try V.Workspace()
        let bytes = try SampleMedia.bytes(Self.mov)
        let report = try pairWithMovie(V.truncated(bytes, to: bytes.count / 2), workspace)
        #expect(findings(.corruptFile, in: report) == ["error IMG_3582.mov"])
        // Same name, no readable identifier: reported on the still's asset.
        #expect(findings(.missingContentIdentifier, in: report) == ["error IMG_3582.mov"])
        #expect(report.files.isEmpty)
    }

    @Test("corrupt-file: a truncated still")
    func corruptStill() throws {
        let workspace = try V.Workspace()
        let bytes = try SampleMedia.bytes("live/train.jpg")
        let photo = try workspace.write(V.truncated(bytes, to: 2_000), as: "train.jpg")
        let video = try workspace.copy("live/train.mov", as: "train.mov")
        let report = ValidationFixture.report([photo, video])
        #expect(findings(.corruptFile, in: report) == ["error train.jpg"])
        #expect(findings(.captureTimeMismatch, in: report).isEmpty)
    }

    @Test("duplicate-file: a byte-identical copy of the still in another folder")
    func duplicateFile() throws {
        let workspace = try V.Workspace()
        let photo = try workspace.copy(Self.heic, as: "a/IMG_3582.HEIC")
        let copy = try workspace.copy(Self.heic, as: "b/IMG_3582.HEIC")
        let video = try workspace.copy(Self.mov, as: "a/IMG_3582.mov")
        let report = ValidationFixture.report([photo, copy, video])
        #expect(findings(.duplicateFile, in: report) == ["warning IMG_3582.HEIC"])
        let file = try #require(report.files.first)
        #expect(file.path == copy && file.role == .livePhotoStill)
        #expect(report.assets.count == 1 && report.assets[0].photo == photo)
    }

    @Test("ambiguous-pair: a second, different movie with the same identifier in another folder")
    func ambiguousPair() throws {
        let workspace = try V.Workspace()
        let bytes = try SampleMedia.bytes(Self.mov)
        let photo = try workspace.copy(Self.heic, as: "a/IMG_3582.HEIC")
        let video = try workspace.copy(Self.mov, as: "a/IMG_3582.mov")
        let other = try workspace.write(
            V.overwriting(bytes, at: V.mediaDataRange(in: bytes).lowerBound + 5000, count: 1, with: 0x55), as: "b/IMG_3582.mov")
        let report = ValidationFixture.report([photo, video, other])
        #expect(findings(.ambiguousPair, in: report).sorted() == ["warning IMG_3582.HEIC", "warning IMG_3582.mov"])
        #expect(report.assets.count == 1 && report.assets[0].video == video)
        #expect(report.files.map(\.path) == [other])
        #expect(!report.hasErrors)
    }

    @Test("motion-photo-video-missing: the embedded video's ftyp overwritten")
    func motionPhotoVideoMissing() throws {
        let workspace = try V.Workspace()
        let sample = "motion/PXL_20200710_061629144.MP.jpg"
        let offset = try #require(ResourceIdentifier().identify(path: SampleMedia.path(sample)).motionPhoto?.videoOffset)
        let bytes = V.overwriting(try SampleMedia.bytes(sample), at: Int(offset) + 4, count: 8, with: 0)
        let path = try workspace.write(bytes, as: "PXL_20200710_061629144.MP.jpg")
        let report = ValidationFixture.report([path])
        #expect(findings(.motionPhotoVideoMissing, in: report) == ["error PXL_20200710_061629144.MP.jpg"])
        #expect(report.assets.first?.kind == .motionPhoto)
    }

    @Test("motion-photo-timestamp-out-of-range: the presentation timestamp after the video's end")
    func motionPhotoTimestamp() throws {
        let workspace = try V.Workspace()
        let bytes = V.replacingText(
            "PresentationTimestampUs=\"3000000\"", with: "PresentationTimestampUs=\"9000000\"",
            in: try SampleMedia.bytes("motion/samsung-one-ui-6.heic"))
        let path = try workspace.write(bytes, as: "samsung-one-ui-6.heic")
        let report = ValidationFixture.report([path])
        #expect(findings(.motionPhotoTimestampOutOfRange, in: report) == ["warning samsung-one-ui-6.heic"])
    }

    @Test("missing-content-identifier: a weak pair matched by name (--match-names), both halves without identifiers")
    func weakPair() throws {
        let workspace = try V.Workspace()
        let photo = try workspace.write(
            V.replacingAll(
                Array("E905E6C6-C747-4805-942F-9904A0281F02".utf8), with: [UInt8](repeating: 0, count: 36),
                in: try SampleMedia.bytes("live/train.jpg")),
            as: "train.jpg")
        let video = try workspace.write(
            V.replacingText(
                "com.apple.quicktime.content.identifier", with: "com.apple.quicktime.content.identifieX",
                in: try SampleMedia.bytes("live/train.mov")),
            as: "train.mov")
        let resources = [photo, video].map { AssetResource(ResourceIdentifier().identify(path: $0)) }
        let report = Validator(options: ValidationOptions(parallel: false))
            .validate(resources, pairing: PairingOptions(matchNames: true))
        #expect(report.assets.count == 1 && report.assets[0].photo == photo && report.assets[0].video == video)
        #expect(findings(.missingContentIdentifier, in: report).sorted() == ["error train.jpg", "error train.mov"])
    }

    @Test("duplicate-file: Takeout's loose MP4 equal to a motion photo's embedded video")
    func motionPhotoVideoDuplicate() throws {
        let workspace = try V.Workspace()
        let sample = "motion/PXL_20200710_061629144.MP.jpg"
        let motion = try #require(ResourceIdentifier().identify(path: SampleMedia.path(sample)).motionPhoto)
        let offset = Int(try #require(motion.videoOffset)), length = Int(try #require(motion.videoLength))
        let bytes = try SampleMedia.bytes(sample)
        let photo = try workspace.copy(sample, as: "PXL_20200710_061629144.MP.jpg")
        let video = try workspace.write(Array(bytes[offset..<offset + length]), as: "PXL_20200710_061629144.MP.mp4")
        let report = ValidationFixture.report([photo, video])
        #expect(findings(.duplicateFile, in: report) == ["warning PXL_20200710_061629144.MP.mp4"])
        let finding = try #require(report.allFindings.first { $0.code == .duplicateFile })
        #expect(finding.hint.contains("import only the motion photo"))
        #expect(report.files.map(\.path) == [video] && report.files[0].role == .video)
    }

    @Test("validation never changes the files it reads, deep or not")
    func readOnly() throws {
        let workspace = try V.Workspace()
        let photo = try workspace.copy("live/train.jpg", as: "train.jpg")
        let video = try workspace.copy("live/train.mov", as: "train.mov")
        let before = try [photo, video].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        _ = ValidationFixture.report([photo, video])
        _ = ValidationFixture.report([photo, video], deep: true)
        let after = try [photo, video].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before == after)
    }
}
