import Foundation
@testable import LivePair
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

@Suite("livepair make: Live Photo pairs from a still and a movie, checked by LivePair, exiftool, ffprobe and the decoders")
struct PackagingMakeTests {
    @Test("a real pair re-made with a new identifier and still time", arguments: PackagingOracle.pairs.indices)
    func remadePair(index: Int) throws {
        let (photo, video) = PackagingOracle.pairs[index]
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("out").path
        let identifier = "5E1D3C2B-0A9F-4E8D-B7C6-A5F4E3D2C1B\(index)"
        let photoBytes = PackagingOracle.contents(SampleMedia.path(photo))
        let videoBytes = PackagingOracle.contents(SampleMedia.path(video))

        let result = try LivePhotoPackager().make(
            photo: SampleMedia.path(photo), video: SampleMedia.path(video), outputDirectory: output,
            stillImageTime: 1.0, contentIdentifier: identifier)

        // What was written, and where.
        let stem = LivePhotoPackager.stem(of: photo)
        #expect(result.contentIdentifier == identifier)
        // One naming rule, whatever the input's extension: `.HEIC` or `.JPG` by format, and `.MOV`.
        #expect(result.photoPath == "\(output)/\(stem).\(photo.lowercased().hasSuffix(".heic") ? "HEIC" : "JPG")")
        #expect(result.videoPath == "\(output)/\(stem).MOV")
        #expect(result.photoHandling == .metadataOnly)
        #expect(result.videoHandling == .metadataOnly)
        #expect(!result.findings.contains { $0.severity == .error })
        #expect(PackagingOracle.listing(output) == [LivePhotoPackager.fileName(of: result.photoPath), "\(stem).MOV"].sorted())
        // Inputs untouched.
        #expect(PackagingOracle.contents(SampleMedia.path(photo)) == photoBytes)
        #expect(PackagingOracle.contents(SampleMedia.path(video)) == videoBytes)

        // LivePair reads the pair back.
        let stillIdentity = ResourceIdentifier().identify(path: result.photoPath)
        let movieIdentity = ResourceIdentifier().identify(path: result.videoPath)
        #expect(stillIdentity.contentIdentifier?.rawValue == identifier)
        #expect(movieIdentity.contentIdentifier?.rawValue == identifier)
        #expect(stillIdentity.role == .livePhotoStill && movieIdentity.role == .livePhotoVideo)
        let nearest = try PackagingOracle.nearestFrameTime(SampleMedia.path(video), to: 1.0)
        #expect(abs((movieIdentity.stillImageTime ?? -1) - nearest) < 1e-6)
        #expect(result.stillImageTime == movieIdentity.stillImageTime)

        // exiftool sees the same identifier in both halves.
        guard ReferenceTool.isInstalled("exiftool"), ReferenceTool.isInstalled("ffprobe") else { return }
        #expect(try PackagingOracle.exiftoolIdentifier(result.photoPath) == identifier)
        #expect(try PackagingOracle.exiftoolIdentifier(result.videoPath) == identifier)

        // ffprobe: the still-image-time track starts at the requested time (to one frame), the video
        // frames all decode, same count, same duration; the video packets are byte-identical.
        let start = try #require(try PackagingOracle.dataStreamStartTime(result.videoPath))
        #expect(abs(start - nearest) < 0.001)
        let input = SampleMedia.path(video)
        #expect(try PackagingOracle.videoFrameCount(result.videoPath) == PackagingOracle.videoFrameCount(input))
        #expect(try PackagingOracle.videoProperty(result.videoPath, "duration") == PackagingOracle.videoProperty(input, "duration"))
        #expect(try ReferenceTool.videoPacketMD5(result.videoPath) == ReferenceTool.videoPacketMD5(input))

        // The still decodes to the same pixels.
        #expect(try PackagingOracle.decodedStill(result.photoPath) == PackagingOracle.decodedStill(SampleMedia.path(photo)))
    }

