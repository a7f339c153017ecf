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

    @Test("still.jpg of a Display P3 HEIC carries its ICC profile; a still with none gives an untagged still.jpg")
    func stillColourProfile() throws {
        let workspace = try SampleVariants.Workspace()
        for (still, movie, description) in [
            ("live/IMG_4580.HEIC", "live/IMG_4580.mov", "Display P3\n"), ("live/train.jpg", "live/train.mov", ""),
        ] {
            let output = workspace.url.appendingPathComponent(description.isEmpty ? "untagged" : "p3").path
            let run = try LivePairBinary.run([
                "preview", SampleMedia.path(still), SampleMedia.path(movie), "--size", "128x128", "--output", output,
            ])
            #expect(run.status == 0, "\(run.error)")
            #expect(try ReferenceTool.run("exiftool", ["-s3", "-ProfileDescription", output + "/still.jpg"]) == description, "\(still)")
        }
    }

    @Test("--mode fill: the smallest size covering the target, each side rounded to the nearest pixel; motion.mp4 rounded down to even")
    func fillRounding() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("fill").path
        // IMG_4580 is 3024x4032 upright (still and 1440x1920 movie): 500 / 3024 * 4032 = 666.67.
        let run = try LivePairBinary.run([
            "preview", SampleMedia.path("live/IMG_4580.HEIC"), SampleMedia.path("live/IMG_4580.mov"), "--size", "500x500",
            "--mode", "fill", "--output", output, "--json",
        ])
        #expect(run.status == 0, "\(run.error)")
        let results = try #require(try LivePairBinary.json(run.output)["results"] as? [[String: Any]])
        let sizes = Dictionary(uniqueKeysWithValues: results.compactMap { result -> (String, [Int])? in
            guard let file = result["file"] as? String, let width = result["width"] as? Int,
                let height = result["height"] as? Int
            else { return nil }
            return (file, [width, height])
        })
        #expect(sizes["still.jpg"] == [500, 667])
        #expect(sizes["poster.jpg"] == [500, 667])
        #expect(sizes["motion.mp4"] == [500, 666])
    }

    @Test("a movie whose vide handler reads vDde: preview refuses with validate's finding, writing nothing (never '0 frames')")
    func flippedHandler() throws {
        let workspace = try SampleVariants.Workspace()
        var movie = try SampleMedia.bytes("live/train.mov")
        let video = try #require(SampleVariants.track(handler: "vide", in: movie))
        let hdlr = try #require(SampleVariants.box(["mdia", "hdlr"], in: movie, under: video))
        movie.replaceSubrange(hdlr.payloadOffset + 8..<hdlr.payloadOffset + 12, with: Array("vDde".utf8))
        let moviePath = try workspace.write(movie, as: "train.mov")
        let stillPath = try workspace.copy("live/train.jpg", as: "train.jpg")
        let output = workspace.url.appendingPathComponent("out").path
        let run = try LivePairBinary.run(["preview", stillPath, moviePath, "--output", output])
        let validate = try LivePairBinary.run(["validate", stillPath, moviePath])
        #expect(run.status == 1 && validate.status == 1)
        let message = "movie: no video track (track handlers: vDde, soun, meta, meta)"
        #expect(run.error.contains("missing-video-track: ") && run.error.contains(message), "\(run.error)")
        #expect(validate.output.contains("[missing-video-track]") && validate.output.contains(message))
        #expect(!run.output.contains("0 frames"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("--version with an edit's files: current reads the render (the default), original the original; both upright 192x256")
    func versions() throws {
        let workspace = try SampleVariants.Workspace()
        let files = ["live/IMG_3582_edited.mov", "live/IMG_3582.HEIC", "live/IMG_3582.AAE", "live/IMG_3582.mov", "live/IMG_3582_edited.heic"]
            .map(SampleMedia.path)
        var stills: [String: Data] = [:]
        for version in ["default", "current", "original", "unadjusted"] {
            let output = workspace.url.appendingPathComponent(version).path
            let run = try LivePairBinary.run(
                ["preview"] + files + (version == "default" ? [] : ["--version", version])
                    + ["--size", "256x256", "--output", output, "--json"])
            #expect(run.status == 0, "\(version): \(run.error)")
            let results = try #require(try LivePairBinary.json(run.output)["results"] as? [[String: Any]])
            let still = try #require(results.first { $0["file"] as? String == "still.jpg" })
            #expect(still["width"] as? Int == 192 && still["height"] as? Int == 256, "\(version)")
            stills[version] = try Data(contentsOf: URL(fileURLWithPath: output + "/still.jpg"))
        }
        #expect(stills["default"] == stills["current"])
        #expect(stills["original"] == stills["unadjusted"])
        #expect(stills["current"] != stills["original"])
        let bad = try LivePairBinary.run(
            ["preview"] + files + ["--version", "edited", "--output", workspace.url.appendingPathComponent("bad").path])
        #expect(bad.status == 64 && bad.error.contains("--version"))
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

    @Test("a motion photo alone: its embedded video's frames, and its audio when it has some, go into motion.mp4",
        arguments: [("motion/samsung-one-ui-6.heic", true), ("motion/PXL_20200710_061629144.MP.jpg", false)])
    func motionPhoto(sample: String, hasAudio: Bool) throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("out").path
        let path = SampleMedia.path(sample)
        let run = try LivePairBinary.run(["preview", path, "--size", "256x256", "--output", output])
        #expect(run.status == 0, "\(run.error)")
        let left = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(left == ["motion.mp4", "placeholder.jpg", "poster.jpg", "still.jpg"])
        // The embedded movie's byte range, as `inspect` reports it, read by ffprobe on its own.
        let inspect = try LivePairBinary.run(["inspect", path, "--json"])
        func number(_ key: String) throws -> UInt64 {
            let pattern = try Regex("\"\(key)\": ([0-9]+)")
            let digits = inspect.output.firstMatch(of: pattern)?.output[1].substring
            return try #require(digits.flatMap { UInt64($0) }, "\(key) in \(inspect.output)")
        }
        let offset = try number("videoOffset"), length = try number("videoLength")
        let embedded = "subfile,,start,\(offset),end,\(offset + length),,:file:" + path
        let source = try Self.countedStreams(embedded)
        let motion = try Self.countedStreams(output + "/motion.mp4")
        let sourceVideo = try #require(source.first { $0["codec_type"] == "video" })
        let motionVideo = try #require(motion.first { $0["codec_type"] == "video" })
        #expect(motionVideo["codec_name"] == "h264")
        #expect(motionVideo["nb_read_frames"] == sourceVideo["nb_read_frames"], "\(motion) against \(source)")
        #expect(source.contains { $0["codec_type"] == "audio" } == hasAudio)
        #expect(motion.filter { $0["codec_type"] == "audio" }.map { $0["codec_name"] } == (hasAudio ? ["aac"] : []))
        #expect(run.output.contains(hasAudio ? "AAC audio (copied)" : "no audio"), "\(run.output)")
    }

    @Test("a still alone that is not a motion photo exits 1 and says to give its movie")
    func stillAlone() throws {
        let workspace = try SampleVariants.Workspace()
        let run = try LivePairBinary.run([
            "preview", SampleMedia.path("live/train.jpg"), "--output", workspace.url.appendingPathComponent("out").path,
        ])
        #expect(run.status == 1)
        #expect(run.error.contains("give its movie too"), "\(run.error)")
    }

    @Test("motion.mp4 carries the movie's audio as AAC exactly when the movie has audio (encoded or copied)")
    func motionAudio() throws {
        let workspace = try SampleVariants.Workspace()
        let root = workspace.url.path
        // A pair whose movie has no audio: train.mov without its audio (and data) streams, restamped
        // by livepair so that it is a valid pair again (still-image time, identifier in moov/meta).
        _ = try ReferenceTool.run(
            "ffmpeg",
            ["-v", "error", "-y", "-i", SampleMedia.path("live/train.mov"), "-map", "0:v", "-c", "copy", "-map_metadata", "0",
             "-movflags", "use_metadata_tags", root + "/silent.mov"])
        let silent = try LivePairBinary.run([
            "restamp", SampleMedia.path("live/train.jpg"), root + "/silent.mov", "--output", root + "/silent",
            "--still-time", "0.6",
        ])
        #expect(silent.status == 0, "\(silent.error)")
        // A pair whose movie has AAC audio: a phone's MP4 paired with a photo by restamp.
        let aac = try LivePairBinary.run([
            "restamp", SampleMedia.path("plain/pixel_8.jpg"), SampleMedia.path("plain/with-gps.mov"), "--output",
            root + "/aac", "--still-time", "0.5",
        ])
        #expect(aac.status == 0, "\(aac.error)")
        let cases: [(photo: String, video: String, audio: String?)] = [
            (SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov"), "AAC audio (encoded)"),  // PCM
            (SampleMedia.path("live/IMG_4580.HEIC"), SampleMedia.path("live/IMG_4580.mov"), "AAC audio (encoded)"),
            (root + "/aac/pixel_8.jpg", root + "/aac/with-gps.mov", "AAC audio (copied)"),
            (root + "/silent/train.jpg", root + "/silent/silent.mov", nil),
        ]
        for (index, item) in cases.enumerated() {
            let output = root + "/out\(index)"
            let run = try LivePairBinary.run(["preview", item.photo, item.video, "--size", "128x128", "--output", output])
            #expect(run.status == 0, "\(item.video): \(run.error)")
            let input = try Self.streams(item.video).filter { $0["codec_type"] == "audio" }
            let motion = try Self.streams(output + "/motion.mp4")
            let audio = motion.filter { $0["codec_type"] == "audio" }, video = motion.filter { $0["codec_type"] == "video" }
            #expect(video.count == 1 && video.first?["codec_name"] == "h264")
            #expect(audio.count == (input.isEmpty ? 0 : 1), "\(item.video): \(motion)")
            #expect(audio.count == (item.audio == nil ? 0 : 1))
            if let expected = item.audio {
                #expect(run.output.contains(expected), "\(run.output)")
                #expect(audio.first?["codec_name"] == "aac")
                let audioDuration = try #require(Double(audio.first?["duration"] ?? ""))
                let videoDuration = try #require(Double(video.first?["duration"] ?? ""))
                #expect(abs(audioDuration - videoDuration) < 0.1, "audio \(audioDuration) s, video \(videoDuration) s")
            } else {
                #expect(run.output.contains("no audio"))
            }
        }
    }

    /// ffprobe's `codec_type`, `codec_name` and counted frames (`nb_read_frames`) of each stream of `url`.
    static func countedStreams(_ url: String) throws -> [[String: String]] {
        try probeStreams(url, entries: "codec_type,codec_name,nb_read_frames", extra: ["-count_frames"])
    }

    /// ffprobe's `codec_type`, `codec_name` and `duration` of each of `path`'s streams.
    static func streams(_ path: String) throws -> [[String: String]] {
        try probeStreams(path, entries: "codec_type,codec_name,duration")
    }

    /// ffprobe's stream `entries` of each stream of `url`, one dictionary per stream.
    static func probeStreams(_ url: String, entries: String, extra: [String] = []) throws -> [[String: String]] {
        try ReferenceTool.run(
            "ffprobe", ["-v", "error"] + extra + ["-show_entries", "stream=" + entries, "-of", "compact=p=0", url]
        ).split(separator: "\n").map { line in
            var fields: [String: String] = [:]
            for field in line.split(separator: "|") {
                let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            return fields
        }
    }
}

@Suite("livepair preview --json and --overwrite, through the executable")
struct PreviewJSONCommandTests {
    /// The `results` of `preview --json`, each as a dictionary.
    static func results(_ output: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        return try #require(object?["results"] as? [[String: Any]], "\(output)")
    }

    @Test("--json: placeholder, still, poster and motion with degraded, size, time and source",
        arguments: [
            ("live/train.jpg", "live/train.mov", "exif-thumbnail", 160, 120, 512, 384),
            ("live/IMG_3582_edited.heic", "live/IMG_3582_edited.mov", "movie-key-frame", 384, 512, 384, 512),
        ])
    func json(photo: String, video: String, source: String, width: Int, height: Int, finalWidth: Int, finalHeight: Int)
        throws
    {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("out").path
        let run = try LivePairBinary.run([
            "preview", SampleMedia.path(photo), SampleMedia.path(video), "--size", "512x512", "--output", output, "--json",
        ])
        #expect(run.status == 0, "\(run.error)")
        let results = try Self.results(run.output)
        #expect(results.map { $0["file"] as? String } == ["placeholder.jpg", "still.jpg", "poster.jpg", "motion.mp4"])
        #expect(results.map { $0["degraded"] as? Bool } == [true, false, false, false])
        #expect(results.first?["source"] as? String == source)
        #expect(results.first?["width"] as? Int == width && results.first?["height"] as? Int == height)
        #expect(results[1]["width"] as? Int == finalWidth && results[1]["height"] as? Int == finalHeight)
        #expect(results[1]["source"] as? String == "still")
        #expect((results[2]["source"] as? String)?.hasPrefix("movie-frame ") == true)
        for result in results {
            let milliseconds = try #require(result["milliseconds"] as? Double)
            #expect(milliseconds > 0)
        }
        // The placeholder file has the size the JSON reports.
        let probed = try ReferenceTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", output + "/placeholder.jpg"])
        #expect(probed.trimmingCharacters(in: .whitespacesAndNewlines) == "\(width),\(height)")
    }

    @Test("existing outputs are refused without --overwrite (exit 1, nothing written), replaced with it")
    func overwrite() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("out").path
        let arguments = [
            "preview", SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov"), "--size", "128x128",
            "--output", output,
        ]
        #expect(try LivePairBinary.run(arguments).status == 0)
        let still = output + "/still.jpg"
        try Data("not a preview".utf8).write(to: URL(fileURLWithPath: still))
        let refused = try LivePairBinary.run(arguments)
        #expect(refused.status == 1)
        #expect(refused.error.contains("--overwrite"), "\(refused.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: still)) == Data("not a preview".utf8))
        let replaced = try LivePairBinary.run(arguments + ["--overwrite"])
        #expect(replaced.status == 0, "\(replaced.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: still)).prefix(2) == Data([0xFF, 0xD8]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted()
            == ["motion.mp4", "placeholder.jpg", "poster.jpg", "still.jpg"])
    }

    @Test("a failed run leaves no folder it created, and nothing in a folder that existed")
    func failureCleansUp() throws {
        let workspace = try SampleVariants.Workspace()
        let created = workspace.url.appendingPathComponent("new/out").path
        let invalid = [SampleMedia.path("live/train.jpg"), SampleMedia.path("live/IMG_3582.mov")]
        let run = try LivePairBinary.run(["preview"] + invalid + ["--output", created])
        #expect(run.status == 1)
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("new").path))
        let existing = workspace.url.appendingPathComponent("existing").path
        try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: false)
        #expect(try LivePairBinary.run(["preview"] + invalid + ["--output", existing]).status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: existing).isEmpty)
    }
}
