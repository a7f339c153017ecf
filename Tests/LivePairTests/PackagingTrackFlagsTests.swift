import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

/// Which tracks of a written Live Photo movie are enabled (`tkhd` flag 0x1), against the iPhone's
/// own movies: one enabled video track; metadata tracks enabled as an iPhone writes its `mebx`
/// tracks (flags 0xF).
@Suite("Live Photo movies: enabled tracks")
struct PackagingTrackFlagsTests {
    static func tracks(_ path: String) throws -> [Track] {
        try QuickTimeMovieParser().parse(try FileByteSource(path: path)).tracks
    }

    @Test("an iPhone Live Photo movie has one video track and enabled metadata tracks", arguments: [
        "live/IMG_4580.mov", "live/train.mov", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov",
    ])
    func iPhoneReference(file: String) throws {
        let tracks = try Self.tracks(SampleMedia.path(file))
        #expect(tracks.filter { $0.handlerType == "vide" }.count == 1)
        #expect(tracks.allSatisfy { $0.header.flags == 0xF })
    }

    @Test("a Pixel motion photo's one-frame 2048x1536 track is disabled in the Live Photo movie")
    func pixelSecondaryVideoTrack() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("live").path
        let result = try MotionPhotoConverter().livePhoto(
            motionPhoto: SampleMedia.path("motion/PXL_20200710_061629144.MP.jpg"), outputDirectory: output)
        let tracks = try Self.tracks(result.videoPath)
        let video = tracks.filter { $0.handlerType == "vide" }
        #expect(video.map { [Int($0.header.width), Int($0.header.height)] } == [[1024, 768], [2048, 1536]])
        #expect(video.map(\.header.isEnabled) == [true, false])
        // The in-movie and in-preview flags stay; metadata tracks (Pixel's mett, our mebx) stay enabled.
        #expect(video.map(\.header.flags) == [0x7, 0x6])
        #expect(tracks.filter { $0.handlerType == "meta" }.allSatisfy { $0.header.isEnabled })
        // FFmpeg reads an enabled track as a default stream: only the main video track is one.
        let streams = try ReferenceTool.ffprobeStreams(result.videoPath)
        let defaults = streams.filter { $0["codec_type"] as? String == "video" }.map {
            ($0["disposition"] as? [String: Any])?["default"] as? Int
        }
        #expect(defaults == [1, 0])
        // Back to a motion photo, the MP4 keeps what the Live Photo movie has.
        let motion = workspace.url.appendingPathComponent("back.jpg").path
        _ = try MotionPhotoConverter().motionPhoto(photo: result.photoPath, video: result.videoPath, output: motion)
        #expect(ResourceIdentifier().identify(path: motion).role == .motionPhoto)
    }
}
