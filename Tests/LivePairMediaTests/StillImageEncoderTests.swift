import Foundation
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// Encodes real photo content as JPEG (turbojpeg) and HEIC (libheif + x265) and reads the results
/// back with the project's readers and with independent tools (turbojpeg, libheif's
/// `heif-convert`, exiftool, ffmpeg).
@Suite("Still image encoding", .serialized)
struct StillImageEncoderTests {
    /// A 383x377 (odd by odd) crop of the train photo (4032x3024), decoded at an eighth of its size.
    static func oddSample() throws -> PixelBuffer {
        let image = try JPEGImageDecoder().decode(try SampleMedia.bytes("live/train.jpg"), scale: .eighth)
        return try image.cropped(x: 61, y: 0, width: 383, height: 377)
    }

    /// A small big-endian TIFF with Make, Model and Software in IFD0 (no Orientation).
    static let exifTIFF: [UInt8] = TIFFBuilder.tiff(entries: [
        TIFFBuilder.ascii(0x010F, "LivePairTest"), TIFFBuilder.ascii(0x0110, "Encoder Model 7"),
        TIFFBuilder.ascii(0x0131, "livepair tests"),
    ])

    /// exiftool's `-s -s -s` values for `tags` (in the order exiftool prints them, blank lines dropped).
    static func exiftool(_ path: String, _ tags: [String]) throws -> [String: String] {
        let text = try ReferenceTool.run("exiftool", ["-s", "-f"] + tags.map { "-\($0)" } + [path])
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            values[line[..<colon].trimmingCharacters(in: .whitespaces)] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return values
    }

