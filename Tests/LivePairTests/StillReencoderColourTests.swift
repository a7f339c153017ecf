import Foundation
@testable import LivePair
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// `StillReencoder.jpeg` (`library export --still jpeg`): the JPEG made from a HEIC still carries
/// the HEIC's colour (its ICC profile, or a profile built from its `nclx` code points) and its Exif.
@Suite("StillReencoder: a HEIC re-encoded as JPEG keeps its colour profile and Exif")
struct StillReencoderColourTests {
    /// exiftool's values (`-n -s3`) of `tags` in `path`, one per line.
    static func exiftool(_ path: String, _ tags: [String]) throws -> [String] {
        try ReferenceTool.run("exiftool", ["-n", "-s3"] + tags.map { "-" + $0 } + [path]).split(separator: "\n").map(String.init)
    }

    /// The ICC profile exiftool extracts from `path` (`-b -ICC_Profile`).
    static func exiftoolProfile(_ path: String) throws -> [UInt8] {
        [UInt8](try ReferenceTool.execute("exiftool", ["-b", "-ICC_Profile", path]).output)
    }

    @Test("an iPhone HEIC's Display P3 profile (colr prof) goes into the JPEG byte for byte, with the Exif (ColorSpace, make, maker note)")
    func iccProfileCarried() throws {
        let workspace = try SampleVariants.Workspace()
        let source = SampleMedia.path("live/IMG_2927.HEIC")
        let output = workspace.url.appendingPathComponent("IMG_2927.JPG").path
        try StillReencoder.jpeg(fromStillAt: source, to: output)
        let file = try HEIFFile(source: try FileByteSource(path: source))
        let primary = try #require(file.meta.primaryItemID)
        let heicProfile = try #require(file.meta.properties(of: primary).compactMap { property -> [UInt8]? in
            if case let .colour(.icc(type, profile)) = property, type == "prof" { return profile }
            return nil
        }.first)
        #expect(heicProfile.count == 548)
        #expect(try Self.exiftoolProfile(output) == heicProfile)
        #expect(try Self.exiftool(output, ["ProfileDescription", "ColorSpace", "Make", "Orientation"])
            == ["Display P3", "65535", "Apple", "1"])
        #expect(ResourceIdentifier().identify(path: output).contentIdentifier
            == ResourceIdentifier().identify(path: source).contentIdentifier)
        #expect(StillColourProfile.iccProfile(ofStillAt: output) == heicProfile)
    }

    @Test("a HEIC declaring nclx 12/1/6 (made from a Display P3 movie) gives a JPEG with the Display P3 profile LivePair builds")
    func nclxProfileBuilt() throws {
        let workspace = try SampleVariants.Workspace()
        let made = try LivePhotoPackager().make(
            video: SampleMedia.path("live/IMG_3582.mov"), outputDirectory: workspace.url.appendingPathComponent("made").path)
        let file = try HEIFFile(source: try FileByteSource(path: made.photoPath))
        let primary = try #require(file.meta.primaryItemID)
        #expect(file.meta.properties(of: primary).contains {
            $0 == .colour(.nclx(colourPrimaries: 12, transferCharacteristics: 1, matrixCoefficients: 6, fullRange: true))
        })
        let output = workspace.url.appendingPathComponent("still.jpg").path
        try StillReencoder.jpeg(fromStillAt: made.photoPath, to: output)
        let built = try #require(ICCDisplayProfile.profile(for: ColourDescription(
            colourPrimaries: 12, transferCharacteristics: 1, matrixCoefficients: 6, fullRange: true)))
        #expect(try Self.exiftoolProfile(output) == built)
        #expect(try Self.exiftool(output, ["ProfileDescription", "ColorSpace"]) == ["Display P3 (BT.709 transfer)", "65535"])
    }

    @Test("a HEIC with no colr box gives an untagged JPEG (no ICC profile); a JPEG's own profile is read back whole")
    func untaggedAndJPEG() throws {
        let workspace = try SampleVariants.Workspace()
        let source = SampleMedia.path("motion/samsung-one-ui-6.heic")
        #expect(StillColourProfile.iccProfile(ofStillAt: source) == nil)
        let output = workspace.url.appendingPathComponent("samsung.jpg").path
        try StillReencoder.jpeg(fromStillAt: source, to: output)
        #expect(try Self.exiftool(output, ["ProfileDescription"]) == [])
        let pixel = SampleMedia.path("plain/pixel_8.jpg")
        #expect(StillColourProfile.iccProfile(ofStillAt: pixel) == (try Self.exiftoolProfile(pixel)))
        #expect(try Self.exiftool(pixel, ["ProfileDescription"]) == ["Display P3"])
    }
}
