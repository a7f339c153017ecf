import Foundation
import LivePairMedia
import TestSupport
import Testing

@Suite("Video stream probe")
struct VideoFrameProbeTests {
    @Test("the paired movies are described as ffprobe describes them", arguments: [
        "live/IMG_3582.mov", "live/IMG_4580.mov", "live/train.mov",
    ])
    func matchesFFprobe(file: String) throws {
        let info = try VideoFrameProbe().probe(path: SampleMedia.path(file))
        let json = try ReferenceTool.ffmpegTool("ffprobe", [
            "-select_streams", "v:0", "-show_entries",
            "stream=codec_name,width,height,avg_frame_rate,start_time,nb_frames", "-of", "json",
            SampleMedia.path(file),
        ])
        let root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let stream = try #require((root["streams"] as? [[String: Any]])?.first)
        #expect(info.codecName == stream["codec_name"] as? String)
        #expect(info.width == stream["width"] as? Int)
        #expect(info.height == stream["height"] as? Int)
        let rate = try #require((stream["avg_frame_rate"] as? String)?.split(separator: "/").compactMap { Double($0) })
        let fps = try #require(info.framesPerSecond)
        #expect(abs(fps - rate[0] / rate[1]) < 1e-6)
        let start = try #require((stream["start_time"] as? String).flatMap(Double.init))
        #expect(abs((info.startTime ?? -1) - start) < 1e-6)
        #expect(info.frameCount == (stream["nb_frames"] as? String).flatMap(Int.init))
    }

    @Test("the iPhone movie's display matrix is a quarter turn clockwise")
    func readsRotation() throws {
        #expect(try VideoFrameProbe().probe(path: SampleMedia.path("live/IMG_3582.mov")).rotationDegrees == -90)
    }

    @Test("missing files and non-movies throw decodeFailed")
    func failsTyped() throws {
        #expect {
            try VideoFrameProbe().probe(path: "/nonexistent/movie.mov")
        } throws: { error in
            guard case .decodeFailed(let code, let message) = error as? MediaError else { return false }
            return code < 0 && message.contains("avformat_open_input")
        }
        #expect(throws: MediaError.self) { try VideoFrameProbe().probe(path: SampleMedia.path("manifest.tsv")) }
        // A URL-looking path is a (missing) file name, never a network request.
        #expect(throws: MediaError.self) { try VideoFrameProbe().probe(path: "http://127.0.0.1:9/movie.mov") }
    }
}
