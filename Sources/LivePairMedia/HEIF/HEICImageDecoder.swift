import Dispatch
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
    /// - Parameter isCancelled: polled before each tile; when it returns true the decode stops
    ///   and throws `MediaError.cancelled`. A tile already inside FFmpeg finishes first.
    public func decode(
        _ recipe: HEIFImageRecipe, isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws(MediaError) -> PixelBuffer {
        try validate(recipe)
        if isCancelled() { throw .cancelled }
        var crop = (x: 0, y: 0, width: recipe.outputWidth, height: recipe.outputHeight)
        if let aperture = recipe.cleanAperture {
            guard let rectangle = aperture.rectangle(imageWidth: recipe.outputWidth, imageHeight: recipe.outputHeight)
            else { throw .invalidImage(reason: "item \(recipe.itemID): clean aperture is empty") }
            crop = rectangle
        }
        let placement = UprightPlacement(crop: crop, anticlockwiseDegrees: recipe.rotationDegrees, mirror: recipe.mirror)
        return try assemble(recipe, placement: placement, isCancelled: isCancelled)
    }

    /// Decodes `recipe`, stopping when `cancellation` is cancelled.
    public func decode(_ recipe: HEIFImageRecipe, cancellation: CancellationFlag) throws(MediaError) -> PixelBuffer {
        try decode(recipe, isCancelled: { cancellation.isCancelled })
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
        _ recipe: HEIFImageRecipe, placement: UprightPlacement, isCancelled: @escaping @Sendable () -> Bool
    ) throws(MediaError) -> PixelBuffer {
        let tileWidth = recipe.tiles[0].width, tileHeight = recipe.tiles[0].height
        let tileDecoder = HEVCImageDecoder(limits: limits, threadCount: recipe.tiles.count == 1 ? 0 : 1)
        // Every output pixel belongs to exactly one tile's visible part, so the storage needs no zeroing.
        return try PixelBuffer.makeUninitialized(width: placement.width, height: placement.height, format: .rgba8) {
            buffer, bytesPerRow throws(MediaError) in
            guard let base = buffer.baseAddress else { return }
            let stop = CancellationFlag()
            var failures = [MediaError?](repeating: nil, count: recipe.tiles.count)
            failures.withUnsafeMutableBufferPointer { failureSlots in
                let output = TileDestinations(base: UnsafeMutableRawPointer(base), failures: failureSlots)
                let place: @Sendable (Int) -> Void = { index in
                    if stop.isCancelled { return }
                    if isCancelled() {
                        output.record(.cancelled, at: index)
                        stop.cancel()
                        return
                    }
                    let x = (index % recipe.columns) * tileWidth, y = (index / recipe.columns) * tileHeight
                    guard let part = placement.visiblePart(x: x, y: y, width: tileWidth, height: tileHeight) else {
                        return  // wholly outside the output or the clean aperture
                    }
                    do throws(MediaError) {
                        let pixels = try tileDecoder.decodeTopLeft(
                            of: recipe.tiles[index], width: part.x + part.width - x, height: part.y + part.height - y)
                        placement.copy(part, from: pixels, tileX: x, tileY: y, to: output.base, destinationRow: bytesPerRow)
                    } catch {
                        output.record(error, at: index)
                        stop.cancel()
                    }
                }
                if recipe.tiles.count == 1 {
                    place(0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: recipe.tiles.count, execute: place)
                }
            }
            if failures.contains(where: { $0 == .cancelled }) { throw .cancelled }
            if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
        }
    }
}

/// The output pixels and per-tile failure slots shared by the parallel tile decodes.
///
/// `@unchecked Sendable` is sound here: every iteration writes only its own tile's upright
/// pixels (the placement is one-to-one) and its own failure slot, and `concurrentPerform`
/// returns only after all iterations, before the buffers are read or freed.
private struct TileDestinations: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let failures: UnsafeMutableBufferPointer<MediaError?>

    func record(_ error: MediaError, at index: Int) { failures[index] = error }
}
