public import LivePairFormats

extension PixelBuffer {
    /// The rectangle at (`x`, `y`) of `width` x `height`; throws `invalidImage` when it is empty
    /// or not inside the image.
    public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) throws(MediaError) -> PixelBuffer {
        try cropped(x: x, y: y, width: cropWidth, height: cropHeight, packing: false)
    }

    /// `cropped(x:y:width:height:)`; with `packing`, a full-size crop still copies so that the
    /// result has no row padding.
    func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int, packing: Bool) throws(MediaError)
        -> PixelBuffer
    {
        guard x >= 0, y >= 0, cropWidth > 0, cropHeight > 0, cropWidth <= width - x, cropHeight <= height - y else {
            throw .invalidImage(
                reason: "crop \(cropWidth)x\(cropHeight) at (\(x), \(y)) is outside a \(width)x\(height) image")
        }
        let isPacked = bytesPerRow == width * format.bytesPerPixel
        if x == 0, y == 0, cropWidth == width, cropHeight == height, isPacked || !packing { return self }
        let pixelBytes = format.bytesPerPixel
        return try Self.make(width: cropWidth, height: cropHeight, format: format) { destination, destinationRow in
            storage.withUnsafeBytes { source in
                for row in 0..<cropHeight {
                    let from = (y + row) * bytesPerRow + x * pixelBytes
                    let to = row * destinationRow
                    UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(destination)[to..<to + destinationRow])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<from + destinationRow]))
                }
            }
        }
    }

    /// The image turned anticlockwise by `degrees` (0, 90, 180 or 270; multiples of 90 outside
    /// that range are normalised), as a HEIF `irot` property describes. A quarter turn swaps
    /// width and height.
    public func rotated(anticlockwiseDegrees degrees: Int) throws(MediaError) -> PixelBuffer {
        guard degrees % 90 == 0 else { throw .unsupported("rotation by \(degrees) degrees") }
        let quarterTurns = ((degrees / 90) % 4 + 4) % 4
        if quarterTurns == 0 { return self }
        let turned = quarterTurns % 2 == 1
        let newWidth = turned ? height : width
        let newHeight = turned ? width : height
        let kind: PixelRemap = quarterTurns == 1 ? .anticlockwise90 : quarterTurns == 2 ? .halfTurn : .clockwise90
        return try remapped(width: newWidth, height: newHeight, kind)
    }

    /// The image mirrored as a HEIF `imir` property describes: `.horizontal` swaps top and
    /// bottom, `.vertical` swaps left and right.
    public func mirrored(_ axis: MirrorAxis) throws(MediaError) -> PixelBuffer {
        try remapped(width: width, height: height, axis == .horizontal ? .topBottom : .leftRight)
    }

    /// Builds a `newWidth` x `newHeight` buffer where each destination pixel is read from the
    /// source position `kind` names.
    private func remapped(width newWidth: Int, height newHeight: Int, _ kind: PixelRemap) throws(MediaError) -> PixelBuffer {
        let sourceWidth = width, sourceHeight = height, sourceRow = bytesPerRow, pixelBytes = format.bytesPerPixel
        return try Self.make(width: newWidth, height: newHeight, format: format) { destination, destinationRow in
            storage.withUnsafeBytes { source in
                guard let from = source.baseAddress, let to = destination.baseAddress else { return }
                let geometry = RemapGeometry(
                    sourceWidth: sourceWidth, sourceHeight: sourceHeight, sourceRow: sourceRow,
                    destinationWidth: newWidth, destinationHeight: newHeight, destinationRow: destinationRow)
                geometry.remap(kind, from: from, to: UnsafeMutableRawPointer(to), pixelSize: pixelBytes)
            }
        }
    }
}

/// Where a destination pixel comes from in the source.
enum PixelRemap {
    /// Destination (x, y) reads source (W-1-y, x).
    case anticlockwise90
    /// Destination (x, y) reads source (y, H-1-x).
    case clockwise90
    /// Destination (x, y) reads source (W-1-x, H-1-y).
    case halfTurn
    /// Destination (x, y) reads source (x, H-1-y).
    case topBottom
    /// Destination (x, y) reads source (W-1-x, y).
    case leftRight
}

/// The sizes and strides of one remap, with the copy loop.
///
/// Every destination row reads the source along a straight line: from a start offset, moving a
/// fixed number of bytes per destination pixel (a whole source row for quarter turns). Quarter
/// turns walk the destination in 64 x 64 blocks so those column-wise reads stay in cache.
struct RemapGeometry {
    let sourceWidth: Int, sourceHeight: Int, sourceRow: Int
    let destinationWidth: Int, destinationHeight: Int, destinationRow: Int

    /// Byte offset of the source pixel for destination (0, `y`), and the byte step per destination x.
    private func line(_ kind: PixelRemap, y: Int, pixelSize: Int) -> (start: Int, step: Int) {
        switch kind {
        case .anticlockwise90: return ((sourceWidth - 1 - y) * pixelSize, sourceRow)
        case .clockwise90: return ((sourceHeight - 1) * sourceRow + y * pixelSize, -sourceRow)
        case .halfTurn: return ((sourceHeight - 1 - y) * sourceRow + (sourceWidth - 1) * pixelSize, -pixelSize)
        case .topBottom: return ((sourceHeight - 1 - y) * sourceRow, pixelSize)
        case .leftRight: return (y * sourceRow + (sourceWidth - 1) * pixelSize, -pixelSize)
        }
    }

    /// Copies every destination pixel from its source position. The inner loops are written
    /// out for 4-byte and 1-byte pixels (rather than generically) so that unoptimised debug
    /// builds also rotate a 24-megapixel image in well under a second.
    func remap(_ kind: PixelRemap, from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, pixelSize: Int) {
        let isQuarterTurn = kind == .anticlockwise90 || kind == .clockwise90
        let blockWidth = isQuarterTurn ? 64 : max(destinationWidth, 1)
        let blockHeight = isQuarterTurn ? 64 : max(destinationHeight, 1)
        var blockY = 0
        while blockY < destinationHeight {
            let yEnd = min(blockY + blockHeight, destinationHeight)
            var blockX = 0
            while blockX < destinationWidth {
                let xEnd = min(blockX + blockWidth, destinationWidth)
                for y in blockY..<yEnd {
                    let (start, step) = line(kind, y: y, pixelSize: pixelSize)
                    let from = source + start + blockX * step
                    let to = destination + y * destinationRow + blockX * pixelSize
                    if pixelSize == 4 {
                        Self.copyLine32(from: from, step: step, to: to, count: xEnd - blockX)
                    } else {
                        Self.copyLine8(from: from, step: step, to: to, count: xEnd - blockX)
                    }
                }
                blockX = xEnd
            }
            blockY = yEnd
        }
    }

    private static func copyLine32(from source: UnsafeRawPointer, step: Int, to destination: UnsafeMutableRawPointer, count: Int) {
        var sourcePixel = source
        var destinationPixel = destination
        for _ in 0..<count {
            destinationPixel.storeBytes(of: sourcePixel.loadUnaligned(as: UInt32.self), as: UInt32.self)
            sourcePixel += step
            destinationPixel += 4
        }
    }

    private static func copyLine8(from source: UnsafeRawPointer, step: Int, to destination: UnsafeMutableRawPointer, count: Int) {
        var sourcePixel = source
        var destinationPixel = destination
        for _ in 0..<count {
            destinationPixel.storeBytes(of: sourcePixel.load(as: UInt8.self), as: UInt8.self)
            sourcePixel += step
            destinationPixel += 1
        }
    }
}
