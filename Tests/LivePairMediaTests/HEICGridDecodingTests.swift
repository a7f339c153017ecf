import Foundation
import LivePairFormats
import LivePairMedia
import Synchronization
import Testing

/// Grid assembly and HEIF transforms on tiles generated with ffmpeg/x265 (lossless, so every
/// tile holds exactly the pixels of its part of the pattern).
@Suite("HEIC grid decoding")
struct HEICGridDecodingTests {
    /// Generated once for the suite.
    private static let cachedFixture = Result { try makeGridFixture() }

    private func gridFixture() throws -> (recipe: HEIFImageRecipe, reference: PixelBuffer) {
        try Self.cachedFixture.get()
    }

    /// Four 64x48 tiles cut from one 128x96 pattern, rendered as a 120x90 grid (edges cropped),
    /// plus ffmpeg's decode of the whole pattern cropped to 120x90.
    private static func makeGridFixture() throws -> (recipe: HEIFImageRecipe, reference: PixelBuffer) {
        var tiles: [HEVCTile] = []
        for row in 0..<2 {
            for column in 0..<2 {
                tiles.append(
                    try ReferenceTools.testPatternTile(
                        itemID: UInt32(10 + row * 2 + column), sourceWidth: 128, sourceHeight: 96,
                        crop: (column * 64, row * 48, 64, 48)))
            }
        }
        let whole = try ReferenceTools.testPatternTileWithReference(itemID: 1, sourceWidth: 128, sourceHeight: 96)
        let recipe = HEIFImageRecipe(
            itemID: 1, tiles: tiles, columns: 2, rows: 2, outputWidth: 120, outputHeight: 90, cleanAperture: nil,
            rotationDegrees: 0, mirror: nil)
        return (recipe, try whole.reference.cropped(x: 0, y: 0, width: 120, height: 90))
    }

    private func with(
        _ recipe: HEIFImageRecipe, tiles: [HEVCTile]? = nil, columns: Int? = nil, outputWidth: Int? = nil,
        cleanAperture: CleanAperture? = nil, rotation: Int = 0, mirror: MirrorAxis? = nil
    ) -> HEIFImageRecipe {
        HEIFImageRecipe(
            itemID: recipe.itemID, tiles: tiles ?? recipe.tiles, columns: columns ?? recipe.columns, rows: recipe.rows,
            outputWidth: outputWidth ?? recipe.outputWidth, outputHeight: recipe.outputHeight,
            cleanAperture: cleanAperture, rotationDegrees: rotation, mirror: mirror)
    }

    @Test("tiles are placed row-major and cropped at the right and bottom edges")
    func assemblesGrid() throws {
        let (recipe, reference) = try gridFixture()
        let image = try HEICImageDecoder().decode(recipe)
        #expect(image.width == 120 && image.height == 90)
        let difference = try #require(image.meanAbsoluteDifference(to: reference))
        // Same YUV samples; only chroma interpolation across tile seams can differ.
        #expect(difference < 0.5, "mean absolute difference \(difference)")
        // A misplaced tile would differ strongly: swapping the top tiles must be detected.
        let swapped = with(recipe, tiles: [recipe.tiles[1], recipe.tiles[0], recipe.tiles[2], recipe.tiles[3]])
        let wrong = try #require(try HEICImageDecoder().decode(swapped).meanAbsoluteDifference(to: reference))
        #expect(wrong > 10 * max(difference, 0.5), "swapped tiles differ by only \(wrong)")
    }

    @Test("clean aperture, rotation and mirror are applied in HEIF order")
    func appliesTransforms() throws {
        let (recipe, _) = try gridFixture()
        let decoder = HEICImageDecoder()
        let plain = try decoder.decode(recipe)
        // A 60x40 crop centred 10 pixels right of and 5 pixels below the image centre.
        let aperture = CleanAperture(
            widthN: 60, widthD: 1, heightN: 40, heightD: 1, horizontalOffsetN: 10, horizontalOffsetD: 1,
            verticalOffsetN: 5, verticalOffsetD: 1)
        let rectangle = try #require(aperture.rectangle(imageWidth: 120, imageHeight: 90))
        let transformed = try decoder.decode(with(recipe, cleanAperture: aperture, rotation: 90, mirror: .vertical))
        let expected = try plain.cropped(x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height)
            .rotated(anticlockwiseDegrees: 90).mirrored(.vertical)
        #expect(transformed.width == 40 && transformed.height == 60)
        #expect(transformed == expected)
        let rotated = try decoder.decode(with(recipe, rotation: 270))
        #expect(rotated.width == 90 && rotated.height == 120)
        #expect(rotated.pixel(x: 0, y: 0) == plain.pixel(x: 0, y: 89))
    }

