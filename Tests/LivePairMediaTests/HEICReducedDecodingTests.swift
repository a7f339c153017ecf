import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// `HEICImageDecoder.decode(_:reduction:)`: every tile averaged down while it is converted,
/// checked against the full decode reduced afterwards by libswscale's area filter.
@Suite("HEIC reduced decoding", .serialized)
struct HEICReducedDecodingTests {
    /// Grids of different makers, tile sizes and rotations: (file, upright width, height).
    static let samples: [(file: String, width: Int, height: Int)] = [
        ("live/IMG_3582.HEIC", 4284, 5712), ("live/IMG_3582_edited.heic", 4284, 5712),
        ("plain/IMG_0102.HEIC", 2320, 3088), ("plain/sewing-threads.heic", 4000, 3000),
        ("motion/motionphoto.heic", 3000, 4000),
    ]

    func recipe(_ file: String) throws -> HEIFImageRecipe {
        let source = try FileByteSource(path: SampleMedia.path(file))
        return try HEIFFile(source: source).primaryImageRecipe(from: source)
    }

    /// Measured (FFmpeg 5.1): 0.48 to 0.97 at every reduction on these files; a tile out of place
    /// or turned the wrong way gives tens (the full decode itself compared turned 180 degrees:
    /// see the last expectation).
    @Test("a reduced decode has the reduced size and the pixels of the full decode reduced", arguments: samples)
    func matchesReducedFullDecode(sample: (file: String, width: Int, height: Int)) throws {
        let recipe = try recipe(sample.file)
        let tile = try #require(recipe.tiles.first)
        #expect(tile.width % 8 == 0 && tile.height % 8 == 0)
        #expect(HEICImageDecoder.reductions(for: recipe) == [1, 2, 4, 8])
        let decoder = HEICImageDecoder()
        let full = try decoder.decode(recipe)
        #expect((full.width, full.height) == (sample.width, sample.height))
        for reduction in [2, 4, 8] {
            let size = try decoder.uprightSize(of: recipe, reduction: reduction)
            #expect(size.width == (sample.width + reduction - 1) / reduction)
            #expect(size.height == (sample.height + reduction - 1) / reduction)
            let reduced = try decoder.decode(recipe, reduction: reduction)
            #expect((reduced.width, reduced.height) == (size.width, size.height))
            let reference = try full.scaled(toWidth: size.width, height: size.height, filter: .area)
            let difference = try #require(reduced.meanAbsoluteDifference(to: reference))
            print("\(sample.file) 1/\(reduction): \(reduced.width)x\(reduced.height), mean difference \(difference)")
            #expect(difference < 2, "\(sample.file) at 1/\(reduction) differs by \(difference)")
            if reduction == 8 {
                let turned = try reference.rotated(anticlockwiseDegrees: 180)
                #expect(try #require(reduced.meanAbsoluteDifference(to: turned)) > 10)
            }
        }
    }

    @Test("a reduction the tiles do not divide by, or other than 2, 4 and 8, is refused")
    func unsupportedReduction() throws {
        let recipe = try recipe("live/IMG_3582_edited.heic")
        for reduction in [0, 3, 16] {
            #expect(throws: MediaError.self) { try HEICImageDecoder().decode(recipe, reduction: reduction) }
        }
    }

    @Test("a cancelled reduced decode throws cancelled")
    func cancelled() throws {
        let recipe = try recipe("live/IMG_3582_edited.heic")
        let flag = CancellationFlag()
        flag.cancel()
        #expect(throws: MediaError.cancelled) { try HEICImageDecoder().decode(recipe, reduction: 8, cancellation: flag) }
    }
}