    @Test("an MP4 movie is re-muxed into QuickTime without re-encoding")
    func mp4IsRemuxed() throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let workspace = try SampleVariants.Workspace()
        let mp4 = workspace.url.appendingPathComponent("clip.mp4").path
        _ = try ReferenceTool.run("ffmpeg", ["-v", "error", "-i", SampleMedia.path("live/train.mov"), "-map", "0:v:0", "-c", "copy", mp4])
        let output = workspace.url.appendingPathComponent("out").path
        let result = try LivePhotoPackager().make(
            photo: SampleMedia.path("live/train.jpg"), video: mp4, outputDirectory: output)
        #expect(result.videoHandling == .remuxed)
        #expect(result.videoPath == "\(output)/train.MOV")
        let movie = ResourceIdentifier().identify(path: result.videoPath)
        #expect(movie.format == .quickTime)
        #expect(movie.contentIdentifier?.rawValue == result.contentIdentifier)
        #expect(try ReferenceTool.videoPacketMD5(result.videoPath) == ReferenceTool.videoPacketMD5(mp4))
        #expect(try PackagingOracle.videoFrameCount(result.videoPath) == PackagingOracle.videoFrameCount(mp4))
        // Default still time: the frame nearest the middle.
        let duration = try #require(movie.duration)
        #expect(abs(result.stillImageTime - duration / 2) <= 1 / (movie.frameRate ?? 30))
    }

    @Test("a movie in another codec and container is transcoded to HEVC or H.264 in MOV", arguments: TranscodeCodec.allCases)
    func otherCodecIsTranscoded(codec: TranscodeCodec) throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let workspace = try SampleVariants.Workspace()
        let mkv = workspace.url.appendingPathComponent("clip.mkv").path
        _ = try ReferenceTool.run("ffmpeg", [
            "-v", "error", "-i", SampleMedia.path("live/train.mov"), "-map", "0:v:0", "-t", "1.5", "-c:v", "mpeg4",
            "-q:v", "5", mkv,
        ])
        var options = PackagingOptions()
        options.transcodeCodec = codec
        let output = workspace.url.appendingPathComponent("out").path
        let result = try LivePhotoPackager(options: options).make(
            photo: SampleMedia.path("live/train.jpg"), video: mkv, outputDirectory: output, stillImageTime: 0.5)
        #expect(result.videoHandling == .transcoded)
        #expect(try PackagingOracle.videoProperty(result.videoPath, "codec_name") == codec.rawValue)
        #expect(try PackagingOracle.videoFrameCount(result.videoPath) == PackagingOracle.videoFrameCount(mkv))
        #expect(try PackagingOracle.exiftoolIdentifier(result.videoPath) == result.contentIdentifier)
        let start = try #require(try PackagingOracle.dataStreamStartTime(result.videoPath))
        #expect(abs(start - 0.5) <= 1.0 / 15)
        // No intermediate file is left behind.
        #expect(PackagingOracle.listing(output) == ["train.JPG", "train.MOV"])
    }

    @Test("a movie alone gives a still from its frame at the still time", arguments: StillEncoding.allCases)
    func movieAlone(encoding: StillEncoding) throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("out").path
        var options = PackagingOptions()
        options.stillEncoding = encoding
        let video = SampleMedia.path("live/IMG_4580.mov")
        let result = try LivePhotoPackager(options: options).make(video: video, outputDirectory: output, stillImageTime: 0.9)
        #expect(result.photoPath == "\(output)/IMG_4580.\(encoding.fileExtension)")
        #expect(result.photoHandling == .encoded)
        let movie = ResourceIdentifier().identify(path: video)
        let still = ResourceIdentifier().identify(path: result.photoPath)
        #expect(still.format == (encoding == .heic ? .heic : .jpeg))
        #expect(still.contentIdentifier?.rawValue == result.contentIdentifier)
        // Upright: the movie's display size.
        let rotated = (movie.orientation ?? 1) >= 5
        let expected = rotated ? (movie.height, movie.width) : (movie.width, movie.height)
        #expect(still.width == expected.0 && still.height == expected.1)
        // The still shows the frame ffmpeg decodes at the still time (lossy encode: a small difference).
        let frame = try FrameGrabberOracle.ffmpegFrame(video, at: result.stillImageTime, workspace: workspace)
        let decoded = try PackagingOracle.decodedStill(result.photoPath)
        let difference = try #require(decoded.meanAbsoluteDifference(to: frame))
        #expect(difference < 6, "mean absolute difference \(difference)")
        guard ReferenceTool.isInstalled("exiftool") else { return }
        #expect(try PackagingOracle.exiftoolIdentifier(result.photoPath) == result.contentIdentifier)
        if encoding == .heic, ReferenceTool.isInstalled("heif-convert") {
            // Y4M: the decoder's samples as they are (no PNG compression to pay for).
            let y4m = workspace.url.appendingPathComponent("check.y4m").path
            _ = try ReferenceTool.run("heif-convert", [result.photoPath, y4m])
            #expect(FileManager.default.fileExists(atPath: y4m), "libheif opens the HEIC")
        }
    }

    @Test("a PNG or WebP still is encoded with the identifier", arguments: ["png", "webp"])
    func otherStillFormats(format: String) throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let workspace = try SampleVariants.Workspace()
        let still = workspace.url.appendingPathComponent("still.\(format)").path
        _ = try ReferenceTool.run("ffmpeg", ["-v", "error", "-i", SampleMedia.path("live/train.jpg"), "-vf", "scale=640:-2", still])
        var options = PackagingOptions()
        options.stillEncoding = .jpeg
        let output = workspace.url.appendingPathComponent("out").path
        let result = try LivePhotoPackager(options: options).make(
            photo: still, video: SampleMedia.path("live/train.mov"), outputDirectory: output)
        #expect(result.photoPath == "\(output)/still.JPG")
        #expect(result.photoHandling == .encoded)
        let identity = ResourceIdentifier().identify(path: result.photoPath)
        #expect(identity.contentIdentifier?.rawValue == result.contentIdentifier)
        let source = try StillImageReader.decode(path: still)
        #expect(identity.width == source.width && identity.height == source.height)
        let difference = try #require(try PackagingOracle.decodedStill(result.photoPath).meanAbsoluteDifference(to: source))
        #expect(difference < 4, "mean absolute difference \(difference)")
    }
}

