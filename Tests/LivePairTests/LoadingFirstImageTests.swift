import LivePair
import LivePairMedia
import Testing
import TestSupport

/// The first image (issue 13, docs/loading.md "Degraded results"): an opportunistic Live Photo
/// request's degraded result is the fastest image the files already hold, at the size it has,
/// with its source reported; the final still stays at the target size.
@Suite("Loading: the first image")
struct LoadingFirstImageTests {
    static let target = PixelSize(width: 512, height: 512)

    /// Each Live Photo and motion photo in SampleMedia, its degraded source and exact upright size
    /// (the Exif thumbnails and `thmb` items as exiftool reports them, turned upright; the movie
    /// frame at the 512 px fit of the movie), and the final still's size.
    static let cases: [(resources: [String], source: PreviewSource, degraded: PixelSize, final: PixelSize)] = [
        (["live/train.jpg", "live/train.mov"], .exifThumbnail, PixelSize(width: 160, height: 120),
            PixelSize(width: 512, height: 384)),
        (["live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"],
            .exifThumbnail, PixelSize(width: 120, height: 160), PixelSize(width: 384, height: 512)),
        (["live/IMG_3582.HEIC", "live/IMG_3582.mov"], .heifThumbnail, PixelSize(width: 312, height: 416),
            PixelSize(width: 384, height: 512)),
        (["live/IMG_4580.HEIC", "live/IMG_4580.mov"], .heifThumbnail, PixelSize(width: 312, height: 416),
            PixelSize(width: 384, height: 512)),
        // No embedded image: the movie's key frame nearest the still time (key frames at 0 and
        // 0.933 s, ffprobe), decoded alone; the poster after it is another frame.
        (["live/IMG_3582_edited.heic", "live/IMG_3582_edited.mov"], .movieKeyFrame, PixelSize(width: 384, height: 512),
            PixelSize(width: 384, height: 512)),
        // Motion photos: the Samsung and Google HEICs hold a 384x512 `thmb` item (heif-info); the
        // Pixel JPEG holds no Exif thumbnail, so its embedded video's frame comes first.
        (["motion/motionphoto.heic"], .heifThumbnail, PixelSize(width: 384, height: 512),
            PixelSize(width: 384, height: 512)),
        (["motion/photo-sg22-ultra.heic"], .heifThumbnail, PixelSize(width: 384, height: 512),
            PixelSize(width: 384, height: 512)),
        (["motion/samsung-one-ui-6.heic"], .heifThumbnail, PixelSize(width: 384, height: 512),
            PixelSize(width: 384, height: 512)),
        (["motion/PXL_20200710_061629144.MP.jpg"], .movieFrame, PixelSize(width: 512, height: 384),
            PixelSize(width: 512, height: 384)),
    ]

    /// The recorded calls of an opportunistic Live Photo request for `resources` at 512 px.
    static func request(_ resources: [String]) async -> [RecordedCall] {
        let recorder = CallRecorder()
        LivePhotoManager().requestLivePhoto(
            resourceFileURLs: resources.map(SampleMedia.path), targetSize: target,
            resultHandler: recorder.livePhotoHandler())
        return await recorder.waitForTerminal()
    }

    @Test("Live Photos and motion photos: the degraded result's source and exact size, then the final still at the target size",
        arguments: 0..<cases.count)
    func livePhoto(index: Int) async throws {
        let expected = Self.cases[index]
        let calls = await Self.request(expected.resources)
        #expect(calls.map(\.isDegraded) == [true, false], "\(calls.map { $0.error.map(String.init(describing:)) ?? "ok" })")
        let degraded = try #require(calls.first), final = try #require(calls.last)
        #expect(degraded.degradedSource == expected.source)
        let image = try #require(degraded.image)
        #expect(PixelSize(width: image.width, height: image.height) == expected.degraded)
        #expect(final.degradedSource == nil)
        let still = try #require(final.livePhoto?.still)
        #expect(PixelSize(width: still.width, height: still.height) == expected.final)
        // The degraded image shows the same picture as the final still (a movie frame is another
        // exposure, processed by the video pipeline: it is allowed more).
        let enlarged = try image.scaled(toWidth: still.width, height: still.height, filter: .bilinear)
        let difference = try #require(enlarged.meanAbsoluteDifference(to: still))
        let isMovie = expected.source == .movieFrame || expected.source == .movieKeyFrame
        #expect(difference < (isMovie ? 24 : 16), "degraded vs final still differ by \(difference)")
        if expected.source == .movieFrame {
            // The movie frame shown first is the Live Photo's poster, decoded once.
            #expect(image == final.livePhoto?.poster.image)
        }
        if expected.source == .movieKeyFrame {
            let livePhoto = try #require(final.livePhoto)
            let keyTime = try #require(livePhoto.movie.keyFrameTime(nearest: livePhoto.movie.posterTime))
            #expect(abs(keyTime - 0.9333) < 0.001)
            #expect(livePhoto.poster.presentationTime != keyTime)
        }
    }
}
