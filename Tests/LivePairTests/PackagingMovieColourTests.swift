import Foundation
@testable import LivePair
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// `make --video`: the still made from a movie's frame declares the movie's colour space, so a
/// Display P3 iPhone movie gives a Display P3 still (HEIC `colr` `nclx`, JPEG ICC profile).
@Suite("make --video: the still carries the movie's colour description")
struct PackagingMovieColourTests {
    /// ffprobe's colour fields of the first video stream: primaries, transfer, matrix, range.
    static func videoColour(_ path: String) throws -> [String] {
        let video = try #require(try ReferenceTool.ffprobeStreams(path).first { $0["codec_type"] as? String == "video" })
        return ["color_primaries", "color_transfer", "color_space", "color_range"].map { video[$0] as? String ?? "-" }
    }

    /// The primary image's `colr` boxes as LivePair's HEIF reader sees them.
    static func primaryColour(_ path: String) throws -> [HEIFColourInformation] {
        let file = try HEIFFile(source: try FileByteSource(path: path))
        let primary = try #require(file.meta.primaryItemID)
        return file.meta.properties(of: primary).compactMap {
            if case let .colour(information) = $0 { return information }
            return nil
        }
    }

    /// The 11 bytes of the `colr` box payload as exiftool dumps them (`-v3`), and its values (`-n`).
    static func exiftoolColour(_ path: String) throws -> (payload: String, values: [String]) {
        let dump = try ReferenceTool.run("exiftool", ["-v3", path]).split(separator: "\n")
        let tag = try #require(dump.firstIndex { $0.contains("Tag 'colr' (11 bytes)") }, "exiftool finds no nclx colr box")
        let payload = dump[tag + 1].split(separator: ":", maxSplits: 1)[1].prefix(34).trimmingCharacters(in: .whitespaces)
        let values = try ReferenceTool.run("exiftool", [
            "-n", "-s3", "-ColorProfiles", "-ColorPrimaries", "-TransferCharacteristics", "-MatrixCoefficients", "-ColorSpace",
            path,
        ]).split(separator: "\n").map(String.init)
        return (payload, values)
    }

