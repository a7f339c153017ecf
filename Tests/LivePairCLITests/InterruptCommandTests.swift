import Foundation
import LivePairCore
import TestSupport
import Testing

/// make, restamp, convert, library export and preview interrupted by a real SIGINT or SIGTERM
/// mid-run: the process removes its staging folders and what it wrote, then exits 130 or 143;
/// outputs and inputs are as they were.
@Suite("Interrupted commands leave nothing behind")
struct InterruptCommandTests {
    /// A running `livepair` process (output discarded).
    final class RunningCommand {
        let process = Process()

        init(_ arguments: [String], environment: [String: String] = [:]) throws {
            process.executableURL = LivePairBinary.url
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Waits (up to 600 s, a guard against a hang) until `condition` holds while the process runs; false when it ended first.
        func wait(until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(600)
            while process.isRunning, Date() < deadline {
                if condition() { return true }
                usleep(20_000)
            }
            return false
        }

        /// Sends `signal` and waits for the exit status.
        func interrupt(with signal: Int32) -> (reason: Process.TerminationReason, status: Int32) {
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            return (process.terminationReason, process.terminationStatus)
        }
    }

    /// Every entry of `directory`, hidden ones included, sorted.
    static func listing(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// The files in the staging folders of `directory`.
    static func stagedFiles(_ directory: String) -> [String] {
        listing(directory).filter { $0.hasPrefix(".livepair-") }.flatMap { listing(directory + "/" + $0) }
    }

    @Test("make interrupted (SIGINT) while it transcodes: exit 130, no staging folder, no output", .timeLimit(.minutes(10)))
    func makeWhileTranscoding() throws {
        let workspace = try SampleVariants.Workspace()
        let movie = workspace.url.appendingPathComponent("clip.mkv").path
        try ReferenceTool.ffmpegTool("ffmpeg", [
            "-f", "lavfi", "-i", "testsrc=size=1280x720:rate=30:duration=6", "-c:v", "mpeg4", "-q:v", "5", "-y", movie,
        ])
        let output = workspace.url.appendingPathComponent("out").path
        let run = try RunningCommand(["make", "--photo", SampleMedia.path("live/train.jpg"), "--video", movie, "--output", output])
        // The transcoder writes `.transcoded.mov.<random>.tmp` in the staging folder while it runs.
        #expect(run.wait { Self.stagedFiles(output).contains { $0.hasPrefix(".transcoded.mov.") } }, "the transcode never started")
        let ended = run.interrupt(with: SIGINT)
        #expect(ended.reason == .exit && ended.status == 130, "\(ended)")
        #expect(Self.listing(output) == [])
    }

    @Test("restamp --in-place interrupted (SIGTERM) before its commit: exit 143, inputs unchanged, no staging")
    func restampInPlace() throws {
        let workspace = try SampleVariants.Workspace()
        let photo = try workspace.copy("live/IMG_3582.HEIC", as: "pair/IMG_3582.HEIC")
        let video = try workspace.copy("live/IMG_3582.mov", as: "pair/IMG_3582.mov")
        let folder = workspace.url.appendingPathComponent("pair").path
        let before = [FileManager.default.contents(atPath: photo), FileManager.default.contents(atPath: video)]
        let run = try RunningCommand(
            ["restamp", photo, video, "--in-place"], environment: ["LIVEPAIR_PAUSE_AT": "before-commit"])
        #expect(run.wait { Self.stagedFiles(folder).contains("IMG_3582.mov") })
        let ended = run.interrupt(with: SIGTERM)
        #expect(ended.reason == .exit && ended.status == 143, "\(ended)")
        #expect(Self.listing(folder) == ["IMG_3582.HEIC", "IMG_3582.mov"])
        #expect([FileManager.default.contents(atPath: photo), FileManager.default.contents(atPath: video)] == before)
    }

    @Test("convert --to motion-photo interrupted (SIGINT): exit 130, no staging folder, no output")
    func convert() throws {
        let workspace = try SampleVariants.Workspace()
        let folder = workspace.url.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let run = try RunningCommand(
            ["convert", "--to", "motion-photo", SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov"),
             "--output", folder + "/train.MP.jpg"],
            environment: ["LIVEPAIR_PAUSE_AT": "before-commit"])
        #expect(run.wait { Self.stagedFiles(folder).contains("train.MP.jpg") })
        let ended = run.interrupt(with: SIGINT)
        #expect(ended.reason == .exit && ended.status == 130, "\(ended)")
        #expect(Self.listing(folder) == [])
    }

    @Test("library export --for-photos interrupted (SIGTERM): exit 143, no scratch or staging folder left")
    func exportForPhotos() throws {
        let workspace = try SampleVariants.Workspace()
        let library = try TrainPairLibrary(in: workspace)
        let output = workspace.url.appendingPathComponent("photos").path
        let run = try RunningCommand(
            ["library", "export", library.identifier, "--library", library.path, "--output", output, "--for-photos"],
            environment: ["LIVEPAIR_PAUSE_AT": "before-commit"])
        // The scratch folder holds the stored train.mov first; the restamp's staging folder holds
        // the second one, paused before its commit (waiting for the first alone sent the signal
        // while the restamp was still creating its staging folder, which then stayed).
        #expect(run.wait { Self.stagedFiles(output).filter { $0 == "train.mov" }.count >= 2 })
        let ended = run.interrupt(with: SIGTERM)
        #expect(ended.reason == .exit && ended.status == 143, "\(ended)")
        #expect(Self.listing(output) == [])
    }

    @Test("library export --layout google-photos interrupted (SIGTERM) while it restamps: exit 143, no scratch, staging or media file left")
    func layoutExport() throws {
        let workspace = try SampleVariants.Workspace()
        let library = try TrainPairLibrary(in: workspace)
        let output = workspace.url.appendingPathComponent("google").path
        func everything() -> [String] { (FileManager.default.enumerator(atPath: output)?.allObjects as? [String] ?? []).sorted() }
        let run = try RunningCommand(
            ["library", "export", "--layout", "google-photos", "--library", library.path, "--output", output],
            environment: ["LIVEPAIR_PAUSE_AT": "before-commit"])
        // The restamp's staging folder inside the export's scratch folder, paused before its commit.
        #expect(run.wait { everything().contains { $0.components(separatedBy: ".livepair-staging-").count == 3 && $0.hasSuffix("/train.mov") } })
        let ended = run.interrupt(with: SIGTERM)
        #expect(ended.reason == .exit && ended.status == 143, "\(ended)")
        #expect(!everything().contains { $0.contains(".livepair-") || $0.hasSuffix(".JPG") || $0.hasSuffix(".json") }, "\(everything())")
    }

    @Test("migrate interrupted (SIGTERM) while it converts a motion photo: exit 143, the temporary library and every scratch folder gone")
    func migrate() throws {
        let workspace = try SampleVariants.Workspace()
        _ = try workspace.copy("motion/PXL_20200710_061629144.MP.jpg", as: "inbox/PXL_20200710_061629144.MP.jpg")
        let output = workspace.url.appendingPathComponent("photos").path
        func everything() -> [String] { (FileManager.default.enumerator(atPath: output)?.allObjects as? [String] ?? []).sorted() }
        let run = try RunningCommand(
            ["migrate", workspace.url.appendingPathComponent("inbox").path, "--to", "apple-photos", "--output", output],
            environment: ["LIVEPAIR_PAUSE_AT": "before-commit"])
        #expect(run.wait { everything().contains { $0.hasSuffix("/PXL_20200710_061629144.MOV") } })
        let ended = run.interrupt(with: SIGTERM)
        #expect(ended.reason == .exit && ended.status == 143, "\(ended)")
        #expect(everything() == [], "\(everything())")
    }

    @Test("preview interrupted (SIGINT) while it writes motion.mp4: exit 130, the folder it created is gone")
    func preview() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("new/preview").path
        let run = try RunningCommand([
            "preview", SampleMedia.path("live/IMG_4580.HEIC"), SampleMedia.path("live/IMG_4580.mov"), "--size", "1920x1440",
            "--output", output,
        ])
        #expect(run.wait { Self.listing(output).contains { $0.hasPrefix("motion.mp4.tmp-") } })
        let ended = run.interrupt(with: SIGINT)
        #expect(ended.reason == .exit && ended.status == 130, "\(ended)")
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("new").path))
    }
}
