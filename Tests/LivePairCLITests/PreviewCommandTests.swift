import Foundation
import TestSupport
import Testing

@Suite("livepair preview, end to end through the executable")
struct PreviewCommandTests {
    @Test("writes placeholder, still, poster and an H.264 motion.mp4 at the target size, and times each result")
    func preview() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("out").path
        let run = try LivePairBinary.run([
            "preview", SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov"), "--size", "256x256",
            "--output", output,
        ])
        #expect(run.status == 0, "\(run.error)")
        for name in ["placeholder.jpg", "still.jpg", "poster.jpg", "motion.mp4"] {
            #expect(FileManager.default.fileExists(atPath: output + "/" + name), "\(name)")
            #expect(run.output.contains(name))
        }
        // No temporary files are left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(left == ["motion.mp4", "placeholder.jpg", "poster.jpg", "still.jpg"])
        guard ReferenceTool.isInstalled("ffprobe") else { return }
        let stream = try ReferenceTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0",
             output + "/motion.mp4"])
        // train.mov is 1440x1080 landscape: fitted into 256x256 it is 256 wide.
        let fields = stream.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
        #expect(fields.first == "h264")
        #expect(fields.count == 3 && Int(fields[1]) == 256)
        let poster = try ReferenceTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", output + "/poster.jpg"])
        #expect(poster.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("256,"))
    }

    @Test("an invalid pair exits 1 with its findings; a usage error exits 64")
    func invalidPairAndUsage() throws {
        let workspace = try SampleVariants.Workspace()
        let run = try LivePairBinary.run([
            "preview", SampleMedia.path("live/train.jpg"), SampleMedia.path("live/IMG_3582.mov"), "--output",
            workspace.url.appendingPathComponent("out").path,
        ])
        #expect(run.status == 1)
        #expect((run.output + run.error).contains("identifier-mismatch"))
        #expect(try LivePairBinary.run(["preview", SampleMedia.path("live/train.jpg")]).status == 64)
        #expect(try LivePairBinary.run(["preview", "a", "b", "--size", "huge", "--output", "/tmp/x"]).status == 64)
    }
}
