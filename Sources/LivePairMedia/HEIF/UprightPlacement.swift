import LivePairFormats

/// Maps pixels of an assembled HEIF grid to their place in the upright image, after the
/// clean-aperture crop, the anticlockwise rotation and the mirror (in HEIF's order), so that
/// each decoded tile is copied once, straight to its final position.
///
/// The map is affine on whole pixels: upright x = `xFromX * x + xFromY * y + xOffset`, and
/// likewise for y. It agrees exactly with `PixelBuffer.cropped`, `rotated` and `mirrored`
/// applied one after the other (the tests compare both).
struct UprightPlacement: Sendable {
    /// The crop rectangle in grid coordinates (the whole grid when there is no `clap`).
    let crop: (x: Int, y: Int, width: Int, height: Int)
    /// Size of the upright image.
    let width: Int, height: Int
    private(set) var xFromX = 1, xFromY = 0, xOffset = 0
    private(set) var yFromX = 0, yFromY = 1, yOffset = 0

    /// The placement for a grid of `gridWidth` x `gridHeight` cropped to `crop`, turned
    /// `anticlockwiseDegrees` (a multiple of 90) and mirrored about `mirror`.
    init(
        crop: (x: Int, y: Int, width: Int, height: Int), anticlockwiseDegrees: Int, mirror: MirrorAxis?
    ) {
        self.crop = crop
        var currentWidth = crop.width, currentHeight = crop.height
        xOffset = -crop.x
        yOffset = -crop.y
        let quarterTurns = ((anticlockwiseDegrees / 90) % 4 + 4) % 4
        for _ in 0..<quarterTurns {
            // One quarter turn anticlockwise: (x, y) -> (y, W-1-x).
            (xFromX, xFromY, xOffset, yFromX, yFromY, yOffset) =
                (yFromX, yFromY, yOffset, -xFromX, -xFromY, currentWidth - 1 - xOffset)
            swap(&currentWidth, &currentHeight)
        }
        switch mirror {
        case .horizontal?:  // top and bottom swap: y -> H-1-y
            (yFromX, yFromY, yOffset) = (-yFromX, -yFromY, currentHeight - 1 - yOffset)
        case .vertical?:  // left and right swap: x -> W-1-x
            (xFromX, xFromY, xOffset) = (-xFromX, -xFromY, currentWidth - 1 - xOffset)
        case nil:
            break
        }
        width = currentWidth
        height = currentHeight
    }

    /// The part of the grid rectangle at (`x`, `y`) of `width` x `height` that survives the crop,
    /// or nil when the crop removes all of it.
    func visiblePart(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        let left = max(x, crop.x), top = max(y, crop.y)
        let right = min(x + width, crop.x + crop.width), bottom = min(y + height, crop.y + crop.height)
        guard right > left, bottom > top else { return nil }
        return (left, top, right - left, bottom - top)
    }

    /// Copies RGBA pixels of the grid rectangle `part` from `tile` (whose top-left pixel is grid
    /// position (`tileX`, `tileY`)) into the upright image at `destination` (rows
    /// `destinationRow` bytes apart). Works in 64 x 64 blocks so that column-wise writes of
    /// quarter turns stay in cache.
    func copy(
        _ part: (x: Int, y: Int, width: Int, height: Int), from tile: PixelBuffer, tileX: Int, tileY: Int,
        to destination: UnsafeMutableRawPointer, destinationRow: Int
    ) {
        let step = xFromX * 4 + yFromX * destinationRow
        tile.storage.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            var blockY = part.y
            while blockY < part.y + part.height {
                let blockBottom = min(blockY + 64, part.y + part.height)
                var blockX = part.x
                while blockX < part.x + part.width {
                    let count = min(64, part.x + part.width - blockX)
                    for y in blockY..<blockBottom {
                        var from = base + (y - tileY) * tile.bytesPerRow + (blockX - tileX) * 4
                        let uprightX = xFromX * blockX + xFromY * y + xOffset
                        let uprightY = yFromX * blockX + yFromY * y + yOffset
                        var to = destination + uprightY * destinationRow + uprightX * 4
                        for _ in 0..<count {
                            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
                            from += 4
                            to += step
                        }
                    }
                    blockX += count
                }
                blockY = blockBottom
            }
        }
    }
}
