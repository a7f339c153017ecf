import Foundation
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

@Suite("JPEG decoding", .serialized)
struct JPEGImageDecoderTests {
    @Test("train.jpg decodes to the pixels ffmpeg decodes")
    func decodesLikeFFmpeg() throws {
        let data = try SampleMedia.bytes("live/train.jpg")
        let decoder = JPEGImageDecoder()
        #expect(try decoder.readHeader(data) == JPEGImageDecoder.Header(width: 4032, height: 3024))
        let start = Date()
        let image = try decoder.decode(data)
        print("live/train.jpg: full 4032x3024 JPEG decode in \(Date().timeIntervalSince(start))s")
        #expect(image.width == 4032 && image.height == 3024 && image.format == .rgba8)
        let reference = try ReferenceTools.rgba(of: SampleMedia.path("live/train.jpg"), width: 4032, height: 3024)
        let difference = try #require(image.meanAbsoluteDifference(to: reference))
        print("live/train.jpg: mean absolute difference to ffmpeg = \(difference)")
        // Both decoders run the same IDCT on the same coefficients; they differ only in chroma
        // upsampling (libjpeg's fancy upsampling vs swscale) and rounding: about one level.
        #expect(difference < 2, "mean absolute difference \(difference)")
    }

    @Test("DCT-scaled decodes have the rounded-up size and match a reduced full decode", arguments: [
        JPEGImageDecoder.Scale.half, .quarter, .eighth,
    ])
    func decodesScaled(scale: JPEGImageDecoder.Scale) throws {
        let data = try SampleMedia.bytes("live/train.jpg")
        let decoder = JPEGImageDecoder()
        let start = Date()
        let image = try decoder.decode(data, scale: scale)
        let seconds = Date().timeIntervalSince(start)
        let expected = JPEGImageDecoder.Header(width: 4032, height: 3024).size(at: scale)
        #expect(image.width == expected.width && image.height == expected.height)
        print("live/train.jpg: 1/\(scale.rawValue) decode \(image.width)x\(image.height) in \(seconds)s")
        if scale == .eighth {
            let reduced = try decoder.decode(data).scaled(toWidth: image.width, height: image.height, filter: .area)
            let difference = try #require(image.meanAbsoluteDifference(to: reduced))
            #expect(difference < 4, "mean absolute difference \(difference)")
        }
    }

    @Test("the strongest scale covering a target size is chosen")
    func choosesScale() {
        let header = JPEGImageDecoder.Header(width: 4032, height: 3024)
        #expect(header.largestScale(covering: 500, 370) == .eighth)
        #expect(header.largestScale(covering: 600, 400) == .quarter)
        #expect(header.largestScale(covering: 4032, 3024) == .full)
        #expect(header.largestScale(covering: 9000, 9000) == .full)
        #expect(header.size(at: .eighth) == (width: 504, height: 378))
    }

    @Test("a PNG named .jpg, an empty JPEG and garbage throw typed errors")
    func rejectsNonJPEG() throws {
        let decoder = JPEGImageDecoder()
        #expect(throws: MediaError.invalidImage(reason: "data does not start with a JPEG SOI marker")) {
            try decoder.decode(try SampleMedia.bytes("broken/normalphoto.jpg"))
        }
        // turbojpeg accepts SOI+EOI as a 0x0 image: the size check must refuse it.
        #expect(throws: MediaError.self) { try decoder.decode([0xFF, 0xD8, 0xFF, 0xD9]) }
        #expect(throws: MediaError.self) { try decoder.decode([]) }
        #expect(throws: MediaError.self) { try decoder.decode([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x42, count: 1000)) }
    }

    @Test("badimage.jpeg (APP1 length shorter than its Exif, stray bytes) throws decodeFailed, never traps")
    func rejectsCorruptJPEG() throws {
        // libjpeg resynchronises on the next 0xFF after the short APP1 segment, lands inside the
        // Exif data on "marker" 0x6C and gives up; ffmpeg's own decoder is more forgiving.
        let data = try SampleMedia.bytes("broken/badimage.jpeg")
        for decoder in [JPEGImageDecoder(), JPEGImageDecoder(treatsWarningsAsErrors: true)] {
            #expect {
                try decoder.decode(data)
            } throws: { error in
                guard case .decodeFailed(code: -1, let message) = error as? MediaError else { return false }
                return message.hasPrefix("tjDecompressHeader3")
            }
        }
    }

    @Test("a truncated JPEG is a warning when lenient, an error when strict")
    func handlesTruncatedJPEG() throws {
        let data = Array(try SampleMedia.bytes("live/train.jpg").prefix(400_000))
        let image = try JPEGImageDecoder().decode(data, scale: .eighth)
        #expect(image.width == 504)
        #expect(throws: MediaError.self) { try JPEGImageDecoder(treatsWarningsAsErrors: true).decode(data, scale: .eighth) }
        #expect(throws: MediaError.self) { try JPEGImageDecoder().decode(Array(data.prefix(300))) }
    }

    @Test("images above the pixel limit are refused from the header")
    func refusesTooManyPixels() throws {
        var limits = ParseLimits.default
        limits.maximumPixels = 1_000_000
        #expect(throws: MediaError.tooLarge(pixels: 4032 * 3024, limit: 1_000_000)) {
            try JPEGImageDecoder(limits: limits).decode(try SampleMedia.bytes("live/train.jpg"), scale: .eighth)
        }
    }
}
