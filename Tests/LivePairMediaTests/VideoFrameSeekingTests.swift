import Foundation
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// The single-frame decode that skips non-reference frames and starts at the nearest key frame
/// (`FrameSeeking.referencesOnly`) returns exactly the frame ffprobe lists nearest the time, and
/// the same pixels as the decode of every frame from FFmpeg's seek point (`.everyFrame`, the
/// path before issue 13).
@Suite("Video frame seeking")
struct VideoFrameSeekingTests {
    /// One frame as ffprobe lists it.
    struct ProbedFrame {
        let time: Double
        let isKey: Bool
    }

    /// ffprobe's frames of the first video stream, in presentation order.
    static func ffprobeFrames(_ path: String) throws -> [ProbedFrame] {
        let text = try ReferenceTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time,key_frame", "-of", "csv=p=0", path])
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[1]) else { return nil }
            return ProbedFrame(time: time, isKey: fields[0] == "1")
        }.sorted { $0.time < $1.time }
    }

    /// Times to ask for, each with the index of the frame that must come back: every key frame,
    /// the frame before it, the first, middle and last frames, each asked exactly and a third and
    /// two thirds of the way to the next frame (the nearer frame wins), and the still-image time.
    static func cases(_ frames: [ProbedFrame], stillTime: Double?) -> [(time: Double, index: Int)] {
        var indices = Set([0, frames.count / 2, frames.count - 1])
        for (index, frame) in frames.enumerated() where frame.isKey {
            indices.insert(index)
            if index > 0 { indices.insert(index - 1) }
        }
        var cases: [(Double, Int)] = []
        for index in indices.sorted() {
            cases.append((frames[index].time, index))
            guard index + 1 < frames.count else { continue }
            let gap = frames[index + 1].time - frames[index].time
            cases.append((frames[index].time + gap / 3, index))
            cases.append((frames[index].time + 2 * gap / 3, index + 1))
        }
        if let stillTime {
            let nearest = frames.indices.min { abs(frames[$0].time - stillTime) < abs(frames[$1].time - stillTime) } ?? 0
            cases.append((stillTime, nearest))
        }
        return cases
    }

    @Test("the frame is ffprobe's nearest frame and equals the every-frame decode, byte for byte", arguments: [
        "live/IMG_3582_edited.mov", "live/IMG_3582.mov", "live/IMG_4580.mov", "live/train.mov",
        "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov",
    ])
    func sameFrameAsEveryFrameDecode(movie: String) throws {
        let path = SampleMedia.path(movie)
        let frames = try Self.ffprobeFrames(path)
        #expect(frames.count > 20)
        #expect(frames.contains { $0.isKey && $0.time > 0 } || movie.hasPrefix("live/train"))
        let stillTime = SampleMedia.entry(movie)?.stillImageTime
        let fast = VideoFrameDecoder(maximumDimension: 256)
        let reference = VideoFrameDecoder(maximumDimension: 256, seeking: .everyFrame)
        for (time, index) in Self.cases(frames, stillTime: stillTime) {
            let decoded = try fast.decodeFrame(path: path, at: time)
            #expect(abs(decoded.presentationTime - frames[index].time) < 1e-5,
                "\(movie) at \(time) s: frame at \(decoded.presentationTime) s, ffprobe's nearest is \(frames[index].time) s")
            let everyFrame = try reference.decodeFrame(path: path, at: time)
            #expect(everyFrame.presentationTime == decoded.presentationTime)
            #expect(everyFrame.image == decoded.image, "\(movie) at \(time) s: pixels differ from the every-frame decode")
        }
    }
}
