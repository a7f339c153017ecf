public import LivePairFormats

/// Renders a HEIF image item upright from its `HEIFImageRecipe`: decodes the HEVC tiles in
/// parallel, lays them out in the grid (row-major; edge tiles cropped to the output size), and
/// applies the clean-aperture crop, the anticlockwise rotation and the mirror, in HEIF's order.
///
/// This does not use libheif, which cannot open iOS 17+ files; the recipe comes from
/// LivePairFormats' own HEIF parser.
public struct HEICImageDecoder: Sendable {
    /// The limits applied; `maximumPixels` bounds the assembled image and each tile.
    public let limits: ParseLimits

    /// A decoder applying `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// Decodes `recipe` to an upright RGBA buffer.
    ///
    /// Each tile is decoded, converted to RGBA and copied once, straight to its upright position
    /// (crop, rotation and mirror are folded into that copy); tiles the crop removes entirely are
    /// not decoded.
    ///
    /// - Parameters:
    ///   - reduction: 1 for the full size, or 2, 4 or 8 (one of `reductions(for:)`): each tile
    ///     is averaged down by that factor as it is converted, so the image comes out reduced
    ///     (each side divided, rounded up) without a full-size buffer or a second scaling pass,
    ///     HEIC's counterpart of JPEG's DCT scaling. The clean-aperture crop is rounded outwards
    ///     to whole reduced pixels.
    ///   - isCancelled: polled before each tile; when it returns true the decode stops and
    ///     throws `MediaError.cancelled`. A tile already inside FFmpeg finishes first.
    public func decode(
        _ recipe: HEIFImageRecipe, reduction: Int = 1, isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws(MediaError) -> PixelBuffer {
        try decode(recipe, reduction: reduction, isCancelled: isCancelled, tileBegun: {})
    }

    /// As `decode(_:reduction:isCancelled:)`, calling `tileBegun` as each tile's decode begins.
    private func decode(
        _ recipe: HEIFImageRecipe, reduction: Int, isCancelled: @escaping @Sendable () -> Bool,
        tileBegun: @escaping @Sendable () -> Void
    ) throws(MediaError) -> PixelBuffer {
        try validate(recipe)
        if isCancelled() { throw .cancelled }
        let placement = try placement(for: recipe, reduction: reduction)
        return try assemble(recipe, placement: placement, reduction: reduction, isCancelled: isCancelled, tileBegun: tileBegun)
    }

    /// Decodes `recipe`, stopping when `cancellation` is cancelled.
    public func decode(
        _ recipe: HEIFImageRecipe, reduction: Int = 1, cancellation: CancellationFlag
    ) throws(MediaError) -> PixelBuffer {
        // Each tile is counted on the flag as it begins.
        try decode(
            recipe, reduction: reduction, isCancelled: { cancellation.isCancelled }, tileBegun: { cancellation.notePieceBegun() })
    }

    /// The reductions `decode(_:reduction:isCancelled:)` accepts for `recipe`, weakest first:
    /// 1, then 2, 4 and 8 while the tile size divides by them (so reduced tiles still meet
    /// exactly at their seams).
    public static func reductions(for recipe: HEIFImageRecipe) -> [Int] {
        guard let tile = recipe.tiles.first else { return [1] }
        return [1, 2, 4, 8].filter { tile.width % $0 == 0 && tile.height % $0 == 0 }
    }

    /// The upright size `decode(_:reduction:isCancelled:)` returns for `recipe`.
    public func uprightSize(of recipe: HEIFImageRecipe, reduction: Int = 1) throws(MediaError) -> (width: Int, height: Int) {
        try validate(recipe)
        let placement = try placement(for: recipe, reduction: reduction)
        return (placement.width, placement.height)
    }

    /// Where each reduced grid pixel goes: the clean aperture (rounded outwards at a reduction),
    /// then rotation and mirror.
    private func placement(for recipe: HEIFImageRecipe, reduction: Int) throws(MediaError) -> UprightPlacement {
        guard Self.reductions(for: recipe).contains(reduction) else {
            let tile = recipe.tiles[0]
            throw .unsupported("item \(recipe.itemID): reduction by 1/\(reduction) of \(tile.width)x\(tile.height) tiles")
        }
        var crop = (x: 0, y: 0, width: recipe.outputWidth, height: recipe.outputHeight)
        if let aperture = recipe.cleanAperture {
            guard let rectangle = aperture.rectangle(imageWidth: recipe.outputWidth, imageHeight: recipe.outputHeight)
            else { throw .invalidImage(reason: "item \(recipe.itemID): clean aperture is empty") }
            crop = rectangle
        }
        if reduction > 1 {
            let left = crop.x / reduction, top = crop.y / reduction
            let right = (crop.x + crop.width + reduction - 1) / reduction
            let bottom = (crop.y + crop.height + reduction - 1) / reduction
            crop = (left, top, right - left, bottom - top)
        }
        return UprightPlacement(crop: crop, anticlockwiseDegrees: recipe.rotationDegrees, mirror: recipe.mirror)
    }

    /// Checks the grid geometry before anything is allocated.
    private func validate(_ recipe: HEIFImageRecipe) throws(MediaError) {
        let item = "item \(recipe.itemID)"
        guard recipe.columns > 0, recipe.rows > 0 else {
            throw .invalidImage(reason: "\(item): grid of \(recipe.columns)x\(recipe.rows) tiles")
        }
        let (tileCount, overflow) = recipe.columns.multipliedReportingOverflow(by: recipe.rows)
        guard !overflow, recipe.tiles.count == tileCount else {
            throw .invalidImage(
                reason: "\(item): \(recipe.tiles.count) tiles for a grid of \(recipe.columns)x\(recipe.rows)")
        }
        try MediaError.checkDimensions(
            width: recipe.outputWidth, height: recipe.outputHeight, limit: limits.maximumPixels, context: item)
        guard [0, 90, 180, 270].contains(recipe.rotationDegrees) else {
            throw .unsupported("\(item): rotation by \(recipe.rotationDegrees) degrees")
        }
        let first = recipe.tiles[0]
        try MediaError.checkDimensions(
            width: first.width, height: first.height, limit: limits.maximumPixels, context: "\(item) tile")
        for tile in recipe.tiles where tile.width != first.width || tile.height != first.height {
            throw .invalidImage(
                reason: "\(item): tile \(tile.itemID) is \(tile.width)x\(tile.height), others \(first.width)x\(first.height)")
        }
        let (coveredWidth, widthOverflow) = first.width.multipliedReportingOverflow(by: recipe.columns)
        let (coveredHeight, heightOverflow) = first.height.multipliedReportingOverflow(by: recipe.rows)
        guard !widthOverflow, !heightOverflow, coveredWidth >= recipe.outputWidth, coveredHeight >= recipe.outputHeight
        else {
            throw .invalidImage(
                reason: "\(item): \(recipe.columns)x\(recipe.rows) tiles of \(first.width)x\(first.height) "
                    + "do not cover \(recipe.outputWidth)x\(recipe.outputHeight)")
        }
        // Tiles wholly outside the output would mean a grid larger than needed: accepted, skipped.
    }

    /// Decodes the tiles in parallel, each copied straight into its upright place.
    private func assemble(
        _ recipe: HEIFImageRecipe, placement: UprightPlacement, reduction: Int,
        isCancelled: @escaping @Sendable () -> Bool, tileBegun: @escaping @Sendable () -> Void
    ) throws(MediaError) -> PixelBuffer {
        // Grid coordinates here are reduced ones: a tile covers its size divided by `reduction`.
        let tileWidth = recipe.tiles[0].width / reduction, tileHeight = recipe.tiles[0].height / reduction
        let tileDecoder = HEVCImageDecoder(limits: limits, threadCount: recipe.tiles.count == 1 ? 0 : 1)
        // Every output pixel belongs to exactly one tile's visible part, so the storage needs no zeroing.
        return try PixelBuffer.makeUninitialized(width: placement.width, height: placement.height, format: .rgba8) {
            buffer, bytesPerRow throws(MediaError) in
            guard let base = buffer.baseAddress else { return }
            try ParallelPieces.run(count: recipe.tiles.count, output: UnsafeMutableRawPointer(base), isCancelled: isCancelled) {
                index, output throws(MediaError) in
                tileBegun()
                let x = (index % recipe.columns) * tileWidth, y = (index / recipe.columns) * tileHeight
                guard let part = placement.visiblePart(x: x, y: y, width: tileWidth, height: tileHeight) else {
                    return  // wholly outside the output or the clean aperture
                }
                let pixels = try tileDecoder.decodeTopLeft(
                    of: recipe.tiles[index], width: part.x + part.width - x, height: part.y + part.height - y,
                    reduction: reduction)
                placement.copy(part, from: pixels, tileX: x, tileY: y, to: output, destinationRow: bytesPerRow)
            }
        }
    }
}
