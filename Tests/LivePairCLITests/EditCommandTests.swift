import Foundation
import TestSupport
import Testing

/// `livepair edit`, end to end through the executable: Photos' names beside the originals, JSON,
/// `--resume`, read back by `inspect`, `pair` and `validate --deep`, usage errors, interruption.
@Suite("livepair edit, end to end through the executable")
struct EditCommandTests {
    /// train.jpg + train.mov copied as an iPhone names them, in the folder `pair`.
    static func originals(_ workspace: SampleVariants.Workspace) throws -> (photo: String, video: String, folder: String) {
        (
            try workspace.copy("live/train.jpg", as: "pair/IMG_1234.JPG"),
            try workspace.copy("live/train.mov", as: "pair/IMG_1234.MOV"),
            workspace.url.appendingPathComponent("pair").path
        )
    }

    @Test("edit --key-photo --trim --mute --json writes IMG_E1234.JPG, IMG_E1234.MOV and IMG_1234.AAE that read back")
    func editBesideOriginals() throws {
        let workspace = try SampleVariants.Workspace()
        let (photo, video, folder) = try Self.originals(workspace)
        let before = [FileManager.default.contents(atPath: photo), FileManager.default.contents(atPath: video)]
        let run = try LivePairBinary.run([
            "edit", photo, video, "--key-photo", "0.8", "--trim", "0.2-1.0", "--mute", "-o", folder, "--json",
        ])
        #expect(run.status == 0, "\(run.error)")
        let json = try LivePairBinary.json(run.output)
        #expect(json["operation"] as? String == "edit")
        #expect((json["photo"] as? [String: Any])?["path"] as? String == folder + "/IMG_E1234.JPG")
        #expect((json["video"] as? [String: Any])?["path"] as? String == folder + "/IMG_E1234.MOV")
        #expect((json["adjustments"] as? [String: Any])?["path"] as? String == folder + "/IMG_1234.AAE")
        #expect(json["audio"] as? Bool == false)
        let settings = try #require(json["settings"] as? [String: Any])
        #expect(settings["keyPhoto"] as? Double == 0.8 && settings["trim"] as? [Double] == [0.2, 1.0])
        #expect(settings["muted"] as? Bool == true && settings["variation"] as? String == "none")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
            "IMG_1234.AAE", "IMG_1234.JPG", "IMG_1234.MOV", "IMG_E1234.JPG", "IMG_E1234.MOV",
        ])
        #expect([FileManager.default.contents(atPath: photo), FileManager.default.contents(atPath: video)] == before)

        // inspect reads the new still time (the 0.8 s frame, 0.6 s into the trimmed movie) and one new identifier.
        let stillTime = try #require(json["stillImageTime"] as? Double)
        #expect(abs(stillTime - 0.6) < 1e-6)
        let inspect = try LivePairBinary.run(["inspect", "--json", folder + "/IMG_E1234.JPG", folder + "/IMG_E1234.MOV"])
        let files = try #require(try JSONSerialization.jsonObject(with: Data(inspect.output.utf8)) as? [[String: Any]])
        #expect(files.count == 2)
        #expect(files.allSatisfy { $0["contentIdentifier"] as? String == json["contentIdentifier"] as? String })
        #expect(abs(try #require(files[1]["stillImageTime"] as? Double) - stillTime) < 1e-6)
        // pair: the render is a Live Photo and one edit group with its original and adjustment data.
        let pair = try LivePairBinary.json(try LivePairBinary.run(["pair", "--json", folder]).output)
        let groups = try #require(pair["editGroups"] as? [[String: Any]])
        #expect(groups.count == 1)
        #expect(groups.first?["renders"] as? [String] == [folder + "/IMG_E1234.JPG", folder + "/IMG_E1234.MOV"])
        #expect(groups.first?["adjustments"] as? [String] == [folder + "/IMG_1234.AAE"])
        #expect((pair["pairs"] as? [[String: Any]])?.count == 2)
        // validate --deep decodes both halves: no error.
        let validate = try LivePairBinary.run(["validate", "--deep", "--json", "--quiet", folder])
        #expect(validate.status == 0, "\(validate.output)")
    }

    @Test("--resume reads the AAE it wrote; options given override it")
    func resume() throws {
        let workspace = try SampleVariants.Workspace()
        let (photo, video, folder) = try Self.originals(workspace)
        let first = try LivePairBinary.run(["edit", photo, video, "--key-photo", "0.5", "--trim", "0.3-0.7", "-o", folder])
        #expect(first.status == 0, "\(first.error)")
        let again = try LivePairBinary.run([
            "edit", photo, video, "--resume", folder + "/IMG_1234.AAE", "--variation", "bounce", "--overwrite", "-o", folder,
            "--json",
        ])
        #expect(again.status == 0, "\(again.error)")
        let settings = try #require(try LivePairBinary.json(again.output)["settings"] as? [String: Any])
        #expect(settings["keyPhoto"] as? Double == 0.5 && settings["trim"] as? [Double] == [0.3, 0.7])
        #expect(settings["muted"] as? Bool == false && settings["variation"] as? String == "bounce")
        // --volume: recorded, resumed, overridden.
        let quieter = try LivePairBinary.run([
            "edit", photo, video, "--key-photo", "0.5", "--volume", "0.25", "--overwrite", "-o", folder, "--json",
        ])
        #expect(quieter.status == 0, "\(quieter.error)")
        #expect(try LivePairBinary.json(quieter.output)["audio"] as? Bool == true)
        let resumedVolume = try LivePairBinary.run([
            "edit", photo, video, "--resume", folder + "/IMG_1234.AAE", "--key-photo", "0.6", "--overwrite", "-o", folder,
            "--json",
        ])
        let volumeSettings = try #require(try LivePairBinary.json(resumedVolume.output)["settings"] as? [String: Any])
        #expect(volumeSettings["volume"] as? Double == 0.25 && volumeSettings["muted"] as? Bool == false)
        // Photos' own AAE: IMG_1853's key photo at 1740/600 s.
        let photos = try LivePairBinary.run([
            "edit", photo, video, "--resume", SampleMedia.path("live/IMG_1853.AAE"), "--trim", "0.9-1.2", "--overwrite",
            "-o", folder, "--json",
        ])
        let resumed = try #require(try LivePairBinary.json(photos.output)["settings"] as? [String: Any])
        #expect(resumed["keyPhoto"] as? Double == 2.9 && resumed["trim"] as? [Double] == [0.9, 1.2])
        // 2.9 s is past the kept range: the key photo is its last frame (1.168333 s of train.mov).
        #expect(abs(try #require(try LivePairBinary.json(photos.output)["keyPhotoTime"] as? Double) - 1.168333) < 1e-5)
    }

    @Test("edit --filter mono records the filter; --resume gives it back")
    func filterRecordedAndResumed() throws {
        let workspace = try SampleVariants.Workspace()
        let (photo, video, folder) = try Self.originals(workspace)
        let run = try LivePairBinary.run(["edit", photo, video, "--trim", "0.2-0.4", "--mute", "--filter", "mono", "-o", folder, "--json"])
        #expect(run.status == 0, "\(run.error)")
        let json = try LivePairBinary.json(run.output)
        #expect((json["settings"] as? [String: Any])?["filter"] as? String == "mono")
        #expect((json["video"] as? [String: Any])?["handling"] as? String == "transcoded")
        let again = try LivePairBinary.run(
            ["edit", photo, video, "--resume", folder + "/IMG_1234.AAE", "--overwrite", "-o", folder, "--json"])
        #expect(again.status == 0, "\(again.error)")
        #expect((try LivePairBinary.json(again.output)["settings"] as? [String: Any])?["filter"] as? String == "mono")
    }

    @Test("bad values are usage errors (64) and write nothing")
    func usageErrors() throws {
        let workspace = try SampleVariants.Workspace()
        let (photo, video, folder) = try Self.originals(workspace)
        for arguments in [
            ["--trim", "2-1"], ["--trim", "x"], ["--variation", "sideways"], ["--key-photo", "-1"], ["--volume", "1.5"],
            ["--volume", "loud"], ["--filter", "sepia"], [],
        ] {
            let outputs = arguments.isEmpty ? [] : ["-o", folder]
            let run = try LivePairBinary.run(["edit", photo, video] + arguments + outputs)
            #expect(run.status == 64, "\(arguments): \(run.error)")
            #expect(run.error.hasPrefix("Error: "))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["IMG_1234.JPG", "IMG_1234.MOV"])
    }

    @Test("edit interrupted (SIGINT) before its commit: exit 130, nothing left")
    func interrupted() throws {
        let workspace = try SampleVariants.Workspace()
        let (photo, video, _) = try Self.originals(workspace)
        let output = workspace.url.appendingPathComponent("out").path
        let process = Process()
        process.executableURL = LivePairBinary.url
        process.arguments = ["edit", photo, video, "--trim", "0.2-0.6", "-o", output]
        process.environment = ProcessInfo.processInfo.environment.merging(["LIVEPAIR_PAUSE_AT": "before-commit"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        func staged() -> [String] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
            return entries.filter { $0.hasPrefix(".livepair-") }.flatMap {
                (try? FileManager.default.contentsOfDirectory(atPath: output + "/" + $0)) ?? []
            }
        }
        while process.isRunning, !staged().contains("IMG_1234.AAE") { usleep(20_000) }
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output) == [])
    }
}