    @Test("every rotation and mirror, with and without a crop, equals the step-by-step transforms", arguments: [0, 90, 180, 270])
    func foldedTransformsMatchSteps(rotation: Int) throws {
        let (recipe, _) = try gridFixture()
        let decoder = HEICImageDecoder()
        let plain = try decoder.decode(recipe)
        // An odd-sized crop that removes the right column of tiles entirely (x + width <= 64).
        let aperture = CleanAperture(
            widthN: 41, widthD: 1, heightN: 67, heightD: 1, horizontalOffsetN: -37, horizontalOffsetD: 1,
            verticalOffsetN: 3, verticalOffsetD: 2)
        let rectangle = try #require(aperture.rectangle(imageWidth: 120, imageHeight: 90))
        #expect(rectangle.x + rectangle.width <= 64)
        for mirror in [nil, MirrorAxis.horizontal, .vertical] {
            for clap in [nil, aperture] {
                var expected = plain
                if clap != nil {
                    expected = try expected.cropped(
                        x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height)
                }
                expected = try expected.rotated(anticlockwiseDegrees: rotation)
                if let mirror { expected = try expected.mirrored(mirror) }
                let folded = try decoder.decode(with(recipe, cleanAperture: clap, rotation: rotation, mirror: mirror))
                #expect(folded == expected, "rotation \(rotation), mirror \(String(describing: mirror)), clap \(clap != nil)")
            }
        }
    }

    @Test("inconsistent grids are refused before decoding")
    func refusesBadGeometry() throws {
        let (recipe, _) = try gridFixture()
        let decoder = HEICImageDecoder()
        #expect(throws: MediaError.self) { try decoder.decode(with(recipe, columns: 3)) }
        #expect(throws: MediaError.self) { try decoder.decode(with(recipe, outputWidth: 129)) }
        #expect(throws: MediaError.self) { try decoder.decode(with(recipe, tiles: [])) }
        #expect(throws: MediaError.unsupported("item 1: rotation by 45 degrees")) {
            try decoder.decode(with(recipe, rotation: 45))
        }
        var limits = ParseLimits.default
        limits.maximumPixels = 120 * 90 - 1
        #expect(throws: MediaError.tooLarge(pixels: 120 * 90, limit: 120 * 90 - 1)) {
            try HEICImageDecoder(limits: limits).decode(recipe)
        }
        let broken = HEVCTile(
            itemID: 99, configuration: recipe.tiles[0].configuration, data: [0, 0, 0, 2, 0x26, 0x01], width: 64, height: 48)
        #expect(throws: MediaError.self) {
            try decoder.decode(with(recipe, tiles: [recipe.tiles[0], broken, recipe.tiles[2], recipe.tiles[3]]))
        }
    }

    @Test("a cancelled flag stops the decode before any tile")
    func cancelsBeforeStart() throws {
        let (recipe, _) = try gridFixture()
        let flag = CancellationFlag()
        flag.cancel()
        flag.cancel()
        #expect(flag.isCancelled)
        #expect(throws: MediaError.cancelled) { try HEICImageDecoder().decode(recipe, cancellation: flag) }
    }

    @Test("cancelling between tiles stops the decode with .cancelled")
    func cancelsBetweenTiles() throws {
        let (recipe, _) = try gridFixture()
        let polls = Atomic<Int>(0)
        // The first poll (before the grid) passes; cancellation arrives while tiles are decoded.
        #expect(throws: MediaError.cancelled) {
            try HEICImageDecoder().decode(recipe, isCancelled: { polls.add(1, ordering: .relaxed).newValue > 2 })
        }
        #expect(polls.load(ordering: .relaxed) >= 3)
    }
}
