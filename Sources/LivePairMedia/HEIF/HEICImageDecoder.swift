import Dispatch
public import LivePairFormats

/// Renders a HEIF image item upright from its `HEIFImageRecipe`: decodes the HEVC tiles in
/// parallel, lays them out in the grid, then applies the clean-aperture crop, the rotation and
/// the mirror, in that order (HEIF's order).
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
    /// - Parameter isCancelled: polled before each tile and between stages; when it returns true
    ///   the decode stops and throws `MediaError.cancelled`. A tile already in FFmpeg finishes first.
    public func decode(
        _ recipe: HEIFImageRecipe, isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws(MediaError) -> PixelBuffer {
        try validate(recipe)
        if isCancelled() { throw .cancelled }
        var image = try assembleGrid(recipe, isCancelled: isCancelled)
        if let aperture = recipe.cleanAperture {
            guard let rectangle = aperture.rectangle(imageWidth: image.width, imageHeight: image.height) else {
                throw .invalidImage(reason: "item \(recipe.itemID): clean aperture is empty")
            }
            if isCancelled() { throw .cancelled }
            image = try image.cropped(x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height)
        }
        if recipe.rotationDegrees != 0 {
            if isCancelled() { throw .cancelled }
            image = try image.rotated(anticlockwiseDegrees: recipe.rotationDegrees)
        }
        if let axis = recipe.mirror {
            if isCancelled() { throw .cancelled }
            image = try image.mirrored(axis)
        }
        return image
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

    /// Decodes every tile straight into its place in the output buffer, in parallel.
    private func assembleGrid(
        _ recipe: HEIFImageRecipe, isCancelled: @escaping @Sendable () -> Bool
    ) throws(MediaError) -> PixelBuffer {
        let tileWidth = recipe.tiles[0].width, tileHeight = recipe.tiles[0].height
        let tileDecoder = HEVCImageDecoder(limits: limits, threadCount: recipe.tiles.count == 1 ? 0 : 1)
        return try PixelBuffer.make(width: recipe.outputWidth, height: recipe.outputHeight, format: .rgba8) {
            buffer, bytesPerRow throws(MediaError) in
            guard let base = buffer.baseAddress else { return }
            let stop = CancellationFlag()
            var failures = [MediaError?](repeating: nil, count: recipe.tiles.count)
            failures.withUnsafeMutableBufferPointer { failureSlots in
                let output = TileDestinations(base: base, failures: failureSlots)
                let place: @Sendable (Int) -> Void = { index in
                    if stop.isCancelled { return }
                    if isCancelled() {
                        output.record(.cancelled, at: index)
                        stop.cancel()
                        return
                    }
                    let column = index % recipe.columns, row = index / recipe.columns
                    let x = column * tileWidth, y = row * tileHeight
                    guard x < recipe.outputWidth, y < recipe.outputHeight else { return }
                    let width = min(tileWidth, recipe.outputWidth - x)
                    let height = min(tileHeight, recipe.outputHeight - y)
                    do throws(MediaError) {
                        try tileDecoder.decode(
                            recipe.tiles[index], into: output.base + y * bytesPerRow + x * 4, bytesPerRow: bytesPerRow,
                            width: width, height: height)
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
            if let cancelled = failures.first(where: { $0 == .cancelled }), let error = cancelled { throw error }
            if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
        }
    }
}

/// The output pixels and per-tile failure slots shared by the parallel tile decodes.
///
/// `@unchecked Sendable` is sound here: every iteration writes only its own tile's rectangle of
/// pixels and its own failure slot, and `concurrentPerform` returns only after all iterations,
/// before the buffers are read or freed.
private struct TileDestinations: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let failures: UnsafeMutableBufferPointer<MediaError?>

    func record(_ error: MediaError, at index: Int) { failures[index] = error }
}
