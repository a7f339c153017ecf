import Testing
import LivePairFormats
import TestSupport

/// Decoder recipes built from the real HEIC samples.
@Suite struct HEIFRecipeTests {
    static func open(_ file: String, limits: ParseLimits = .default) throws -> (HEIFFile, FileByteSource) {
        let source = try FileByteSource(path: SampleMedia.path(file))
        return (try HEIFFile(source: source, limits: limits), source)
    }

    /// Splits length-prefixed item data into NAL units; nil when the lengths do not add up.
    static func nalUnits(_ data: [UInt8], lengthSize: Int) -> [[UInt8]]? {
        var units: [[UInt8]] = []
        var position = 0
        while position < data.count {
            guard data.count - position >= lengthSize else { return nil }
            var length = 0
            for index in 0..<lengthSize { length = length << 8 | Int(data[position + index]) }
            position += lengthSize
            guard length > 0, data.count - position >= length else { return nil }
            units.append(Array(data[position..<position + length]))
            position += length
        }
        return units
    }

    @Test(arguments: [
        ("live/IMG_3582.HEIC", 5, 9, 640, 896),
        ("live/IMG_3582_edited.heic", 7, 7, 640, 896),
        ("live/IMG_4580.HEIC", 6, 8, 512, 512),
        ("live/IMG_1853.HEIC", 6, 8, 512, 512),
        ("live/IMG_2927.HEIC", 8, 6, 512, 512),
        ("live/exif-at-eof.heic", 8, 6, 512, 512),
        ("plain/IMG_0102.HEIC", 5, 7, 512, 512),
        ("motion/samsung-one-ui-6.heic", 6, 8, 512, 512),
    ])
    func primaryGridRecipe(file: String, rows: Int, columns: Int, tileWidth: Int, tileHeight: Int) throws {
        let (heif, source) = try Self.open(file)
        let recipe = try heif.primaryImageRecipe(from: source)
        let primary = try #require(heif.primaryItem)
        #expect(recipe.itemID == primary.id)
        #expect(recipe.rows == rows)
        #expect(recipe.columns == columns)
        #expect(recipe.tiles.count == rows * columns)
        #expect(recipe.outputWidth == primary.width)
        #expect(recipe.outputHeight == primary.height)
        #expect(recipe.rotationDegrees == primary.rotationDegrees)
        #expect(recipe.tiles.map(\.itemID) == heif.meta.references(from: primary.id, type: "dimg"))
        for tile in recipe.tiles {
            #expect(tile.width == tileWidth)
            #expect(tile.height == tileHeight)
            #expect(tile.configuration.nalLengthSize == 4)
            #expect(tile.configuration.parameterSetTypes.prefix(3) == [32, 33, 34])
        }
        // The first tile's data is whole length-prefixed NAL units holding a coded slice.
        let first = try #require(recipe.tiles.first)
        let units = try #require(Self.nalUnits(first.data, lengthSize: 4))
        let types = units.map { ($0[0] >> 1) & 0x3F }
        #expect(types.contains { $0 <= 21 })  // VCL NAL unit
    }

    @Test func iPhone15ProRecipeFacts() throws {
        let (heif, source) = try Self.open("live/IMG_3582.HEIC")
        let recipe = try heif.primaryImageRecipe(from: source)
        #expect(recipe.tiles.count == 45)
        #expect(recipe.rotationDegrees == 270)
        #expect(recipe.mirror == nil)
        #expect(recipe.cleanAperture == nil)
        #expect(recipe.tiles.first?.itemID == 1)
        #expect(recipe.tiles.last?.itemID == 45)
    }

    @Test func singleItemRecipeForThumbnail() throws {
        let (heif, source) = try Self.open("live/IMG_4580.HEIC")
        let thumbnail = try #require(heif.thumbnails.first)
        let recipe = try heif.imageRecipe(for: thumbnail.id, from: source)
        #expect(recipe.rows == 1)
        #expect(recipe.columns == 1)
        #expect(recipe.tiles.count == 1)
        #expect(recipe.outputWidth == 416)
        #expect(recipe.outputHeight == 312)
        #expect(recipe.tiles[0].itemID == thumbnail.id)
        #expect(Self.nalUnits(recipe.tiles[0].data, lengthSize: 4) != nil)
    }

    @Test func recipeForGainMapGrid() throws {
        let (heif, source) = try Self.open("live/IMG_3582.HEIC")
        let gainMap = try #require(heif.auxiliaryImages.first { $0.type == "grid" })
        let recipe = try heif.imageRecipe(for: gainMap.id, from: source)
        #expect(recipe.outputWidth == 2856)
        #expect(recipe.outputHeight == 2142)
        #expect(recipe.tiles.count == recipe.rows * recipe.columns)
    }

    @Test func recipeRejectsNonImageItems() throws {
        let (heif, source) = try Self.open("live/IMG_3582.HEIC")
        #expect(throws: FormatError.self) { try heif.imageRecipe(for: 69, from: source) }  // Exif
        #expect(throws: FormatError.self) { try heif.imageRecipe(for: 9999, from: source) }  // missing
    }

    @Test func recipeHonoursPixelLimit() throws {
        var limits = ParseLimits.default
        limits.maximumPixels = 4032 * 3024 - 1
        let (heif, source) = try Self.open("live/IMG_4580.HEIC", limits: limits)
        do {
            _ = try heif.primaryImageRecipe(from: source)
            Issue.record("expected limitExceeded")
        } catch {
            guard case .limitExceeded = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        // The thumbnail still fits.
        #expect(try heif.imageRecipe(for: 50, from: source).tiles.count == 1)
    }
}
