import Foundation
import LivePairFormats
import LivePairMedia
import Synchronization
import TestSupport
import Testing

/// Decodes the real camera HEICs (including iOS 17+ files libheif 1.15 cannot open) through the
/// project's own HEIF parser and FFmpeg's HEVC decoder.
@Suite("Sample HEIC decoding", .serialized)
struct SampleHEICDecodingTests {
    /// Sample files with their upright size: exiftool's `ImageSize`, swapped when its
    /// `Orientation` is "Rotate 90 CW" (which the files express as `irot` 270 anticlockwise).
    static let uprightSizes: [(file: String, width: Int, height: Int, rotation: Int)] = [
        ("live/IMG_3582.HEIC", 4284, 5712, 270), ("live/IMG_4580.HEIC", 3024, 4032, 270),
        ("live/IMG_1853.HEIC", 3024, 4032, 270), ("live/IMG_2927.HEIC", 3024, 4032, 0),
        ("live/IMG_3582_edited.heic", 4284, 5712, 0), ("live/IMG_E1853.heic", 3024, 4032, 0),
        ("live/exif-at-eof.heic", 3024, 4032, 0), ("motion/motionphoto.heic", 3000, 4000, 270),
        ("motion/photo-sg22-ultra.heic", 3000, 4000, 270), ("motion/samsung-one-ui-6.heic", 3000, 4000, 270),
        ("plain/IMG_0102.HEIC", 2320, 3088, 270), ("plain/IMG_2682.heic", 4032, 3024, 0),
        ("plain/IMG_5747.HEIC", 4284, 5712, 270), ("plain/sewing-threads.heic", 4000, 3000, 0),
    ]

    @Test("every sample HEIC's primary image decodes upright", arguments: uprightSizes)
    func decodesPrimaryUpright(sample: (file: String, width: Int, height: Int, rotation: Int)) throws {
        let source = try FileByteSource(path: SampleMedia.path(sample.file))
        let recipe = try HEIFFile(source: source).primaryImageRecipe(from: source)
        #expect(recipe.rotationDegrees == sample.rotation)
        let start = Date()
        let image = try HEICImageDecoder().decode(recipe)
        let seconds = Date().timeIntervalSince(start)
        #expect(image.width == sample.width && image.height == sample.height)
        print(
            "\(sample.file): \(recipe.columns)x\(recipe.rows) tiles of \(recipe.tiles[0].width)x\(recipe.tiles[0].height)"
                + " -> \(image.width)x\(image.height) in \(String(format: "%.3f", seconds)) s")
    }

    /// The full decode reduced to the thumbnail's size must look like the thumbnail: a tile out
    /// of place, a wrong rotation or mirror would make them differ far more.
    ///
    /// Measured (FFmpeg 5.1, swscale area reduction): IMG_3582 1.35, IMG_4580 3.06 (fine leaf
    /// texture, thumbnail coded at lower quality). The same comparison with the reduced image
    /// turned 180 degrees or mirrored left-right gives 29 to 41. The threshold of 6 leaves a 2x
    /// margin over the worst honest value and stays more than 4x below the best wrong one.
    @Test("the thumbnail item decodes at its size and matches the reduced full image", arguments: [
        "live/IMG_3582.HEIC", "live/IMG_4580.HEIC",
    ])
    func thumbnailMatchesReducedPrimary(file: String) throws {
        let source = try FileByteSource(path: SampleMedia.path(file))
        let heif = try HEIFFile(source: source)
        let decoder = HEICImageDecoder()
        let thumbnailItem = try #require(heif.thumbnails.first)
        let thumbnailRecipe = try heif.imageRecipe(for: thumbnailItem.id, from: source)
        var start = Date()
        let thumbnail = try decoder.decode(thumbnailRecipe)
        let thumbnailSeconds = Date().timeIntervalSince(start)
        #expect(thumbnail.width == 312 && thumbnail.height == 416)

        start = Date()
        let primary = try decoder.decode(try heif.primaryImageRecipe(from: source))
        let primarySeconds = Date().timeIntervalSince(start)
        let reduced = try primary.scaled(toWidth: thumbnail.width, height: thumbnail.height, filter: .area)
        let difference = try #require(reduced.meanAbsoluteDifference(to: thumbnail))
        let turned = try #require(try reduced.rotated(anticlockwiseDegrees: 180).meanAbsoluteDifference(to: thumbnail))
        let mirrored = try #require(try reduced.mirrored(.vertical).meanAbsoluteDifference(to: thumbnail))
        print(
            "\(file): thumbnail \(thumbnail.width)x\(thumbnail.height) in \(String(format: "%.4f", thumbnailSeconds)) s,"
                + " primary \(primary.width)x\(primary.height) in \(String(format: "%.3f", primarySeconds)) s;"
                + " difference \(difference), turned \(turned), mirrored \(mirrored)")
        #expect(difference < 6)
        #expect(turned > 4 * 6 && mirrored > 4 * 6)
    }

    @Test("cancelling a 24-megapixel decode stops it early with .cancelled")
    func cancelsRealDecode() throws {
        let source = try FileByteSource(path: SampleMedia.path("live/IMG_3582.HEIC"))
        let recipe = try HEIFFile(source: source).primaryImageRecipe(from: source)
        let polls = Atomic<Int>(0)
        let start = Date()
        #expect(throws: MediaError.cancelled) {
            try HEICImageDecoder().decode(recipe, isCancelled: { polls.add(1, ordering: .relaxed).newValue > 4 })
        }
        // Only the tiles already started finish: far fewer than the 45 of the grid.
        #expect(polls.load(ordering: .relaxed) < 45)
        print("live/IMG_3582.HEIC: cancelled after \(String(format: "%.3f", Date().timeIntervalSince(start))) s")
    }
}
