import Foundation
import TestSupport
import Testing

@Suite("livepair make, restamp and convert, end to end through the executable")
struct PackagingCommandTests {
    @Test("make --json prints the identifier and the written paths")
    func makeJSON() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("out").path
        let identifier = "A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D"
        let run = try LivePairBinary.run([
            "make", "--photo", SampleMedia.path("live/IMG_3582.HEIC"), "--video", SampleMedia.path("live/IMG_3582.mov"),
            "--identifier", identifier, "--still-time", "1.2", "--output", output, "--json",
        ])
        #expect(run.status == 0, "\(run.error)")
        let json = try LivePairBinary.json(run.output)
        #expect(json["schemaVersion"] as? Int == 1)
        #expect(json["operation"] as? String == "make")
        #expect(json["contentIdentifier"] as? String == identifier)
        #expect((json["photo"] as? [String: Any])?["path"] as? String == output + "/IMG_3582.HEIC")
        #expect((json["video"] as? [String: Any])?["path"] as? String == output + "/IMG_3582.MOV")
        #expect((json["video"] as? [String: Any])?["handling"] as? String == "metadata-only")
        let stillTime = try #require(json["stillImageTime"] as? Double)
        #expect(abs(stillTime - 1.2) < 0.05)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == ["IMG_3582.HEIC", "IMG_3582.MOV"])

