import Foundation
import LivePairCLI
import TestSupport
import Testing

@Suite("livepair inspect")
struct InspectCommandTests {
    /// Runs `livepair arguments...` in process, returning the exit status and captured output.
    private func run(_ arguments: [String]) -> (status: ExitCode, output: String, error: String) {
        let capture = CapturedOutput()
        let status = LivePairTool.main(arguments, streams: capture.streams())
        return (status, capture.output, capture.error)
    }

    /// Parses the JSON `inspect --json` printed.
    private func objects(_ text: String) throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(value as? [[String: Any]])
    }

    @Test("--json prints one object per file with the documented keys")
    func jsonKeys() throws {
        let result = run(["inspect", "--json", SampleMedia.path("live/IMG_3582.mov"), SampleMedia.path("live/IMG_3582.HEIC")])
        #expect(result.status == .success)
        let list = try objects(result.output)
        #expect(list.count == 2)
        let required = [
            "path", "format", "role", "contentIdentifier", "stillImageTime", "width", "height", "orientation", "duration",
            "videoCodec", "audioCodec", "captureDate", "motionPhoto", "errors",
        ]
        for object in list {
            for key in required { #expect(object.keys.contains(key), "missing \(key)") }
        }
        // Sorted by path: the .HEIC sorts before the .mov.
        let still = list[0], movie = list[1]
        #expect(still["role"] as? String == "live-photo-still")
        #expect(still["format"] as? String == "heic")
        #expect(still["contentIdentifier"] as? String == "602FEBB7-6B59-4799-96E6-9C8484D873C7")
        #expect(still["stillImageTime"] is NSNull)
        #expect(still["width"] as? Int == 5712 && still["height"] as? Int == 4284)
        #expect(still["orientation"] as? Int == 6)
        #expect(movie["role"] as? String == "live-photo-video")
        #expect(movie["videoCodec"] as? String == "hevc")
        #expect(movie["audioCodec"] as? String == "pcm_s16le")
        let stillTime = try #require(movie["stillImageTime"] as? Double)
        #expect(abs(stillTime - 1.331667) < 0.000001)
        #expect(movie["captureDate"] as? String == "2025-05-26T09:27:06-05:00")
        #expect((movie["errors"] as? [Any])?.isEmpty == true)
    }

    @Test("a directory is read recursively; motion photos carry their video range")
    func directoryAndMotionPhoto() throws {
        let result = run(["inspect", "--json", SampleMedia.path("motion")])
        #expect(result.status == .success)
        let list = try objects(result.output)
        #expect(list.count == 4)
        let pixel = try #require(list.first { ($0["path"] as? String)?.hasSuffix("PXL_20200710_061629144.MP.jpg") == true })
        let motion = try #require(pixel["motionPhoto"] as? [String: Any])
        #expect(motion["vendor"] as? String == "google")
        #expect(motion["videoOffset"] as? Int == 2_728_123)
        #expect(motion["videoLength"] as? Int == 1_317_283)
        #expect(motion["presentationTimestampUs"] as? Int == 0)
    }

    @Test("exit status 1 and error entries when a file cannot be read completely")
    func unreadableFileFails() throws {
        let result = run(["inspect", "--json", SampleMedia.path("broken/google_motion_photo_broken.jpg")])
        #expect(result.status == .failure)
        let object = try #require(try objects(result.output).first)
        let errors = try #require(object["errors"] as? [[String: Any]])
        #expect(errors.map { $0["code"] as? String } == ["motion-photo-video-missing"])
    }

    @Test("a missing path is reported on standard error with exit status 1")
    func missingPath() {
        let result = run(["inspect", "/nonexistent/livepair-file.heic"])
        #expect(result.status == .failure)
        #expect(result.error.contains("/nonexistent/livepair-file.heic: no such file or directory"))
    }

    @Test("usage errors: exit 64 with Error, Usage and a help hint on standard error")
    func usageErrors() {
        for arguments in [["inspect"], ["inspect", "--bogus", "x"], ["frobnicate"], []] {
            let result = run(arguments)
            #expect(result.status == .usage, "\(arguments)")
            #expect(result.output.isEmpty)
            if !arguments.isEmpty {
                #expect(result.error.hasPrefix("Error: "), "\(arguments)")
                #expect(result.error.contains("Usage: "))
                #expect(result.error.contains("--help"))
            }
        }
    }

    @Test("help goes to standard output with exit 0")
    func help() {
        for arguments in [["--help"], ["inspect", "--help"], ["help", "inspect"], ["inspect", "-h"]] {
            let result = run(arguments)
            #expect(result.status == .success)
            #expect(result.output.contains("USAGE: livepair"))
            #expect(result.error.isEmpty)
        }
        #expect(run(["inspect", "--help"]).output.contains("--json"))
    }

    @Test("the table lists every file with its role and a summary line")
    func table() {
        let result = run(["inspect", SampleMedia.path("live")])
        #expect(result.status == .success)
        let lines = result.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("PATH") == true)
        #expect(lines.last == "16 files: 9 live-photo-still, 5 live-photo-video, 2 adjustment-data")
        // The first 8 characters of a content identifier; the whole one with --wide.
        #expect(result.output.contains("  C3754624  "))
        #expect(!result.output.contains("C3754624-A05F"))
        #expect(run(["inspect", "--wide", SampleMedia.path("live")]).output.contains("C3754624-A05F-474D-9F16-E9C47B5F892D"))
    }

    @Test("the table fits 120 columns unless --wide: paths cut in their folders or names, details and summary wrapped")
    func narrowTable() throws {
        let root = SampleMedia.root.deletingLastPathComponent().path
        let narrow = try runShell("\"$LIVEPAIR\" inspect SampleMedia", in: root)
        #expect(narrow.status == 1)
        let lines = narrow.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.allSatisfy { $0.count <= 120 }, "\(lines.filter { $0.count > 120 })")
        #expect(lines.count == 51)
        let expected = [
            "PATH                                     FORMAT   ROLE              IDENTIFIER  SIZE       DURATION  CAPTURED",
            "…/IllegalArgumentExc….processBoxes.heif  heic     photo             -           -          -         -",
            "    error[truncated]: TM\\x90\\x84 box at offset 534: data ends early (needs 114097599 bytes, 7661 available)",
            "…/NegativeArraySizeE….processBoxes.heif  heic     photo             -           -          -         -",
            "SampleM…/google_motion_photo_broken.jpg  jpeg     motion-photo      -           1512x2016  -         -",
            "    error[motion-photo-video-missing]: the metadata says this is a motion photo, but no video is embedded:",
            "      MicroVideoOffset 1024 points to offset 672243, where there is no ftyp; no ftyp box in the last 673267 bytes",
            "…/51F2BEF7-431A-4D31…3284A57826AE_3.mov  mov      live-photo-video  C3754624    1440x1080  2.635s    2019-12-29 19:01:14",
            "SampleMedia/live/IMG_3582.mov            mov      live-photo-video  602FEBB7    1920x1440  1.910s    2025-05-26 09:27:06",
            "SampleMedia/moti…/samsung-one-ui-6.heic  heic     motion-photo      -           4000x3000  3.130s    2024-01-12 21:38:53",
            "    motion photo (samsung): video at 452284, 3226469 bytes, still at 3000000 us",
        ]
        for line in expected { #expect(lines.contains(line), "\(line)") }
        #expect(lines.first == expected.first)
        #expect(lines.suffix(2).joined(separator: "\n").hasSuffix("2 adjustment-data, 3 unknown; 4\n  could not be read completely"))
        // --wide: every column whole, as the table was (TextReportBytesTests), wider than 120.
        let wide = try runShell("\"$LIVEPAIR\" inspect --wide SampleMedia", in: root)
        #expect(wide.output.split(separator: "\n").contains { $0.count > 120 })
        #expect(wide.output.contains("SampleMedia/broken/IllegalArgumentException.HeifReader.processBoxes.heif"))
        // Absolute paths of any length fit too.
        let absolute = run(["inspect", SampleMedia.path("live"), SampleMedia.path("motion")])
        #expect(absolute.output.split(separator: "\n").allSatisfy { $0.count <= 120 })
    }

    @Test("the built executable exits with the documented statuses")
    func executable() throws {
        #expect(try LivePairBinary.run(["inspect", SampleMedia.path("live/train.jpg")]).status == 0)
        #expect(try LivePairBinary.run(["inspect", SampleMedia.path("broken/google_motion_photo_broken.jpg")]).status == 1)
        #expect(try LivePairBinary.run(["inspect", "--nope"]).status == 64)
    }
}

@Suite("File collection")
struct FileCollectorTests {
    @Test("a directory given as a symbolic link is walked, and paths keep the name given")
    func symbolicLinkRoot() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: SampleMedia.path("motion"))
        defer { try? FileManager.default.removeItem(at: link) }
        let collection = FileCollector.collect([link.path + "/"])
        #expect(collection.missing.isEmpty)
        #expect(collection.files.count == 4)
        #expect(collection.files.allSatisfy { $0.hasPrefix(link.path + "/") })
        #expect(collection.files.contains(link.path + "/PXL_20200710_061629144.MP.jpg"))
    }

    @Test("missing paths are reported, files are sorted and unique")
    func missingAndDuplicates() {
        let file = SampleMedia.path("live/train.jpg")
        let collection = FileCollector.collect([file, "/nonexistent/x.jpg", file])
        #expect(collection.files == [file])
        #expect(collection.missing == ["/nonexistent/x.jpg"])
    }
}