    @Test("a Display P3 iPhone movie gives a HEIC still with colr nclx 12/1/6/full on its primary image")
    func displayP3HEIC() throws {
        let workspace = try SampleVariants.Workspace()
        let movie = SampleMedia.path("live/IMG_3582.mov")
        // The oracle's view of the source: P3 primaries, BT.709 transfer, BT.601 matrix, full range.
        #expect(try Self.videoColour(movie) == ["smpte432", "bt709", "smpte170m", "pc"])
        let made = try LivePhotoPackager().make(video: movie, outputDirectory: workspace.url.appendingPathComponent("out").path)
        #expect(try Self.primaryColour(made.photoPath) == [
            .nclx(colourPrimaries: 12, transferCharacteristics: 1, matrixCoefficients: 6, fullRange: true)
        ])
        let exiftool = try Self.exiftoolColour(made.photoPath)
        // "nclx", primaries 0x000c, transfer 0x0001, matrix 0x0006, full-range flag set (0x80).
        #expect(exiftool.payload == "6e 63 6c 78 00 0c 00 01 00 06 80")
        // Exif ColorSpace 65535 (uncalibrated), as Apple writes it for Display P3 stills.
        #expect(exiftool.values == ["nclx", "12", "1", "6", "65535"])
    }

    @Test("a BT.709 movie gives a HEIC still declaring BT.709 primaries and Exif sRGB, no P3 claim")
    func bt709HEIC() throws {
        let workspace = try SampleVariants.Workspace()
        let movie = SampleMedia.path("live/train.mov")
        #expect(try Self.videoColour(movie) == ["bt709", "bt709", "smpte170m", "pc"])
        let made = try LivePhotoPackager().make(video: movie, outputDirectory: workspace.url.appendingPathComponent("out").path)
        #expect(try Self.primaryColour(made.photoPath) == [
            .nclx(colourPrimaries: 1, transferCharacteristics: 1, matrixCoefficients: 6, fullRange: true)
        ])
        let exiftool = try Self.exiftoolColour(made.photoPath)
        #expect(exiftool.payload == "6e 63 6c 78 00 01 00 01 00 06 80")
        #expect(exiftool.values == ["nclx", "1", "1", "6", "1"])
    }

    @Test("a Display P3 movie gives a JPEG still with a Display P3 ICC profile (Apple's primaries, BT.709 curve)")
    func displayP3JPEG() throws {
        let workspace = try SampleVariants.Workspace()
        let movie = SampleMedia.path("live/IMG_4580.mov")
        #expect(try Self.videoColour(movie) == ["smpte432", "bt709", "smpte170m", "pc"])
        var options = PackagingOptions()
        options.stillEncoding = .jpeg
        let made = try LivePhotoPackager(options: options).make(
            video: movie, outputDirectory: workspace.url.appendingPathComponent("out").path)
        let tags = try ReferenceTool.run("exiftool", [
            "-n", "-s3", "-ProfileVersion", "-ProfileClass", "-ColorSpaceData", "-ProfileConnectionSpace",
            "-ProfileDescription", "-MediaWhitePoint", "-RedMatrixColumn", "-GreenMatrixColumn", "-BlueMatrixColumn",
            "-ColorSpace", made.photoPath,
        ]).split(separator: "\n").map(String.init)
        #expect(Array(tags.prefix(6)) == ["1072", "mntr", "RGB", "XYZ", "Display P3 (BT.709 transfer)", "0.9642 1 0.82491"])
        #expect(tags.last == "65535")
        // Apple's Display P3 profile (macOS, iOS) has these D50-adapted primaries columns.
        let apple: [[Double]] = [[0.515121, 0.241182, -0.001050], [0.291977, 0.692231, 0.041885], [0.157104, 0.066574, 0.784073]]
        for (index, column) in apple.enumerated() {
            let read = tags[6 + index].split(separator: " ").compactMap { Double($0) }
            #expect(read.count == 3 && zip(read, column).allSatisfy { abs($0 - $1) < 0.0002 }, "\(read) vs \(column)")
        }
        // The TRC: one `para` curve of type 3 holding BT.709's inverted OETF.
        let curve = [UInt8](try ReferenceTool.execute("exiftool", ["-b", "-RedTRC", made.photoPath]).output)
        #expect(curve.count == 32 && Array(curve.prefix(12)) == Array("para".utf8) + [0, 0, 0, 0, 0, 3, 0, 0])
        let parameters = stride(from: 12, to: min(curve.count, 32), by: 4).map { offset in
            Double(Int32(bitPattern: curve[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })) / 65_536
        }
        let expected = [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
        #expect(parameters.count == 5 && zip(parameters, expected).allSatisfy { abs($0 - $1) < 1e-4 }, "\(parameters)")
        #expect(try PackagingOracle.exiftoolIdentifier(made.photoPath) == made.contentIdentifier)
    }

    @Test("a movie that names no colour space gives an untagged still (no colr, no ICC, Exif sRGB)")
    func untaggedMovie() throws {
        let workspace = try SampleVariants.Workspace()
        let movie = SampleMedia.path("plain/IMG_3539.MOV")
        #expect(try Self.videoColour(movie).prefix(3) == ["-", "-", "-"])
        for encoding in [StillEncoding.heic, .jpeg] {
            var options = PackagingOptions()
            options.stillEncoding = encoding
            let made = try LivePhotoPackager(options: options).make(
                video: movie, outputDirectory: workspace.url.appendingPathComponent("\(encoding)").path)
            if encoding == .heic { #expect(try Self.primaryColour(made.photoPath).isEmpty) }
            let tags = try ReferenceTool.run("exiftool", ["-n", "-s3", "-ColorProfiles", "-ProfileDescription", "-ColorSpace", made.photoPath])
            #expect(tags.split(separator: "\n") == ["1"], "\(encoding): \(tags)")
        }
    }

    @Test("the ICC builder: sRGB transfer curve parameters, nothing for code points it cannot state")
    func profileBuilder() throws {
        let srgb = try #require(ICCDisplayProfile.profile(for: ColourDescription(
            colourPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 6, fullRange: true)))
        #expect(Int(srgb[0]) << 24 | Int(srgb[1]) << 16 | Int(srgb[2]) << 8 | Int(srgb[3]) == srgb.count)
        #expect(Array(srgb[36..<40]) == Array("acsp".utf8))
        let para = try #require((0..<srgb.count - 4).first { Array(srgb[$0..<$0 + 4]) == Array("para".utf8) })
        let parameters = (0..<5).map { index in
            let offset = para + 12 + 4 * index
            return Double(Int32(bitPattern: srgb[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })) / 65_536
        }
        let expected = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        #expect(zip(parameters, expected).allSatisfy { abs($0 - $1) < 1e-4 }, "\(parameters)")
        // PQ (16) and HLG (18) transfers and unknown primaries get no profile rather than a wrong one.
        for (primaries, transfer) in [(12, 16), (9, 18), (22, 1), (2, 1)] as [(UInt16, UInt16)] {
            #expect(ICCDisplayProfile.profile(for: ColourDescription(
                colourPrimaries: primaries, transferCharacteristics: transfer, matrixCoefficients: 1, fullRange: true)) == nil)
        }
    }
}