    static func write(_ bytes: [UInt8], _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: JPEG

    /// Measured: mean absolute difference 1.41 per byte at quality 92 for this crop (4:2:0
    /// chroma; alpha is 255 on both sides). The bound of 3 is about twice that.
    @Test("JPEG with Exif: APP1 right after SOI, decodes with turbojpeg, exiftool reads the tags")
    func jpegWithExif() throws {
        guard ReferenceTool.isInstalled("exiftool") else { return }
        let image = try Self.oddSample()
        let start = Date()
        let jpeg = try StillImageEncoder.jpeg(image, exifTIFF: Self.exifTIFF)
        let seconds = Date().timeIntervalSince(start)
        #expect(Array(jpeg.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE1])
        #expect(Array(jpeg[6..<12]) == Array("Exif".utf8) + [0, 0])

        let decoded = try JPEGImageDecoder().decode(jpeg)
        #expect(decoded.width == image.width && decoded.height == image.height)
        let difference = try #require(decoded.meanAbsoluteDifference(to: image))
        #expect(difference < 3)

        let structure = try JPEGSegmentReader().read(MemoryByteSource(jpeg))
        #expect(structure.exifTIFF == Self.exifTIFF)

        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.write(jpeg, "exif.jpg", in: directory)
        let tags = try Self.exiftool(path, ["Make", "Model", "Software", "ImageSize", "Orientation", "JFIFVersion"])
        #expect(tags["Make"] == "LivePairTest")
        #expect(tags["Model"] == "Encoder Model 7")
        #expect(tags["Software"] == "livepair tests")
        #expect(tags["ImageSize"] == "383x377")
        #expect(tags["Orientation"] == "-")
        #expect(tags["JFIFVersion"] == "-")
        print("JPEG \(image.width)x\(image.height): \(jpeg.count) bytes in \(String(format: "%.4f", seconds)) s, MAD \(difference)")
    }

    @Test("JPEG without Exif is turbojpeg's output unchanged")
    func jpegWithoutExif() throws {
        let image = try Self.oddSample()
        #expect(try StillImageEncoder.jpeg(image, quality: 80) == image.jpegData(quality: 80))
    }

    @Test("an ICC profile larger than one APP2 segment is split into numbered chunks that exiftool and StillColourProfile put back together")
    func jpegICCProfileInChunks() throws {
        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let built = try #require(ICCDisplayProfile.profile(for: ColourDescription(
            colourPrimaries: 12, transferCharacteristics: 13, matrixCoefficients: 6, fullRange: true)))
        let profile = built + (0..<(150_000 - built.count)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let path = try Self.write(
            try StillImageEncoder.jpeg(try Self.oddSample(), quality: 80, exifTIFF: Self.exifTIFF, iccProfile: profile),
            "chunks.jpg", in: directory)
        let structure = try JPEGSegmentReader().read(try FileByteSource(path: path))
        // APP1 Exif first, then three APP2 segments of 65,519 + 65,519 + 18,962 profile bytes.
        #expect(structure.segments.map(\.marker).prefix(5) == [0xD8, 0xE1, 0xE2, 0xE2, 0xE2])
        #expect(structure.segments.filter { $0.marker == 0xE2 }.map(\.payloadLength) == [65_533, 65_533, 18_976])
        #expect([UInt8](try ReferenceTool.execute("exiftool", ["-b", "-ICC_Profile", path]).output) == profile)
        #expect(StillColourProfile.iccProfile(ofStillAt: path) == profile)
        #expect(try Self.exiftool(path, ["Make"])["Make"] == "LivePairTest")
    }

    @Test("a camera's Exif (train.jpg, little-endian with maker note) survives into JPEG and HEIC")
    func cameraExifSurvives() throws {
        guard ReferenceTool.isInstalled("exiftool") else { return }
        let source = try FileByteSource(path: SampleMedia.path("live/train.jpg"))
        let tiff = try #require(try JPEGSegmentReader().read(source).exifTIFF)
        let image = try Self.oddSample()
        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try Self.exiftool(SampleMedia.path("live/train.jpg"), ["Make", "Model", "DateTimeOriginal", "Orientation"])
        for (name, bytes) in [
            ("camera.jpg", try StillImageEncoder.jpeg(image, exifTIFF: tiff)),
            ("camera.heic", try StillImageEncoder.heic(image, exifTIFF: tiff)),
        ] {
            let tags = try Self.exiftool(try Self.write(bytes, name, in: directory), ["Make", "Model", "DateTimeOriginal", "Orientation"])
            #expect(tags == original, "\(name)")
        }
    }

    @Test("Exif that is not a TIFF structure, or too large for APP1, is a typed error", arguments: [
        [UInt8](), Array("Exif\0\0MM\0*".utf8), [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0],
    ])
    func rejectsBadExif(tiff: [UInt8]) throws {
        let image = try PixelBuffer(width: 3, height: 3, format: .rgba8, storage: [UInt8](repeating: 200, count: 36))
        #expect(throws: MediaError.self) { try StillImageEncoder.jpeg(image, exifTIFF: tiff) }
        #expect(throws: MediaError.self) { try StillImageEncoder.heic(image, exifTIFF: tiff) }
    }

    @Test("Exif larger than one APP1 segment is a typed error for JPEG")
    func rejectsOversizedJPEGExif() throws {
        let image = try PixelBuffer(width: 3, height: 3, format: .rgba8, storage: [UInt8](repeating: 200, count: 36))
        let tiff = TIFFBuilder.header() + [UInt8](repeating: 0, count: 70_000)
        #expect(throws: MediaError.self) { try StillImageEncoder.jpeg(image, exifTIFF: tiff) }
    }

    // MARK: HEIC

    /// Measured at quality 80: MAD 0.52 (project decoder) and 0.51 (libheif, through PNG) per
    /// byte for the 383x377 crop (alpha 255 on both sides). The bound of 1.5 is about three times that.
    @Test("a colour description becomes the primary image's colr nclx, on the grid of an odd-sized image too; pixels round-trip with its matrix", arguments: [UInt16(1), 6])
    func heicColourDescription(matrix: UInt16) throws {
        let image = try Self.oddSample()
        let colour = ColourDescription(colourPrimaries: 12, transferCharacteristics: 1, matrixCoefficients: matrix, fullRange: true)
        let heic = try StillImageEncoder.heic(image, quality: 90, colour: colour)
        let source = MemoryByteSource(heic)
        let file = try HEIFFile(source: source)
        let primary = try #require(file.meta.primaryItemID)
        let colours = file.meta.properties(of: primary).compactMap { property -> HEIFColourInformation? in
            if case let .colour(information) = property { return information }
            return nil
        }
        #expect(colours == [.nclx(colourPrimaries: 12, transferCharacteristics: 1, matrixCoefficients: matrix, fullRange: true)])
        // The Y'CbCr was made with the declared matrix: decoding with it gives the input back.
        let decoded = try HEICImageDecoder().decode(try file.primaryImageRecipe(from: source))
        #expect(try #require(decoded.meanAbsoluteDifference(to: image)) < 1.5)
    }

    @Test("HEIC of an odd-sized image opens in HEIFFile/HEICImageDecoder, heif-convert and exiftool")
    func heicOddSizeWithExif() throws {
        guard ReferenceTool.isInstalled("exiftool"), ReferenceTool.isInstalled("heif-convert") else { return }
        let image = try Self.oddSample()
        let start = Date()
        let heic = try StillImageEncoder.heic(image, exifTIFF: Self.exifTIFF)
        let seconds = Date().timeIntervalSince(start)

        // The project's own reader and decoder.
        let source = MemoryByteSource(heic)
        let file = try HEIFFile(source: source)
        #expect(file.majorBrand == "heic")
        let recipe = try file.primaryImageRecipe(from: source)
        #expect(recipe.outputWidth == image.width && recipe.outputHeight == image.height)
        #expect(recipe.rotationDegrees == 0 && recipe.mirror == nil)
        let decoded = try HEICImageDecoder().decode(recipe)
        #expect(decoded.width == image.width && decoded.height == image.height)
        let difference = try #require(decoded.meanAbsoluteDifference(to: image))
        #expect(difference < 1.5)
        let exif = try #require(try file.exif(from: source))
        #expect(exif.tiff == Self.exifTIFF)
        #expect(file.thumbnails.isEmpty)

        // libheif, independently.
        let directory = try ReferenceTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.write(heic, "odd.heic", in: directory)
        let png = directory.appendingPathComponent("odd.png").path
        _ = try ReferenceTool.run("heif-convert", [path, png])
        let libheif = try StillImageReader.decode(path: png)
        #expect(libheif.width == image.width && libheif.height == image.height)
        let libheifDifference = try #require(libheif.meanAbsoluteDifference(to: image))
        #expect(libheifDifference < 1.5)

        // exiftool.
        let tags = try Self.exiftool(path, ["Make", "Model", "ImageSize", "Orientation", "MajorBrand"])
        #expect(tags["Make"] == "LivePairTest")
        #expect(tags["Model"] == "Encoder Model 7")
        #expect(tags["ImageSize"] == "383x377")
        #expect(tags["Orientation"] == "-")
        print(
            "HEIC \(image.width)x\(image.height): \(heic.count) bytes in \(String(format: "%.3f", seconds)) s,"
                + " MAD \(difference) (project decoder), \(libheifDifference) (libheif)")
    }

    @Test("HEIC of an even-sized gray image without Exif decodes to the same size and no Exif item")
    func heicEvenGray() throws {
        let image = try Self.oddSample().cropped(x: 0, y: 0, width: 256, height: 192)
        var gray = [UInt8](repeating: 0, count: image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width { gray[y * image.width + x] = image.pixel(x: x, y: y)![image.pixel(x: x, y: y)!.startIndex + 1] }
        }
        let grayImage = try PixelBuffer(width: image.width, height: image.height, format: .gray8, storage: gray)
        let heic = try StillImageEncoder.heic(grayImage, quality: 90)
        let source = MemoryByteSource(heic)
        let file = try HEIFFile(source: source)
        #expect(try file.exif(from: source) == nil)
        let decoded = try HEICImageDecoder().decode(try file.primaryImageRecipe(from: source))
        #expect(decoded.width == 256 && decoded.height == 192)
        // Compare the green channel of the decode with the gray input.
        var total = 0
        for y in 0..<192 {
            for x in 0..<256 {
                let pixel = decoded.pixel(x: x, y: y)!
                total += abs(Int(pixel[pixel.startIndex + 1]) - Int(gray[y * 256 + x]))
            }
        }
        let grayDifference = Double(total) / Double(256 * 192)
        print("HEIC gray 256x192: MAD \(grayDifference)")
        #expect(grayDifference < 3)
    }
}