/// ffmpeg's own decode of a movie frame, upright, for comparison.
enum FrameGrabberOracle {
    static func ffmpegFrame(_ path: String, at seconds: Double, workspace: SampleVariants.Workspace) throws -> PixelBuffer {
        let png = workspace.url.appendingPathComponent("frame-\(seconds).png").path
        _ = try ReferenceTool.run("ffmpeg", [
            "-v", "error", "-i", path, "-ss", String(seconds), "-frames:v", "1", "-map", "0:v:0", png,
        ])
        return try StillImageReader.decode(path: png)
    }
}

@Suite("livepair make over every other real still and movie")
struct PackagingEverySampleTests {
    static let stills = [
        "live/IMG_1853.HEIC", "live/IMG_2927.HEIC", "live/IMG_E1853.heic", "live/exif-at-eof.heic",
        "plain/IMG_0102.HEIC", "plain/IMG_2682.heic", "plain/IMG_5747.HEIC", "plain/pixel_8.jpg",
        "plain/sewing-threads.heic",
    ]

    @Test("each still with a plain movie: one identifier in both halves, the image data unchanged", arguments: stills)
    func stillWithPlainMovie(still: String) throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("out").path
        let result = try LivePhotoPackager().make(
            photo: SampleMedia.path(still), video: SampleMedia.path("plain/with-gps.mov"), outputDirectory: output)
        let photo = ResourceIdentifier().identify(path: result.photoPath)
        let before = ResourceIdentifier().identify(path: SampleMedia.path(still))
        #expect(photo.contentIdentifier?.rawValue == result.contentIdentifier)
        #expect(ResourceIdentifier().identify(path: result.videoPath).contentIdentifier?.rawValue == result.contentIdentifier)
        #expect(photo.width == before.width && photo.height == before.height && photo.orientation == before.orientation)
        #expect(photo.captureDate == before.captureDate)
        #expect(try PackagingOracle.imageData(result.photoPath) == PackagingOracle.imageData(SampleMedia.path(still)))
        guard ReferenceTool.isInstalled("exiftool") else { return }
        #expect(try PackagingOracle.exiftoolIdentifier(result.photoPath) == result.contentIdentifier)
        #expect(try PackagingOracle.exiftoolIdentifier(result.videoPath) == result.contentIdentifier)
    }

    @Test("each plain movie alone: a JPEG still from its frame, upright", arguments: ["plain/IMG_3539.MOV", "plain/with-gps.mov"])
    func plainMovieAlone(movie: String) throws {
        let workspace = try SampleVariants.Workspace()
        var options = PackagingOptions()
        options.stillEncoding = .jpeg
        let result = try LivePhotoPackager(options: options).make(
            video: SampleMedia.path(movie), outputDirectory: workspace.url.appendingPathComponent("out").path)
        let still = ResourceIdentifier().identify(path: result.photoPath)
        #expect(still.contentIdentifier?.rawValue == result.contentIdentifier)
        let frame = try FrameGrabberOracle.ffmpegFrame(SampleMedia.path(movie), at: result.stillImageTime, workspace: workspace)
        #expect(still.width == frame.width && still.height == frame.height)
        let difference = try #require(try PackagingOracle.decodedStill(result.photoPath).meanAbsoluteDifference(to: frame))
        #expect(difference < 6, "mean absolute difference \(difference)")
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        #expect(try ReferenceTool.videoPacketMD5(result.videoPath) == ReferenceTool.videoPacketMD5(SampleMedia.path(movie)))
    }
}
