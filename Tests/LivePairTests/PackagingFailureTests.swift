import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

@Suite("Packaging failures leave nothing behind and the inputs intact")
struct PackagingFailureTests {
    @Test("a write that fails part-way leaves no output", arguments: [0, 4_096, 600_000, 2_000_000])
    func interruptedWrite(limit: UInt64) throws {
        let workspace = try SampleVariants.Workspace()
        let photo = try workspace.copy("live/IMG_4580.HEIC", as: "in/IMG_4580.HEIC")
        let video = try workspace.copy("live/IMG_4580.mov", as: "in/IMG_4580.mov")
        let photoBytes = PackagingOracle.contents(photo), videoBytes = PackagingOracle.contents(video)
        let output = workspace.url.appendingPathComponent("out/nested").path
        var options = PackagingOptions()
        options.interposeSink = { FailingSink($0, failAfter: limit) }
        #expect(throws: PackagingError.self) {
            try LivePhotoPackager(options: options).make(photo: photo, video: video, outputDirectory: output)
        }
        // The folders the failed run made are gone too, not left empty.
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("out").path))
        // A folder that was there before stays, with what it held.
        let existing = workspace.url.appendingPathComponent("kept").path
        try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: true)
        try Data("note".utf8).write(to: URL(fileURLWithPath: existing + "/note.txt"))
        #expect(throws: PackagingError.self) {
            try LivePhotoPackager(options: options).make(photo: photo, video: video, outputDirectory: existing)
        }
        #expect(PackagingOracle.listing(existing) == ["note.txt"])
        // In place: the originals stay exactly as they were.
        #expect(throws: PackagingError.self) {
            try LivePhotoPackager(options: options).restamp(photo: photo, video: video, outputDirectory: nil)
        }
        #expect(PackagingOracle.contents(photo) == photoBytes && PackagingOracle.contents(video) == videoBytes)
        #expect(PackagingOracle.listing(workspace.url.appendingPathComponent("in").path) == ["IMG_4580.HEIC", "IMG_4580.mov"])
    }

    @Test("existing outputs are not replaced without overwrite")
    func existingOutput() throws {
        let workspace = try SampleVariants.Workspace()
        let existing = try workspace.write(Array("keep me".utf8), as: "out/train.MOV")
        #expect(throws: PackagingError.outputExists(path: existing)) {
            try LivePhotoPackager().make(
                photo: SampleMedia.path("live/train.jpg"), video: SampleMedia.path("live/train.mov"),
                outputDirectory: workspace.url.appendingPathComponent("out").path)
        }
        #expect(PackagingOracle.contents(existing) == Data("keep me".utf8))
        #expect(PackagingOracle.listing(workspace.url.appendingPathComponent("out").path) == ["train.MOV"])
        var options = PackagingOptions()
        options.overwrite = true
        let result = try LivePhotoPackager(options: options).make(
            photo: SampleMedia.path("live/train.jpg"), video: SampleMedia.path("live/train.mov"),
            outputDirectory: workspace.url.appendingPathComponent("out").path)
        #expect(ResourceIdentifier().identify(path: result.videoPath).contentIdentifier?.rawValue == result.contentIdentifier)
    }

    @Test("wrong inputs are typed errors")
    func wrongInputs() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("out").path
        let packager = LivePhotoPackager()
        // A movie given as the still, a still given as the movie.
        #expect(throws: PackagingError.unsupportedStill(path: SampleMedia.path("live/train.mov"), format: "mov")) {
            try packager.make(photo: SampleMedia.path("live/train.mov"), video: SampleMedia.path("live/train.mov"), outputDirectory: output)
        }
        #expect(throws: PackagingError.unsupportedVideo(path: SampleMedia.path("live/train.jpg"), reason: "a jpeg still is not a movie")) {
            try packager.make(photo: SampleMedia.path("live/train.jpg"), video: SampleMedia.path("live/train.jpg"), outputDirectory: output)
        }
        // A truncated movie.
        let movie = try SampleMedia.bytes("live/train.mov")
        let truncated = try workspace.write(Array(movie.prefix(movie.count / 2)), as: "truncated.mov")
        #expect(throws: PackagingError.self) {
            try packager.make(photo: SampleMedia.path("live/train.jpg"), video: truncated, outputDirectory: output)
        }
        // A missing file, an identifier that is not printable ASCII.
        #expect(throws: PackagingError.self) {
            try packager.make(photo: "/nonexistent/a.jpg", video: SampleMedia.path("live/train.mov"), outputDirectory: output)
        }
        #expect(throws: PackagingError.self) {
            try packager.make(
                photo: SampleMedia.path("live/train.jpg"), video: SampleMedia.path("live/train.mov"), outputDirectory: output,
                contentIdentifier: "bad\u{0}id")
        }
        #expect(PackagingOracle.listing(output).isEmpty)
    }
}

@Suite("Packaging output validation")
struct PackagingOutputValidationTests {
    @Test("staged halves that do not make one Live Photo fail with the validator's findings, named by their destinations")
    func mismatchedHalvesFail() throws {
        let workspace = try SampleVariants.Workspace()
        let staged = StagedOutputs(overwrite: false)
        let photo = try staged.stage(workspace.url.appendingPathComponent("IMG_3582.HEIC").path)
        let video = try staged.stage(workspace.url.appendingPathComponent("IMG_3582.MOV").path)
        let photoBytes = try SampleMedia.bytes("live/IMG_3582.HEIC"), videoBytes = try SampleMedia.bytes("live/IMG_4580.mov")
        try staged.write(photo) { sink throws(FormatError) in try sink.write(photoBytes) }
        try staged.write(video) { sink throws(FormatError) in try sink.write(videoBytes) }
        let error = #expect(throws: PackagingError.self) {
            try OutputValidation(options: PackagingOptions()).validatePair(photo: photo, video: video, staged: staged)
        }
        var findings: [Finding] = []
        if case let .invalidOutput(found)? = error { findings = found }
        let mismatch = try #require(findings.first { $0.code == .identifierMismatch })
        #expect(mismatch.severity == .error)
        #expect(mismatch.path == workspace.url.appendingPathComponent("IMG_3582.MOV").path)
        #expect(!mismatch.message.contains(".livepair-staging-"))
        staged.discard()
        #expect(PackagingOracle.listing(workspace.url.path).isEmpty)
    }
}
