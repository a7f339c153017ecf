/// The decoder configuration of an HEVC image item (its `hvcC` property).
public struct HEVCDecoderConfiguration: Sendable, Equatable {
    /// The whole `hvcC` payload, usable as FFmpeg `extradata`.
    public let record: [UInt8]
    /// Bytes in each NAL unit length prefix of the item data (1, 2 or 4).
    public let nalLengthSize: Int
    /// The parameter-set NAL units (VPS, SPS, PPS, SEI...) in record order, without length prefixes.
    public let parameterSets: [[UInt8]]

    /// Memberwise initializer.
    public init(record: [UInt8], nalLengthSize: Int, parameterSets: [[UInt8]]) {
        self.record = record
        self.nalLengthSize = nalLengthSize
        self.parameterSets = parameterSets
    }
}

/// One coded HEVC image: a grid tile or a whole (non-grid) image item.
public struct HEVCTile: Sendable, Equatable {
    /// The HEIF item id.
    public let itemID: UInt32
    /// The item's `hvcC`.
    public let configuration: HEVCDecoderConfiguration
    /// The item's data: NAL units, each preceded by a big-endian length of `configuration.nalLengthSize` bytes.
    public let data: [UInt8]
    /// The coded size from the item's `ispe`.
    public let width: Int
    /// The coded size from the item's `ispe`.
    public let height: Int

    /// Memberwise initializer.
    public init(itemID: UInt32, configuration: HEVCDecoderConfiguration, data: [UInt8], width: Int, height: Int) {
        self.itemID = itemID
        self.configuration = configuration
        self.data = data
        self.width = width
        self.height = height
    }
}

/// A clean-aperture (`clap`) crop, as rational numbers.
public struct CleanAperture: Sendable, Equatable {
    /// Width as numerator/denominator.
    public let widthN: Int32, widthD: UInt32
    /// Height as numerator/denominator.
    public let heightN: Int32, heightD: UInt32
    /// Horizontal offset of the centre from the image centre.
    public let horizontalOffsetN: Int32, horizontalOffsetD: UInt32
    /// Vertical offset of the centre from the image centre.
    public let verticalOffsetN: Int32, verticalOffsetD: UInt32

    /// Memberwise initializer.
    public init(
        widthN: Int32, widthD: UInt32, heightN: Int32, heightD: UInt32, horizontalOffsetN: Int32,
        horizontalOffsetD: UInt32, verticalOffsetN: Int32, verticalOffsetD: UInt32
    ) {
        self.widthN = widthN
        self.widthD = widthD
        self.heightN = heightN
        self.heightD = heightD
        self.horizontalOffsetN = horizontalOffsetN
        self.horizontalOffsetD = horizontalOffsetD
        self.verticalOffsetN = verticalOffsetN
        self.verticalOffsetD = verticalOffsetD
    }

    /// The crop rectangle in pixels of an image of `width` x `height` (ISO/IEC 14496-12 `clap`
    /// semantics, rounded to whole pixels and clamped to the image), or nil when degenerate.
    public func rectangle(imageWidth width: Int, imageHeight height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard widthD != 0, heightD != 0, horizontalOffsetD != 0, verticalOffsetD != 0 else { return nil }
        let cropWidth = Double(widthN) / Double(widthD)
        let cropHeight = Double(heightN) / Double(heightD)
        let centreX = Double(horizontalOffsetN) / Double(horizontalOffsetD) + Double(width - 1) / 2
        let centreY = Double(verticalOffsetN) / Double(verticalOffsetD) + Double(height - 1) / 2
        let left = Int((centreX - (cropWidth - 1) / 2).rounded())
        let top = Int((centreY - (cropHeight - 1) / 2).rounded())
        let x = max(0, left), y = max(0, top)
        let w = min(width - x, Int(cropWidth.rounded())), h = min(height - y, Int(cropHeight.rounded()))
        guard w > 0, h > 0 else { return nil }
        return (x, y, w, h)
    }
}

/// Which axis an `imir` property mirrors about.
public enum MirrorAxis: Sendable, Equatable {
    /// `imir` axis 0: top and bottom swap (mirror about a horizontal axis).
    case horizontal
    /// `imir` axis 1: left and right swap (mirror about a vertical axis).
    case vertical
}

/// Everything a decoder needs to produce one HEIF image item upright: the coded tiles, how they
/// are laid out, and the transforms to apply afterwards, in HEIF order (crop, then rotate, then mirror).
public struct HEIFImageRecipe: Sendable, Equatable {
    /// The item this recipe renders (a `grid` or an `hvc1` item).
    public let itemID: UInt32
    /// The coded tiles in row-major order; one tile for a non-grid image.
    public let tiles: [HEVCTile]
    /// Tile columns (1 for a non-grid image).
    public let columns: Int
    /// Tile rows (1 for a non-grid image).
    public let rows: Int
    /// Size of the assembled image before transforms (the grid's output size, or the tile size).
    public let outputWidth: Int
    /// Size of the assembled image before transforms.
    public let outputHeight: Int
    /// The `clap` crop, if any.
    public let cleanAperture: CleanAperture?
    /// The `irot` rotation, anticlockwise, in degrees: 0, 90, 180 or 270.
    public let rotationDegrees: Int
    /// The `imir` mirror, if any.
    public let mirror: MirrorAxis?

    /// Memberwise initializer.
    public init(
        itemID: UInt32, tiles: [HEVCTile], columns: Int, rows: Int, outputWidth: Int, outputHeight: Int,
        cleanAperture: CleanAperture?, rotationDegrees: Int, mirror: MirrorAxis?
    ) {
        self.itemID = itemID
        self.tiles = tiles
        self.columns = columns
        self.rows = rows
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.cleanAperture = cleanAperture
        self.rotationDegrees = rotationDegrees
        self.mirror = mirror
    }
}
