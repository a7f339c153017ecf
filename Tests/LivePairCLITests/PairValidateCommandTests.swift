import Foundation
import LivePairCLI
import TestSupport
import Testing

@Suite("livepair pair and validate, end to end through the executable")
struct PairValidateCommandTests {
    @Test("pair --json on the Live Photo samples: five pairs, orphans with reasons, one ambiguity")
    func pairLiveSamples() throws {
        let run = try LivePairBinary.run(["pair", "--json", SampleMedia.path("live")])
        #expect(run.status == 0)
        let object = try LivePairBinary.json(run.output)
        #expect(object["schemaVersion"] as? Int == 1)
        let pairs = try #require(object["pairs"] as? [[String: Any]])
        let byIdentifier = Dictionary(uniqueKeysWithValues: pairs.map { ($0["contentIdentifier"] as? String ?? "", $0) })
        let expected: [String: (String, String)] = [
            "C3754624-A05F-474D-9F16-E9C47B5F892D": (
                "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"
            ),
            "602FEBB7-6B59-4799-96E6-9C8484D873C7": ("live/IMG_3582.HEIC", "live/IMG_3582.mov"),
            "87D06EAA-DAEF-4498-ABC5-27FE5C8CE710": ("live/IMG_3582_edited.heic", "live/IMG_3582_edited.mov"),
            "4E1A1B89-CE70-4FF8-873B-E4470B839314": ("live/IMG_4580.HEIC", "live/IMG_4580.mov"),
            "E905E6C6-C747-4805-942F-9904A0281F02": ("live/train.jpg", "live/train.mov"),
        ]
        #expect(Set(byIdentifier.keys) == Set(expected.keys))
        for (identifier, (photo, video)) in expected {
            #expect(byIdentifier[identifier]?["photo"] as? String == SampleMedia.path(photo))
            #expect(byIdentifier[identifier]?["video"] as? String == SampleMedia.path(video))
            #expect(byIdentifier[identifier]?["weak"] as? Bool == false)
        }
        let unpaired = try #require(object["unpaired"] as? [[String: Any]])
        let reasons = Dictionary(uniqueKeysWithValues: unpaired.map {
            (($0["path"] as? String ?? "").split(separator: "/").last.map(String.init) ?? "", $0["reason"] as? String ?? "")
        })
        #expect(
            reasons == [
                "IMG_1853.HEIC": "missing-paired-video", "IMG_2927.HEIC": "missing-paired-video",
                "IMG_E1853.heic": "missing-paired-video", "exif-at-eof.heic": "missing-paired-video",
                "IMG_1853.AAE": "not-media", "IMG_3582.AAE": "not-media",
            ])
        // Two stills with one identifier and no movie: listed once, as orphans (issue 20).
        #expect((object["ambiguous"] as? [Any])?.isEmpty == true)
        #expect((object["duplicates"] as? [Any])?.isEmpty == true)
        let edits = try #require(object["editGroups"] as? [[String: Any]])
        #expect(edits.map { $0["stem"] as? String } == ["img_1853", "img_3582"])
        #expect(edits.first?["originals"] as? [String] == [SampleMedia.path("live/IMG_1853.HEIC")])
        #expect(edits.first?["renders"] as? [String] == [SampleMedia.path("live/IMG_E1853.heic")])
        #expect(edits.first?["adjustments"] as? [String] == [SampleMedia.path("live/IMG_1853.AAE")])
    }

    @Test("halves renamed the ways vendors name them, in different folders, still pair; same names with other identifiers do not")
    func pairRenamedHalves() throws {
        let workspace = try SampleVariants.Workspace()
        let photo = try workspace.copy("live/IMG_4580.HEIC", as: "Camera Roll/2025/IMG_4580.HEIC")
        let movie = try workspace.copy("live/IMG_4580.mov", as: "downloads/IMG_4580_HEVC.MOV")
        let takeout = try workspace.copy("live/train.mov", as: "takeout/IMG_4580(1).MP4")
        let run = try LivePairBinary.run(["pair", "--json", workspace.url.path])
        #expect(run.status == 0)
        let object = try LivePairBinary.json(run.output)
        let pairs = try #require(object["pairs"] as? [[String: Any]])
        #expect(pairs.count == 1)
        #expect(pairs.first?["photo"] as? String == photo)
        #expect(pairs.first?["video"] as? String == movie)
        let unpaired = try #require(object["unpaired"] as? [[String: Any]])
        #expect(unpaired.map { $0["path"] as? String } == [takeout])
        #expect(unpaired.first?["reason"] as? String == "missing-photo")
        #expect(unpaired.first?["contentIdentifier"] as? String == "E905E6C6-C747-4805-942F-9904A0281F02")
    }

    @Test("validate on a clean pair exits 0; the summary counts findings by severity")
    func validateCleanPair() throws {
        let run = try LivePairBinary.run(["validate", "--json", SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov")])
        #expect(run.status == 0)
        let object = try LivePairBinary.json(run.output)
        let assets = try #require(object["assets"] as? [[String: Any]])
        #expect(assets.count == 1)
        #expect(assets.first?["status"] as? String == "valid")
        #expect(assets.first?["kind"] as? String == "live-photo")
        #expect(assets.first?["contentIdentifier"] as? String == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect((assets.first?["findings"] as? [Any])?.isEmpty == true)
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["assets": 1, "files": 0, "error": 0, "warning": 0, "info": 0])
    }

    @Test("validate on halves whose identifiers differ exits 1 with identifier-mismatch")
    func validateMismatch() throws {
        let workspace = try SampleVariants.Workspace()
        let photo = try workspace.copy("live/train.jpg", as: "IMG_0001.JPG")
        // The movie of another Live Photo, under the still's name: same stem, different identifier.
        let movie = try workspace.copy("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov", as: "IMG_0001.MOV")
        let run = try LivePairBinary.run(["validate", "--json", workspace.url.path])
        #expect(run.status == 1)
        let object = try LivePairBinary.json(run.output)
        let assets = try #require(object["assets"] as? [[String: Any]])
        let findings = assets.flatMap { $0["findings"] as? [[String: Any]] ?? [] }
        let mismatch = try #require(findings.first { $0["code"] as? String == "identifier-mismatch" })
        #expect(mismatch["severity"] as? String == "error")
        #expect([photo, movie].contains(mismatch["path"] as? String ?? ""))
        #expect(!(mismatch["hint"] as? String ?? "").isEmpty)
        #expect(assets.contains { $0["status"] as? String == "invalid" })
    }

    @Test("validate over all samples: exit 1, the pinned counts, and --severity filters what is shown")
    func validateAllSamples() throws {
        let all = try LivePairBinary.run(["validate", "--json", SampleMedia.path("")])
        #expect(all.status == 1)
        let summary = try #require(try LivePairBinary.json(all.output)["summary"] as? [String: Int])
        #expect(summary["error"] == 4 && summary["warning"] == 7 && summary["info"] == 6)

        let errorsOnly = try LivePairBinary.run(["validate", "--json", "--severity", "error", SampleMedia.path("")])
        #expect(errorsOnly.status == 1)
        let object = try LivePairBinary.json(errorsOnly.output)
        let assets = object["assets"] as? [[String: Any]] ?? [], files = object["files"] as? [[String: Any]] ?? []
        let shown = (assets + files).flatMap { $0["findings"] as? [[String: Any]] ?? [] }
        #expect(shown.count == 4)
        #expect(shown.allSatisfy { $0["severity"] as? String == "error" })
        #expect(Set(shown.compactMap { $0["code"] as? String }) == ["corrupt-file", "motion-photo-video-missing"])
        // The summary still counts everything that was found.
        #expect((object["summary"] as? [String: Int])?["warning"] == 7)
    }

    @Test("the readable validate report marks severities and ends with a summary line")
    func validateText() throws {
        let run = try LivePairBinary.run(["validate", SampleMedia.path("live/IMG_1853.HEIC")])
        #expect(run.status == 0)
        #expect(run.output.contains("WARNING [missing-pair-video]"))
        #expect(run.output.contains("fix: "))
        #expect(run.output.hasSuffix("1 asset (0 valid, 1 with warnings, 0 invalid), 0 other files; 0 errors, 1 warning, 0 info\n"))
    }

    @Test("--severity shows only what has a finding at that level, never changing a verdict or the summary, text and JSON")
    func severityKeepsVerdict() throws {
        let still = SampleMedia.path("live/IMG_1853.HEIC")
        let json = try LivePairBinary.run(["validate", "--json", "--severity", "error", still])
        #expect(json.status == 0)
        let object = try LivePairBinary.json(json.output)
        #expect((object["assets"] as? [Any])?.isEmpty == true)
        #expect(object["summary"] as? [String: Int] == ["assets": 1, "files": 0, "error": 0, "warning": 1, "info": 0])
        let warnings = try LivePairBinary.json(try LivePairBinary.run(["validate", "--json", "--severity", "warning", still]).output)
        let asset = try #require((warnings["assets"] as? [[String: Any]])?.first)
        #expect(asset["status"] as? String == "warning")
        #expect((asset["findings"] as? [[String: Any]])?.compactMap { $0["code"] as? String } == ["missing-pair-video"])

        let text = try LivePairBinary.run(["validate", "--severity", "error", still])
        #expect(text.status == 0)
        #expect(text.output == "1 asset (0 valid, 1 with warnings, 0 invalid), 0 other files; 0 errors, 1 warning, 0 info\n")

        // Over every sample: only the invalid assets and the files with an error are shown, with
        // their verdicts; the summary is that of the whole report.
        let all = try LivePairBinary.json(try LivePairBinary.run(["validate", "--json", SampleMedia.path("")]).output)
        let errors = try LivePairBinary.json(try LivePairBinary.run(["validate", "--json", "--severity", "error", SampleMedia.path("")]).output)
        #expect(errors["summary"] as? [String: Int] == all["summary"] as? [String: Int])
        let allAssets = all["assets"] as? [[String: Any]] ?? [], shownAssets = errors["assets"] as? [[String: Any]] ?? []
        #expect(shownAssets.map { $0["photo"] as? String } == allAssets.filter { $0["status"] as? String == "invalid" }.map { $0["photo"] as? String })
        #expect(!shownAssets.isEmpty && shownAssets.allSatisfy { $0["status"] as? String == "invalid" })
        let shownFiles = errors["files"] as? [[String: Any]] ?? []
        #expect(shownFiles.allSatisfy { file in
            let findings = file["findings"] as? [[String: Any]] ?? []
            return !findings.isEmpty && findings.allSatisfy { $0["severity"] as? String == "error" }
        })
        let filesWithErrors = (all["files"] as? [[String: Any]] ?? []).filter { file in
            (file["findings"] as? [[String: Any]] ?? []).contains { $0["severity"] as? String == "error" }
        }
        #expect(shownFiles.map { $0["path"] as? String } == filesWithErrors.map { $0["path"] as? String })
    }

    @Test("inspect, pair and validate on folders without a photo or movie: said on standard error, exit 66")
    func noMedia() throws {
        let workspace = try SampleVariants.Workspace()
        let empty = workspace.url.appendingPathComponent("empty").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try workspace.write(Array("notes\n".utf8), as: "notes/README.txt")
        try workspace.write(Array("{}".utf8), as: "notes/IMG_0001.json")
        let notes = workspace.url.appendingPathComponent("notes").path
        for command in ["inspect", "pair", "validate"] {
            let none = try LivePairBinary.run([command, empty])
            #expect(none.status == 66, "\(command)")
            #expect(none.error == "Error: no photos or movies in \(empty) (0 files found)\n", "\(command)")
            let json = try LivePairBinary.run([command, "--json", notes, empty])
            #expect(json.status == 66, "\(command)")
            #expect(json.error == "Error: no photos or movies in \(notes), \(empty) (2 files found)\n", "\(command)")
            // A missing path is a failure first.
            #expect(try LivePairBinary.run([command, empty, empty + "/nothing"]).status == 1, "\(command)")
            // One photo is enough.
            let one = try LivePairBinary.run([command, notes, SampleMedia.path("plain/pixel_8.jpg")])
            #expect(one.status == 0 && one.error.isEmpty, "\(command): \(one.error)")
        }
        let inspected = try LivePairBinary.run(["inspect", "--json", notes])
        #expect((try JSONSerialization.jsonObject(with: Data(inspected.output.utf8)) as? [Any])?.count == 2)
    }

    @Test("usage errors exit 64")
    func usage() throws {
        #expect(try LivePairBinary.run(["validate", "--severity", "loud", SampleMedia.path("live")]).status == 64)
        #expect(try LivePairBinary.run(["pair"]).status == 64)
        #expect(try LivePairBinary.run(["pair", "--deep", "x"]).status == 64)
        let help = try LivePairBinary.run(["validate", "--help"])
        #expect(help.status == 0 && help.output.contains("--severity <level>"))
    }

    @Test("--match-names pairs halves without identifiers only when asked, and marks the pair weak")
    func matchNames() throws {
        let workspace = try SampleVariants.Workspace()
        // A plain movie and a plain HEIC renamed to share its stem; their capture dates are years apart,
        // so even with --match-names they stay apart under the 3-second tolerance.
        try workspace.copy("plain/IMG_3539.MOV", as: "IMG_3539.MOV")
        try workspace.copy("plain/IMG_2682.heic", as: "IMG_3539.HEIC")
        for arguments in [["pair", "--json", workspace.url.path], ["pair", "--json", "--match-names", workspace.url.path]] {
            let run = try LivePairBinary.run(arguments)
            #expect(run.status == 0)
            #expect((try LivePairBinary.json(run.output)["pairs"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("progress is drawn on a terminal and erased at the end")
    func progress() {
        let capture = CapturedOutput()
        let reporter = ProgressReporter(streams: capture.streams(errorIsTerminal: true), label: "Checking", total: 3, minimumTotal: 1)
        for _ in 0..<3 { reporter.advance() }
        reporter.finish()
        #expect(capture.error.contains("\rChecking [" + String(repeating: "#", count: 30) + "]  3/3 files  100%"))
        #expect(capture.error.hasSuffix("\r\u{1B}[K"))
        let quiet = CapturedOutput()
        let silent = ProgressReporter(streams: quiet.streams(errorIsTerminal: false), label: "Checking", total: 3, minimumTotal: 1)
        silent.advance()
        silent.finish()
        #expect(quiet.error.isEmpty)
    }
}
