import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

@Suite("livepair convert: Live Photo to motion photo and back")
struct PackagingConversionTests {
    static let motionPhotos = [
        "motion/PXL_20200710_061629144.MP.jpg", "motion/motionphoto.heic", "motion/photo-sg22-ultra.heic",
        "motion/samsung-one-ui-6.heic",
    ]

    /// Writes the video embedded in `motionPhoto` to a file in `workspace`.
    static func embeddedVideo(_ motionPhoto: String, workspace: SampleVariants.Workspace, name: String) throws -> String {
        let path = workspace.url.appendingPathComponent(name).path
        try MotionPhotoVideoExtractor(source: try FileByteSource(path: motionPhoto)).writeVideo(to: path)
        return path
    }

    @Test("a Live Photo becomes a motion photo with the movie's streams and still time", arguments: PackagingOracle.pairs.indices)
    func liveToMotion(index: Int) throws {
        let (photo, video) = PackagingOracle.pairs[index]
        let workspace = try SampleVariants.Workspace()
        let isHEIC = photo.uppercased().hasSuffix("HEIC")
        let output = workspace.url.appendingPathComponent("motion.\(isHEIC ? "heic" : "jpg")").path
        let result = try MotionPhotoConverter().motionPhoto(photo: SampleMedia.path(photo), video: SampleMedia.path(video), output: output)
        let movie = ResourceIdentifier().identify(path: SampleMedia.path(video))
        // The presentation timestamp is the time of the still's frame: the frame nearest the movie's
        // own still-image time (Apple's often lies between two frames).
        let stillTime = try #require(movie.stillImageTime)
        let frame = try PackagingOracle.nearestFrameTime(SampleMedia.path(video), to: stillTime)
        #expect(abs(stillTime - frame) < 0.034)
        #expect(result.presentationTimestampUs == Int64((frame * 1_000_000).rounded()))
        let identity = ResourceIdentifier().identify(path: output)
        #expect(identity.role == .motionPhoto)
        #expect(identity.format == (isHEIC ? .heic : .jpeg))
        #expect(identity.motionPhoto?.presentationTimestampUs == result.presentationTimestampUs)
        #expect(identity.motionPhoto?.videoOffset == result.videoOffset)
        #expect(identity.motionPhoto?.videoLength == result.videoLength)
        #expect(PackagingOracle.listing(workspace.url.path) == [LivePhotoPackager.fileName(of: output)])

        guard ReferenceTool.isInstalled("exiftool"), ReferenceTool.isInstalled("ffmpeg") else { return }
        let tags = try ReferenceTool.run("exiftool", ["-s3", "-MotionPhoto", "-MotionPhotoVersion", "-MotionPhotoPresentationTimestampUs", output])
        #expect(tags.split(separator: "\n") == ["1", "1", "\(result.presentationTimestampUs)"])
        // The embedded MP4 has the movie's video packets, every frame.
        let embedded = try Self.embeddedVideo(output, workspace: workspace, name: "embedded.mp4")
        #expect(ResourceIdentifier().identify(path: embedded).format == .mp4)
        #expect(try ReferenceTool.videoPacketMD5(embedded) == ReferenceTool.videoPacketMD5(SampleMedia.path(video)))
        #expect(try PackagingOracle.videoFrameCount(embedded) == PackagingOracle.videoFrameCount(SampleMedia.path(video)))
        // What Android's media3 reads: the iPhone's lpcm audio re-encoded to AAC, lasting as long
        // (within a frame), and no data (mebx) stream; each is said in `dropped`.
        let streams = try ReferenceTool.ffprobeStreams(embedded)
        let sourceStreams = try ReferenceTool.ffprobeStreams(SampleMedia.path(video))
        let audio = streams.filter { $0["codec_type"] as? String == "audio" }
        let sourceAudio = sourceStreams.filter { $0["codec_type"] as? String == "audio" }
        #expect(audio.map { $0["codec_name"] as? String } == ["aac"])
        #expect(sourceAudio.map { $0["codec_tag_string"] as? String } == ["lpcm"])
        #expect(!streams.contains { $0["codec_type"] as? String == "data" })
        let seconds = { (stream: [String: Any]?) in (stream?["duration"] as? String).flatMap(Double.init) ?? -1 }
        let sourceVideo = sourceStreams.first { $0["codec_type"] as? String == "video" }
        let frameLength = seconds(sourceVideo) / Double(try #require(try PackagingOracle.videoFrameCount(SampleMedia.path(video))))
        #expect(abs(seconds(audio.first) - seconds(sourceAudio.first)) <= frameLength, "\(seconds(audio.first)) s against \(seconds(sourceAudio.first)) s")
        let mebx = sourceStreams.filter { $0["codec_tag_string"] as? String == "mebx" }.count
        #expect(result.dropped.filter { $0.hasPrefix("the movie's timed-metadata track (mebx: ") }.count == mebx)
        #expect(result.dropped.contains(
            "the movie's lpcm audio, re-encoded to AAC in the embedded MP4 (Android's players do not read QuickTime sound in an MP4)"))
        // The exact still-image time is in the XMP, on the movie's timescale.
        let exact = try #require(MotionPhotoVideoExtractor(source: try FileByteSource(path: output)).locate().video.stillImageTime)
        #expect(abs(exact.seconds - stillTime) < 1e-9 && exact.timescale == 600)
        // The still is unchanged apart from the XMP: same pixels.
        #expect(try PackagingOracle.decodedStill(output) == PackagingOracle.decodedStill(SampleMedia.path(photo)))
    }

    @Test("a motion photo becomes a Live Photo pair", arguments: motionPhotos)
    func motionToLive(file: String) throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("live").path
        let source = ResourceIdentifier().identify(path: SampleMedia.path(file))
        let result = try MotionPhotoConverter().livePhoto(motionPhoto: SampleMedia.path(file), outputDirectory: output)
        let stem = file.hasSuffix(".MP.jpg") ? "PXL_20200710_061629144" : LivePhotoPackager.stem(of: file)
        #expect(result.photoPath == "\(output)/\(stem).\(source.format == .jpeg ? "JPG" : "HEIC")")
        #expect(result.videoPath == "\(output)/\(stem).MOV")
        #expect(result.videoHandling == .extracted)
        let still = ResourceIdentifier().identify(path: result.photoPath)
        let movie = ResourceIdentifier().identify(path: result.videoPath)
        #expect(still.role == .livePhotoStill && movie.role == .livePhotoVideo)
        #expect(still.motionPhoto == nil)
        #expect(still.contentIdentifier?.rawValue == result.contentIdentifier)
        #expect(movie.contentIdentifier?.rawValue == result.contentIdentifier)
        #expect(movie.format == .quickTime)
        // The still time is the presentation timestamp (snapped to a frame), or the middle frame.
        let embedded = try Self.embeddedVideo(SampleMedia.path(file), workspace: workspace, name: "embedded.mp4")
        let requested = source.motionPhoto?.presentationTimestampUs.flatMap { $0 >= 0 ? Double($0) / 1_000_000 : nil }
            ?? (ResourceIdentifier().identify(path: embedded).duration ?? 0) / 2
        let nearest = try PackagingOracle.nearestFrameTime(embedded, to: requested)
        // Written in the movie timescale (Samsung: 1/10,000 s).
        #expect(abs(result.stillImageTime - nearest) <= 0.0001, "still time \(result.stillImageTime), nearest frame \(nearest) to \(requested)")

        guard ReferenceTool.isInstalled("exiftool"), ReferenceTool.isInstalled("ffmpeg") else { return }
        #expect(try PackagingOracle.exiftoolIdentifier(result.photoPath) == result.contentIdentifier)
        #expect(try PackagingOracle.exiftoolIdentifier(result.videoPath) == result.contentIdentifier)
        #expect(try ReferenceTool.videoPacketMD5(result.videoPath) == ReferenceTool.videoPacketMD5(embedded))
        #expect(try PackagingOracle.videoFrameCount(result.videoPath) == PackagingOracle.videoFrameCount(embedded))
        #expect(try PackagingOracle.decodedStill(result.photoPath) == PackagingOracle.decodedStill(SampleMedia.path(file)))
    }

    @Test("live -> motion -> live keeps the frames and the still time")
    func liveMotionLive() throws {
        let workspace = try SampleVariants.Workspace()
        let motion = workspace.url.appendingPathComponent("IMG_4580.heic").path
        let original = SampleMedia.path("live/IMG_4580.mov")
        _ = try MotionPhotoConverter().motionPhoto(photo: SampleMedia.path("live/IMG_4580.HEIC"), video: original, output: motion)
        let back = try MotionPhotoConverter().livePhoto(
            motionPhoto: motion, outputDirectory: workspace.url.appendingPathComponent("back").path)
        let stillTime = try #require(ResourceIdentifier().identify(path: original).stillImageTime)
        #expect(abs(back.stillImageTime - stillTime) < 1e-6)
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        #expect(try ReferenceTool.videoPacketMD5(back.videoPath) == ReferenceTool.videoPacketMD5(original))
        #expect(try PackagingOracle.videoFrameCount(back.videoPath) == PackagingOracle.videoFrameCount(original))
    }

    @Test("motion -> live -> motion keeps the video bytes", arguments: ["motion/PXL_20200710_061629144.MP.jpg", "motion/samsung-one-ui-6.heic"])
    func motionLiveMotion(file: String) throws {
        let workspace = try SampleVariants.Workspace()
        let live = try MotionPhotoConverter().livePhoto(
            motionPhoto: SampleMedia.path(file), outputDirectory: workspace.url.appendingPathComponent("live").path)
        let again = workspace.url.appendingPathComponent("again.\(file.hasSuffix("jpg") ? "jpg" : "heic")").path
        let motion = try MotionPhotoConverter().motionPhoto(photo: live.photoPath, video: live.videoPath, output: again)
        // The timestamp is the frame's own time; the still-image time is that time rounded to the
        // movie's timescale (Samsung: 1/10,000 s).
        #expect(abs(Double(motion.presentationTimestampUs) / 1_000_000 - live.stillImageTime) <= 0.000_05)
        let before = try Self.embeddedVideo(SampleMedia.path(file), workspace: workspace, name: "before.mp4")
        let after = try Self.embeddedVideo(again, workspace: workspace, name: "after.mp4")
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        #expect(try ReferenceTool.videoPacketMD5(after) == ReferenceTool.videoPacketMD5(before))
        // Audio too, when there is some. (Without audio, `-map 0:a?` selects nothing and ffmpeg falls
        // back to its default stream, the video it prefers, which a Live Photo movie may change:
        // the Pixel's one-frame track is disabled there.)
        let audio = { (path: String) throws -> String in
            guard try ReferenceTool.ffprobeStreams(path).contains(where: { $0["codec_type"] as? String == "audio" }) else {
                return "no audio"
            }
            return try ReferenceTool.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-c", "copy", "-f", "hash", "-hash", "md5", "-"])
        }
        #expect(try audio(after) == audio(before))
    }

    @Test("a still that is not a motion photo is a typed error and writes nothing")
    func notAMotionPhoto() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("live").path
        #expect(throws: PackagingError.notAMotionPhoto(path: SampleMedia.path("plain/pixel_8.jpg"))) {
            try MotionPhotoConverter().livePhoto(motionPhoto: SampleMedia.path("plain/pixel_8.jpg"), outputDirectory: output)
        }
        #expect(PackagingOracle.listing(output).isEmpty)
        // The broken Google file claims a video that is not there.
        #expect(throws: PackagingError.self) {
            try MotionPhotoConverter().livePhoto(
                motionPhoto: SampleMedia.path("broken/google_motion_photo_broken.jpg"), outputDirectory: output)
        }
        #expect(PackagingOracle.listing(output).isEmpty)
    }
}
