import Foundation
@testable import LivePair
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// What `convert --to motion-photo` and `make` check in their inputs before writing.
@Suite("Packaging input checks: mismatched halves, misleading names, transparent stills")
struct PackagingInputChecksTests {
    @Test("convert --to motion-photo refuses halves whose identifiers differ (identifier-mismatch), writing nothing")
    func mismatchedHalves() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("m.heic").path
        #expect {
            _ = try MotionPhotoConverter().motionPhoto(
                photo: SampleMedia.path("live/IMG_4580.HEIC"), video: SampleMedia.path("live/train.mov"), output: output)
        } throws: { error in
            guard let error = error as? PackagingError, case let .mismatchedHalves(findings) = error else { return false }
            return error.code == "identifier-mismatch" && findings.map(\.code) == [.identifierMismatch]
                && error.message.contains("4E1A1B89-CE70-4FF8-873B-E4470B839314")
                && error.message.contains("E905E6C6-C747-4805-942F-9904A0281F02")
        }
        #expect(PackagingOracle.listing(workspace.url.path) == [])
        // The command line: exit 1, the code and both identifiers on stderr.
        let run = try LivePairBinary.run([
            "convert", "--to", "motion-photo", SampleMedia.path("live/IMG_4580.HEIC"), SampleMedia.path("live/train.mov"),
            "--output", output,
        ])
        #expect(run.status == 1)
        #expect(run.error.contains("E905E6C6-C747-4805-942F-9904A0281F02"), "\(run.error)")
        #expect(PackagingOracle.listing(workspace.url.path) == [])
        let json = try LivePairBinary.run([
            "convert", "--to", "motion-photo", SampleMedia.path("live/IMG_4580.HEIC"), SampleMedia.path("live/train.mov"),
            "--output", output, "--json",
        ])
        let object = try LivePairBinary.json(json.output)
        #expect(json.status == 1 && (object["error"] as? [String: Any])?["code"] as? String == "identifier-mismatch")
        #expect((object["findings"] as? [[String: Any]])?.compactMap { $0["code"] as? String } == ["identifier-mismatch"])
        // make joins the same halves under a fresh identifier (its purpose) with the cross-half warnings.
        let made = try LivePhotoPackager().make(
            photo: SampleMedia.path("live/IMG_4580.HEIC"), video: SampleMedia.path("live/train.mov"),
            outputDirectory: workspace.url.appendingPathComponent("made").path)
        #expect(made.findings.map(\.code).contains(.orientationMismatch))
    }

    @Test("a HEIC motion photo under a .jpg name is refused with a typed error, writing nothing")
    func heicNamedJPEG() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("m.jpg").path
        #expect {
            _ = try MotionPhotoConverter().motionPhoto(
                photo: SampleMedia.path("live/IMG_4580.HEIC"), video: SampleMedia.path("live/IMG_4580.mov"), output: output)
        } throws: { error in
            guard let error = error as? PackagingError, case let .invalidArgument(text) = error else { return false }
            return text.hasSuffix("is named .jpg but the motion photo would hold HEIC data (the still is HEIC): name it .heic")
        }
        #expect(PackagingOracle.listing(workspace.url.path) == [])
        // Named .heic it is written.
        let good = workspace.url.appendingPathComponent("m.heic").path
        _ = try MotionPhotoConverter().motionPhoto(
            photo: SampleMedia.path("live/IMG_4580.HEIC"), video: SampleMedia.path("live/IMG_4580.mov"), output: good)
        #expect(ResourceIdentifier().identify(path: good).role == .motionPhoto)
    }

    @Test("a transparent PNG still is composited onto white, not flattened to its hidden colour", arguments: [
        (0.0, [255, 255, 255]), (0.5, [255, 128, 128]),
    ])
    func pngAlphaOnWhite(opacity: Double, expected: [Int]) throws {
        let workspace = try SampleVariants.Workspace()
        let png = workspace.url.appendingPathComponent("red.png").path
        try ReferenceTool.ffmpegTool("ffmpeg", [
            "-f", "lavfi", "-i", "color=c=red@\(opacity):s=64x48,format=rgba", "-frames:v", "1", "-y", png,
        ])
        var options = PackagingOptions()
        options.stillEncoding = .jpeg
        let made = try LivePhotoPackager(options: options).make(
            photo: png, video: SampleMedia.path("live/train.mov"), outputDirectory: workspace.url.appendingPathComponent("out").path)
        let still = try PackagingOracle.decodedStill(made.photoPath)
        let offset = (still.height / 2) * still.bytesPerRow + (still.width / 2) * 4
        let pixel = (0..<3).map { Int(still.storage[offset + $0]) }
        for channel in 0..<3 { #expect(abs(pixel[channel] - expected[channel]) <= 4, "pixel \(pixel), expected \(expected)") }
    }
}
