import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

/// Every identifier in a written file is the new one: no old value survives where another reader looks.
@Suite("Packaging fidelity: one identifier per file")
struct PackagingIdentifierFidelityTests {
    static let identifier = "0E5A2C44-9B1D-4F3A-8C7E-2D6B1A9F0C35"

    /// IMG_3582.mov re-muxed by ffmpeg with its metadata in `moov/udta/meta` (`use_metadata_tags`)
    /// and the identifier `OLD-ID-1` there.
    static func userDataMovie(in workspace: SampleVariants.Workspace) throws -> String {
        let path = workspace.url.appendingPathComponent("udta.mov").path
        _ = try ReferenceTool.run("ffmpeg", [
            "-v", "error", "-i", SampleMedia.path("live/IMG_3582.mov"), "-map", "0:v", "-c", "copy",
            "-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.content.identifier=OLD-ID-1", path,
        ])
        return path
    }

    /// ffprobe's `com.apple.quicktime.content.identifier` format tag.
    static func ffprobeIdentifier(_ path: String) throws -> String {
        try ReferenceTool.run("ffprobe", [
            "-v", "error", "-show_entries", "format_tags=com.apple.quicktime.content.identifier", "-of", "csv=p=0", path,
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("restamp replaces the identifier in moov/udta/meta too: ffprobe and exiftool report the new one")
    func restampReplacesUserDataIdentifier() throws {
        let workspace = try SampleVariants.Workspace()
        let video = try Self.userDataMovie(in: workspace)
        #expect(try Self.ffprobeIdentifier(video) == "OLD-ID-1")
        let result = try LivePhotoPackager().restamp(
            photo: SampleMedia.path("live/IMG_3582.HEIC"), video: video,
            outputDirectory: workspace.url.appendingPathComponent("out").path, contentIdentifier: Self.identifier)
        #expect(try Self.ffprobeIdentifier(result.videoPath) == Self.identifier)
        #expect(try PackagingOracle.exiftoolIdentifier(result.videoPath) == Self.identifier)
        let identity = ResourceIdentifier().identify(path: result.videoPath)
        #expect(identity.contentIdentifier?.rawValue == Self.identifier)
        #expect(identity.conflictingContentIdentifiers.isEmpty)
        #expect(!result.findings.contains { $0.code == .conflictingContentIdentifiers })
    }

    /// ffprobe's format tags of `path`.
    static func ffprobeTags(_ path: String) throws -> [String: String] {
        let output = try ReferenceTool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "flat=s=_", path])
        var tags: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].replacingOccurrences(of: "format_tags_", with: "")
            tags[key] = String(line[line.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return tags
    }

    @Test("every output of a movie with ffmpeg's udta keys shows ffprobe the identifier, not a misnamed value")
    func userDataKeysMergedForFFmpeg() throws {
        guard ReferenceTool.isInstalled("ffmpeg") else { return }
        let workspace = try SampleVariants.Workspace()
        // train.mov's video with only ffmpeg's own keys in udta/meta (no identifier anywhere), and
        // IMG_3582.mov with Apple's keys moved there and the identifier OLD-ID-1.
        let plain = workspace.url.appendingPathComponent("plain.mov").path
        _ = try ReferenceTool.run("ffmpeg", [
            "-v", "error", "-i", SampleMedia.path("live/train.mov"), "-map", "0:v", "-c", "copy", "-map_metadata", "-1",
            "-movflags", "use_metadata_tags", "-metadata", "title=hello", plain,
        ])
        let apple = try Self.userDataMovie(in: workspace)
        #expect(try Self.ffprobeTags(plain)["title"] == "hello")
        let out = { (name: String) in workspace.url.appendingPathComponent(name).path }
        var movies: [(path: String, identifier: String, title: String?)] = []
        for (index, input) in [plain, apple].enumerated() {
            let photo = SampleMedia.path(index == 0 ? "live/train.jpg" : "live/IMG_3582.HEIC")
            let made = try LivePhotoPackager().make(photo: photo, video: input, outputDirectory: out("made\(index)"))
            let fromMovie = try LivePhotoPackager().make(video: input, outputDirectory: out("movie\(index)"))
            let restamped = try LivePhotoPackager().restamp(
                photo: photo, video: input, outputDirectory: out("restamped\(index)"), contentIdentifier: Self.identifier)
            let motion = try MotionPhotoConverter().motionPhoto(
                photo: made.photoPath, video: made.videoPath, output: out("motion\(index).\(index == 0 ? "jpg" : "heic")"))
            let embedded = try PackagingConversionTests.embeddedVideo(motion.path, workspace: workspace, name: "embedded\(index).mp4")
            let back = try MotionPhotoConverter().livePhoto(motionPhoto: motion.path, outputDirectory: out("back\(index)"))
            let title = index == 0 ? "hello" : nil
            movies += [
                (made.videoPath, made.contentIdentifier, title), (fromMovie.videoPath, fromMovie.contentIdentifier, title),
                (restamped.videoPath, Self.identifier, title), (embedded, made.contentIdentifier, title),
                (back.videoPath, made.contentIdentifier, title),
            ]
        }
        for (path, identifier, title) in movies {
            let tags = try Self.ffprobeTags(path)
            #expect(tags["com_apple_quicktime_content_identifier"] == identifier, "\(path): \(tags)")
            #expect(!tags.values.contains { $0 == identifier && tags["com_apple_quicktime_content_identifier"] != $0 })
            #expect(tags["major_brand"] != identifier, "\(path): the identifier is read as major_brand")
            #expect(tags["title"] == title, "\(path): ffmpeg's title is lost")
            #expect(try PackagingOracle.exiftoolIdentifier(path) == identifier)
            let identity = ResourceIdentifier().identify(path: path)
            #expect(identity.contentIdentifier?.rawValue == identifier)
            #expect(identity.conflictingContentIdentifiers.isEmpty)
        }
    }

    @Test("the validator flags a movie whose moov/meta and moov/udta/meta identifiers differ")
    func validatorFlagsTwoIdentifiers() throws {
        let workspace = try SampleVariants.Workspace()
        let bytes = Array(try #require(FileManager.default.contents(atPath: try Self.userDataMovie(in: workspace))))
        // What a writer that only knows moov/meta leaves: the new identifier there, the old one in udta.
        let moovBox = try #require(SampleVariants.boxes(in: bytes).last { $0.type == "moov" })
        #expect(moovBox.end == bytes.count)
        var moov = try #require(try BoxNode.parseAll(Array(bytes[moovBox.offset...])).first)
        try MovieMetadataWriter.set([.contentIdentifier(Self.identifier)], in: &moov)
        let path = try workspace.write(Array(bytes[..<moovBox.offset]) + moov.serialized(), as: "two.mov")
        let identity = ResourceIdentifier().identify(path: path)
        #expect(identity.contentIdentifier?.rawValue == Self.identifier)
        #expect(identity.conflictingContentIdentifiers.map(\.rawValue) == ["OLD-ID-1"])
        let report = Validator().validate(paths: [path])
        #expect(report.allFindings.contains { $0.code == .conflictingContentIdentifiers && $0.severity == .error })
    }

    @Test("three HEIC restamps in place do not grow the still; exiftool sees only the newest identifier", arguments: [
        "live/IMG_3582.HEIC", "plain/IMG_2682.heic",
    ])
    func repeatedRestampsKeepSize(still: String) throws {
        let workspace = try SampleVariants.Workspace()
        let photo = try workspace.copy(still, as: "pair/IMG.HEIC")
        let video = try workspace.copy("live/IMG_3582.mov", as: "pair/IMG.mov")
        var sizes: [Int] = []
        var identifiers: [String] = []
        for _ in 0..<4 {
            let result = try LivePhotoPackager().restamp(photo: photo, video: video, outputDirectory: nil)
            identifiers.append(result.contentIdentifier)
            sizes.append(try #require(PackagingOracle.contents(photo)).count)
        }
        // The first run may add a maker note; the three after it reuse its space.
        #expect(Set(sizes.dropFirst()).count == 1, "\(sizes)")
        if still == "live/IMG_3582.HEIC" { #expect(sizes[0] == (try SampleMedia.bytes(still)).count) }
        let values = try ReferenceTool.run("exiftool", ["-a", "-s3", "-MakerNotes:MediaGroupUUID", photo])
            .split(separator: "\n").map(String.init)
        #expect(values == [identifiers[3]])
        let bytes = try #require(PackagingOracle.contents(photo))
        for old in identifiers.dropLast() + ["602FEBB7-6B59-4799-96E6-9C8484D873C7"] {
            #expect(bytes.range(of: Data(old.utf8)) == nil, "\(old) is still in the file")
        }
    }


    @Test("--identifier must be an RFC 4122 UUID and is written uppercase")
    func identifierChecked() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("out").path
        let (photo, video) = (SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov"))
        for bad in ["not-a-uuid", "0E5A2C44-9B1D-4F3A-8C7E-2D6B1A9F0C3", "0E5A2C44-9B1D-4F3A-CC7E-2D6B1A9F0C35", "G" + Self.identifier.dropFirst()] {
            #expect(throws: PackagingError.self) {
                try LivePhotoPackager().restamp(photo: photo, video: video, outputDirectory: output, contentIdentifier: bad)
            }
        }
        #expect(PackagingOracle.listing(workspace.url.path) == ["out"] || PackagingOracle.listing(workspace.url.path).isEmpty)
        let result = try LivePhotoPackager().restamp(
            photo: photo, video: video, outputDirectory: output, contentIdentifier: Self.identifier.lowercased())
        #expect(result.contentIdentifier == Self.identifier)
        #expect(ResourceIdentifier().identify(path: result.photoPath).contentIdentifier?.rawValue == Self.identifier)
        #expect(ResourceIdentifier().identify(path: result.videoPath).contentIdentifier?.rawValue == Self.identifier)
        let cli = try LivePairBinary.run(["restamp", photo, video, "--output", output + "2", "--identifier", "not-a-uuid"])
        #expect(cli.status == 1 && cli.error.contains("not an RFC 4122 UUID"))
    }

    @Test("a still time far past the end (1e18 s) takes the last frame, not the first")
    func farStillTimeTakesLastFrame() throws {
        let workspace = try SampleVariants.Workspace()
        let video = SampleMedia.path("live/train.mov")
        let times = try #require(try QuickTimeMovieParser().parse(try FileByteSource(path: video)).videoTrack?.presentationTimes())
        let last = try #require(times.max())
        let result = try LivePhotoPackager().restamp(
            photo: SampleMedia.path("live/train.jpg"), video: video,
            outputDirectory: workspace.url.appendingPathComponent("out").path, stillImageTime: 1e18)
        #expect(abs(result.stillImageTime - last) < 0.001)
        let identity = ResourceIdentifier().identify(path: result.videoPath)
        #expect(abs((identity.stillImageTime ?? -1) - last) < 0.001)
    }

    @Test("a Live Photo still from a Samsung HEIC motion photo keeps no motion-photo XMP bytes", arguments: [
        "motion/samsung-one-ui-6.heic", "motion/photo-sg22-ultra.heic",
    ])
    func samsungStillDropsXMPBytes(file: String) throws {
        let workspace = try SampleVariants.Workspace()
        let input = try #require(PackagingOracle.contents(SampleMedia.path(file)))
        #expect(input.range(of: Data("MotionPhoto".utf8)) != nil)
        let result = try MotionPhotoConverter().livePhoto(
            motionPhoto: SampleMedia.path(file), outputDirectory: workspace.url.appendingPathComponent("out").path)
        let still = try #require(PackagingOracle.contents(result.photoPath))
        #expect(still.range(of: Data("MotionPhoto".utf8)) == nil)
        #expect(still.range(of: Data("GCamera".utf8)) == nil)
        #expect(ResourceIdentifier().identify(path: result.photoPath).role == .livePhotoStill)
    }

}