        // The same again fails (outputs exist), exit 1, nothing changed; --overwrite replaces.
        let again = try LivePairBinary.run([
            "make", "--photo", SampleMedia.path("live/IMG_3582.HEIC"), "--video", SampleMedia.path("live/IMG_3582.mov"),
            "--output", output, "--json",
        ])
        #expect(again.status == 1)
        #expect(((try LivePairBinary.json(again.output))["error"] as? [String: Any])?["code"] as? String == "output-exists")
    }

    @Test("make and convert name their outputs by one rule: <stem>.HEIC or <stem>.JPG by format, <stem>.MOV, as --help says")
    func outputNamingRule() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("out").path
        // A lower-case .jpg still and a lower-case .mov movie: both outputs in upper case.
        let make = try LivePairBinary.run([
            "make", "--photo", SampleMedia.path("plain/pixel_8.jpg"), "--video", SampleMedia.path("plain/with-gps.mov"),
            "--output", output,
        ])
        #expect(make.status == 0, "\(make.error)")
        // A lower-case .heic still, and a movie alone (the still encoded as JPEG).
        let heic = try LivePairBinary.run([
            "make", "--photo", SampleMedia.path("plain/IMG_2682.heic"), "--video", SampleMedia.path("live/train.mov"),
            "--output", output,
        ])
        #expect(heic.status == 0, "\(heic.error)")
        let alone = try LivePairBinary.run([
            "make", "--video", SampleMedia.path("plain/IMG_3539.MOV"), "--still-format", "jpeg", "--output", output,
        ])
        #expect(alone.status == 0, "\(alone.error)")
        // A Pixel motion photo: the `.MP` of its stem is dropped.
        let convert = try LivePairBinary.run([
            "convert", "--to", "live-photo", SampleMedia.path("motion/PXL_20200710_061629144.MP.jpg"), "--output", output,
        ])
        #expect(convert.status == 0, "\(convert.error)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: output).sorted() == [
                "IMG_2682.HEIC", "IMG_2682.MOV", "IMG_3539.JPG", "IMG_3539.MOV", "PXL_20200710_061629144.JPG",
                "PXL_20200710_061629144.MOV", "pixel_8.JPG", "pixel_8.MOV",
            ])
        for command in ["make", "convert"] {
            let help = try LivePairBinary.run([command, "--help"]).output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.contains("<stem>.HEIC or <stem>.JPG (by the still's format) and <stem>.MOV"), "\(command)")
        }
    }

    @Test("convert --to live-photo says what it dropped, in text and JSON")
    func convertSaysWhatIsDropped() throws {
        let workspace = try SampleVariants.Workspace()
        let pixel = SampleMedia.path("motion/PXL_20200710_061629144.MP.jpg")
        let note = "the Google maker note (23793 bytes), replaced by Apple's, which carries the identifier (Exif holds one maker note)"
        let text = try LivePairBinary.run(["convert", "--to", "live-photo", pixel, "--output", workspace.url.path + "/text"])
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output.contains("dropped: " + note))
        let json = try LivePairBinary.run(["convert", "--to", "live-photo", pixel, "--output", workspace.url.path + "/json", "--json"])
        #expect(json.status == 0, "\(json.error)")
        #expect(try LivePairBinary.json(json.output)["dropped"] as? [String] == [note])
    }

    @Test("convert --to motion-photo says that the embedded MP4 re-encodes lpcm to AAC and drops the mebx tracks")
    func convertToMotionSaysWhatIsDropped() throws {
        let workspace = try SampleVariants.Workspace()
        let run = try LivePairBinary.run([
            "convert", "--to", "motion-photo", SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov"),
            "--output", workspace.url.path + "/train.MP.jpg", "--json",
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(try LivePairBinary.json(run.output)["dropped"] as? [String] == [
            "the movie's lpcm audio, re-encoded to AAC in the embedded MP4 (Android's players do not read QuickTime sound in an MP4)",
            "the movie's timed-metadata track (mebx: com.apple.quicktime.live-photo-info), which Android's readers skip",
            "the movie's timed-metadata track (mebx: com.apple.quicktime.still-image-time), which Android's readers skip; "
                + "the still-image time is kept in the XMP (LivePair:StillImageTime)",
        ])
    }

    @Test("restamp --in-place and convert both ways")
    func restampAndConvert() throws {
        let workspace = try SampleVariants.Workspace()
        let photo = try workspace.copy("live/train.jpg", as: "train.jpg")
        let video = try workspace.copy("live/train.mov", as: "train.mov")
        let restamp = try LivePairBinary.run(["restamp", photo, video, "--in-place", "--json"])
        #expect(restamp.status == 0, "\(restamp.error)")
        let identifier = try #require(try LivePairBinary.json(restamp.output)["contentIdentifier"] as? String)
        #expect(identifier != "0B2E4B5E-4F5B-4AA6-8F51-1A2E4D0E6E0B")
        let motion = workspace.url.appendingPathComponent("motion/train.MP.jpg").path
        let toMotion = try LivePairBinary.run(["convert", "--to", "motion-photo", photo, video, "--output", motion, "--json"])
        #expect(toMotion.status == 0, "\(toMotion.error)")
        let motionJSON = try LivePairBinary.json(toMotion.output)
        #expect(motionJSON["path"] as? String == motion)
        #expect((motionJSON["videoLength"] as? Int ?? 0) > 1_000_000)
        let live = workspace.url.appendingPathComponent("live").path
        let toLive = try LivePairBinary.run(["convert", "--to", "live-photo", motion, "--output", live, "--identifier", identifier])
        #expect(toLive.status == 0, "\(toLive.error)")
        #expect(toLive.output.contains("identifier: \(identifier)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: live).sorted() == ["train.JPG", "train.MOV"])
        // Without --identifier the Live Photo keeps the identifier the motion photo carries;
        // --new-identifier gives a new one.
        let kept = try LivePairBinary.run(["convert", "--to", "live-photo", motion, "--output", live + "-kept", "--json"])
        #expect(kept.status == 0, "\(kept.error)")
        #expect(try LivePairBinary.json(kept.output)["contentIdentifier"] as? String == identifier)
        let renewed = try LivePairBinary.run([
            "convert", "--to", "live-photo", motion, "--output", live + "-new", "--new-identifier", "--json",
        ])
        #expect(renewed.status == 0, "\(renewed.error)")
        let newIdentifier = try #require(try LivePairBinary.json(renewed.output)["contentIdentifier"] as? String)
        #expect(newIdentifier != identifier && newIdentifier.count == 36)
        #expect(
            try LivePairBinary.run([
                "convert", "--to", "live-photo", motion, "--output", live + "-both", "--new-identifier", "--identifier", identifier,
            ]).status == 64)

        // Usage errors exit 64.
        #expect(try LivePairBinary.run(["convert", "--to", "gif", photo, "--output", live]).status == 64)
        #expect(try LivePairBinary.run(["restamp", photo, video]).status == 64)
        #expect(try LivePairBinary.run(["make", "--photo", photo, "--output", live]).status == 64)
    }

    @Test("make and convert of a movie whose audio stsc claims 0xFFFFFFFF samples: exit 1, the finding, nothing written")
    func damagedMovieRefused() throws {
        let workspace = try SampleVariants.Workspace()
        var movie = try SampleMedia.bytes("live/train.mov")
        let audio = try #require(SampleVariants.track(handler: "soun", in: movie))
        let stsc = try #require(SampleVariants.box(["mdia", "minf", "stbl", "stsc"], in: movie, under: audio))
        for index in 0..<4 { movie[stsc.payloadOffset + 12 + index] = 0xFF }
        let video = try workspace.write(movie, as: "damaged.mov")
        let photo = SampleMedia.path("live/train.jpg")
        let output = workspace.url.appendingPathComponent("out").path
        let text = try LivePairBinary.run(["make", "--photo", photo, "--video", video, "--output", output])
        #expect(text.status == 1 && text.output.isEmpty)
        #expect(text.error.hasPrefix("Error: damaged.mov is a damaged QuickTime movie file: movie: track 2 (soun): chunk 1 claims"))
        #expect(text.error.contains("\n  error: sample-table-out-of-file: damaged.mov is a damaged QuickTime movie file"))
        let runs = [
            try LivePairBinary.run(["make", "--video", video, "--output", output, "--json"]),
            try LivePairBinary.run(["convert", "--to", "motion-photo", photo, video, "--output", output + "/train.jpg", "--json"]),
        ]
        for run in runs {
            #expect(run.status == 1)
            let json = try LivePairBinary.json(run.output)
            #expect((json["error"] as? [String: Any])?["code"] as? String == "damaged-input")
            let findings = try #require(json["findings"] as? [[String: Any]])
            #expect(findings.map { $0["code"] as? String } == ["sample-table-out-of-file"])
        }
        #expect(!FileManager.default.fileExists(atPath: output), "a refused run leaves no output folder")
    }
}
