extension HEIFFile {
    /// The recipe for the primary item.
    public func primaryImageRecipe(from source: any ByteSource) throws(FormatError) -> HEIFImageRecipe {
        guard let primary = meta.primaryItemID else {
            throw .invalid(context: "meta/pitm", reason: "no primary item")
        }
        return try imageRecipe(for: primary, from: source)
    }

    /// Everything a decoder needs to render item `itemID` (a `grid` or `hvc1` item): for a grid its
    /// `dimg` tiles in order, each with its `hvcC`, `ispe` and data (only those ranges are read);
    /// for an `hvc1` item, one tile.
    ///
    /// Throws `unsupported` for other item types, `invalid` when the tile count is not
    /// rows x columns, a tile lacks `hvcC` or `ispe`, or the tiles do not cover the output, and
    /// `limitExceeded` when the image or its tiles exceed `ParseLimits.maximumPixels`.
    public func imageRecipe(for itemID: UInt32, from source: any ByteSource) throws(FormatError) -> HEIFImageRecipe {
        guard let item = meta.imageItem(itemID) else {
            throw .invalid(context: "meta/iinf", reason: "no item \(itemID)")
        }
        let context = "item \(itemID)"
        let tileIDs: [UInt32]
        let rows: Int, columns: Int, outputWidth: Int, outputHeight: Int
        switch item.type {
        case "grid":
            let grid = try grid(of: itemID, from: source)
            tileIDs = meta.references(from: itemID, type: "dimg")
            guard tileIDs.count == grid.rows * grid.columns else {
                throw .invalid(
                    context: context,
                    reason: "grid of \(grid.rows)x\(grid.columns) has \(tileIDs.count) tiles")
            }
            (rows, columns, outputWidth, outputHeight) = (grid.rows, grid.columns, grid.outputWidth, grid.outputHeight)
        case "hvc1":
            guard let width = item.width, let height = item.height else {
                throw .invalid(context: context, reason: "no ispe property")
            }
            tileIDs = [itemID]
            (rows, columns, outputWidth, outputHeight) = (1, 1, width, height)
        default:
            throw .unsupported(context: context, reason: "item type \(item.type) is not grid or hvc1")
        }
        try checkPixels(outputWidth, outputHeight, context: context)

        // Check every tile's properties before reading any tile data.
        var configurations: [(id: UInt32, configuration: HEVCDecoderConfiguration, width: Int, height: Int)] = []
        configurations.reserveCapacity(tileIDs.count)
        var tilePixels = 0
        for id in tileIDs {
            guard let tile = meta.item(id) else { throw .invalid(context: context, reason: "tile item \(id) does not exist") }
            guard tile.type == "hvc1" else {
                throw .unsupported(context: "item \(id)", reason: "tile type \(tile.type) is not hvc1")
            }
            var configuration: HEVCDecoderConfiguration?
            var size: (Int, Int)?
            for property in meta.properties(of: id) {
                switch property {
                case .hevcConfiguration(let value) where configuration == nil: configuration = value
                case let .imageSpatialExtents(w, h) where size == nil: size = (Int(w), Int(h))
                default: break
                }
            }
            guard let configuration else { throw .invalid(context: "item \(id)", reason: "tile has no hvcC") }
            guard let size, size.0 > 0, size.1 > 0 else {
                throw .invalid(context: "item \(id)", reason: "tile has no usable ispe")
            }
            let pixels = try checkPixels(size.0, size.1, context: "item \(id)")
            guard tilePixels <= limits.maximumPixels - pixels else {
                throw .limitExceeded(
                    context: context, limit: "tile pixels", value: UInt64(tilePixels) + UInt64(pixels),
                    maximum: UInt64(limits.maximumPixels))
            }
            tilePixels += pixels
            configurations.append((id, configuration, size.0, size.1))
        }
        if item.type == "grid", let first = configurations.first {
            // Tiles share one size; together they must cover the output.
            guard configurations.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
                throw .invalid(context: context, reason: "grid tiles differ in size")
            }
            guard first.width * columns >= outputWidth, first.height * rows >= outputHeight else {
                throw .invalid(
                    context: context,
                    reason: "\(columns)x\(rows) tiles of \(first.width)x\(first.height) do not cover \(outputWidth)x\(outputHeight)")
            }
        }
        var tiles: [HEVCTile] = []
        tiles.reserveCapacity(configurations.count)
        for entry in configurations {
            let data = try itemData(entry.id, from: source)
            tiles.append(
                HEVCTile(
                    itemID: entry.id, configuration: entry.configuration, data: data.bytes, width: entry.width,
                    height: entry.height))
        }
        return HEIFImageRecipe(
            itemID: itemID, tiles: tiles, columns: columns, rows: rows, outputWidth: outputWidth,
            outputHeight: outputHeight, cleanAperture: item.cleanAperture, rotationDegrees: item.rotationDegrees,
            mirror: item.mirror)
    }

    /// Width x height, or `limitExceeded` above `maximumPixels` (also for products that overflow).
    @discardableResult
    private func checkPixels(_ width: Int, _ height: Int, context: String) throws(FormatError) -> Int {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, width >= 0, height >= 0, pixels <= limits.maximumPixels else {
            throw .limitExceeded(
                context: context, limit: "pixel count", value: overflow ? .max : UInt64(pixels),
                maximum: UInt64(limits.maximumPixels))
        }
        return pixels
    }
}
