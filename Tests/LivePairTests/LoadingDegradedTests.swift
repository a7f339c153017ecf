import LivePair
import LivePairMedia
import Testing
import TestSupport

/// The degraded placeholder policy (docs/loading.md, "Degraded results") with a coverage set: a
/// cheap source qualifies when it covers `degradedMinimumCoverage` of the fitted target size; it
/// is delivered at its own size (never enlarged). Final results keep the strict rule. The
/// default policy (0, any embedded image) is tested in LoadingFirstImageTests.
@Suite("Loading: degraded results")
struct LoadingDegradedTests {
    static let target = PixelSize(width: 512, height: 512)
    static let heicPhotos = ["live/IMG_3582.HEIC", "live/IMG_4580.HEIC"]

    func decodedPreview(_ photo: String, coverage: Double = 0.75) throws -> PreviewImage {
        try MediaStillDecoder().decodePreview(
            path: SampleMedia.path(photo),
            geometry: ImageGeometry(targetSize: Self.target, degradedMinimumCoverage: coverage),
            cancellation: CancellationFlag())
    }

    /// The degraded and final images of an opportunistic image request.
    func opportunistic(_ photo: String, coverage: Double = 0.75) async throws -> (PixelBuffer, PixelBuffer) {
        let recorder = CallRecorder()
        ImageManager().requestImage(
            for: .still(path: SampleMedia.path(photo)), targetSize: Self.target,
            options: ImageRequestOptions(degradedMinimumCoverage: coverage), resultHandler: recorder.imageHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.map(\.isDegraded) == [true, false])
        return (try #require(calls.first?.image), try #require(calls.last?.image))
    }

    @Test("coverage is measured against the fitted size, in the smaller proportion")
    func coverageArithmetic() {
        let geometry = ImageGeometry(targetSize: Self.target, degradedMinimumCoverage: 0.75)
        // A 4032x3024 image fits 512x512 as 512x384: a 416x312 thumbnail covers 0.8125 of it.
        #expect(geometry.coverage(sourceWidth: 416, sourceHeight: 312, fullWidth: 4032, fullHeight: 3024) == 0.8125)
        #expect(geometry.qualifiesAsDegraded(sourceWidth: 416, sourceHeight: 312, fullWidth: 4032, fullHeight: 3024))
        #expect(geometry.qualifiesAsDegraded(sourceWidth: 504, sourceHeight: 378, fullWidth: 4032, fullHeight: 3024))
        // The 160x120 Exif thumbnail covers 0.3125: not enough.
        #expect(!geometry.qualifiesAsDegraded(sourceWidth: 160, sourceHeight: 120, fullWidth: 4032, fullHeight: 3024))
        let strict = ImageGeometry(targetSize: Self.target, degradedMinimumCoverage: 1)
        #expect(!strict.qualifiesAsDegraded(sourceWidth: 504, sourceHeight: 378, fullWidth: 4032, fullHeight: 3024))
        #expect(strict.qualifiesAsDegraded(sourceWidth: 1008, sourceHeight: 756, fullWidth: 4032, fullHeight: 3024))
        // A small image fits at its own size: a source of its size covers all of it.
        #expect(geometry.coverage(sourceWidth: 300, sourceHeight: 200, fullWidth: 300, fullHeight: 200) == 1)
        // Clamped option values.
        #expect(ImageGeometry(targetSize: Self.target, degradedMinimumCoverage: 3).degradedMinimumCoverage == 1)
        #expect(ImageGeometry(targetSize: Self.target, degradedMinimumCoverage: -1).degradedMinimumCoverage == 0)
        // The default, 0: any embedded image qualifies, the 160x120 Exif thumbnail too.
        #expect(ImageRequestOptions().degradedMinimumCoverage == 0)
        #expect(ImageGeometry(targetSize: Self.target).qualifiesAsDegraded(
            sourceWidth: 160, sourceHeight: 120, fullWidth: 4032, fullHeight: 3024))
    }

    @Test("iPhone HEICs at 512 px: the degraded result is the 416x312 thmb item, at its own size",
        arguments: heicPhotos)
    func heicThumbnail(photo: String) async throws {
        let preview = try decodedPreview(photo)
        #expect(preview.source == .heifThumbnail)
        #expect(!preview.isFullQuality)
        #expect((preview.image.width, preview.image.height) == (312, 416))  // turned upright like the primary
        let full = try #require(preview.fullSize)
        #expect(full.height * 3 == full.width * 4)  // 3024x4032 or 4284x5712, portrait
        let (degraded, final) = try await opportunistic(photo)
        #expect((degraded.width, degraded.height) == (312, 416))
        #expect((final.width, final.height) == (384, 512))
        let enlarged = try degraded.scaled(toWidth: final.width, height: final.height, filter: .bilinear)
        let difference = try #require(enlarged.meanAbsoluteDifference(to: final))
        #expect(difference < 10, "degraded vs final differ by \(difference)")
    }

    @Test("a 4032x3024 JPEG at 512 px: the degraded result is the 1/8 DCT decode (504x378), the final the 1/4 one")
    func jpegEighth() async throws {
        let preview = try decodedPreview("live/train.jpg")
        #expect(preview.source == .reducedDecode(denominator: 8))
        #expect(!preview.isFullQuality)
        #expect((preview.image.width, preview.image.height) == (504, 378))
        #expect(preview.fullSize == PixelSize(width: 4032, height: 3024))
        let full = try MediaStillDecoder().decodeFull(
            path: SampleMedia.path("live/train.jpg"), geometry: ImageGeometry(targetSize: Self.target),
            cancellation: CancellationFlag())
        #expect((full.width, full.height) == (1008, 756))
        let (degraded, final) = try await opportunistic("live/train.jpg")
        #expect((degraded.width, degraded.height) == (504, 378))
        #expect((final.width, final.height) == (512, 384))
        let enlarged = try degraded.scaled(toWidth: final.width, height: final.height, filter: .bilinear)
        #expect(try #require(enlarged.meanAbsoluteDifference(to: final)) < 6)
        // Exif orientation 6 (the 51F2 JPEG): the 1/8 decode turned upright, 378x504.
        let turned = try decodedPreview("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg")
        #expect(turned.source == .reducedDecode(denominator: 8))
        #expect((turned.image.width, turned.image.height) == (378, 504))
    }

    @Test("degradedMinimumCoverage = 1 brings back the strict rule: sources at or above the target only")
    func strictCoverage() async throws {
        // HEIC: the strongest tile reduction that covers the 384x512 fit (4284x5712 / 8 = 536x714;
        // 3024x4032 / 8 = 378x504 falls short, so 1/4).
        let expected: [(PreviewSource, Int, Int)] = [
            (.reducedTiles(denominator: 8), 536, 714), (.reducedTiles(denominator: 4), 756, 1008),
        ]
        for (photo, (source, width, height)) in zip(Self.heicPhotos, expected) {
            let preview = try decodedPreview(photo, coverage: 1)
            #expect(preview.source == source)
            #expect(preview.isFullQuality)
            #expect((preview.image.width, preview.image.height) == (width, height))
        }
        let jpeg = try decodedPreview("live/train.jpg", coverage: 1)
        #expect(jpeg.source == .reducedDecode(denominator: 4))
        #expect(jpeg.isFullQuality)
        #expect((jpeg.image.width, jpeg.image.height) == (1008, 756))
        // The full-quality preview is the final image: both calls carry the same pixels.
        let (degraded, final) = try await opportunistic("live/train.jpg", coverage: 1)
        #expect(degraded == final)
    }

    @Test("a HEIC without a thumbnail item at 512 px: one decode of the tiles reduced by 1/8 serves both results")
    func heicWithoutThumbnail() async throws {
        let photo = "live/IMG_3582_edited.heic"
        let preview = try decodedPreview(photo)
        #expect(preview.source == .reducedTiles(denominator: 8))
        #expect(preview.isFullQuality)
        #expect((preview.image.width, preview.image.height) == (536, 714))
        #expect(preview.fullSize == PixelSize(width: 4284, height: 5712))
        let (degraded, final) = try await opportunistic(photo)
        #expect((final.width, final.height) == (384, 512))
        #expect(degraded == final)
        // The original size still decodes every tile at full size.
        let original = try MediaStillDecoder().decodePreview(
            path: SampleMedia.path(photo), geometry: ImageGeometry(targetSize: .maximum), cancellation: CancellationFlag())
        #expect(original.source == .fullDecode)
        #expect((original.image.width, original.image.height) == (4284, 5712))
    }

    @Test("Live Photo requests with a coverage of 0.75: the degraded placeholder is the thmb item at its own size")
    func livePhotoPlaceholder() async throws {
        let recorder = CallRecorder()
        LivePhotoManager().requestLivePhoto(
            resourceFileURLs: samplePaths(loadingSamplePairs[3]), targetSize: Self.target,
            options: ImageRequestOptions(degradedMinimumCoverage: 0.75), resultHandler: recorder.livePhotoHandler())
        let calls = await recorder.waitForTerminal()
        #expect(calls.map(\.isDegraded) == [true, false])
        let placeholder = try #require(calls.first?.image), still = try #require(calls.last?.livePhoto?.still)
        #expect(calls.first?.degradedSource == .heifThumbnail)
        #expect((placeholder.width, placeholder.height) == (312, 416))
        #expect((still.width, still.height) == (384, 512))
    }
}
