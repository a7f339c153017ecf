public import LivePairMedia
import LivePairFormats

extension PixelBuffer {
    /// The image turned upright as an Exif orientation (1 to 8) says; other values leave it as is.
    public func applyingExifOrientation(_ orientation: Int?) throws(MediaError) -> PixelBuffer {
        switch orientation ?? 1 {
        case 2: return try mirrored(.vertical)  // left and right swapped
        case 3: return try rotated(anticlockwiseDegrees: 180)
        case 4: return try mirrored(.horizontal)  // top and bottom swapped
        case 5: return try rotated(anticlockwiseDegrees: 90).mirrored(.horizontal)  // transpose
        case 6: return try rotated(anticlockwiseDegrees: 270)
        case 7: return try rotated(anticlockwiseDegrees: 270).mirrored(.horizontal)  // transverse
        case 8: return try rotated(anticlockwiseDegrees: 90)
        default: return self
        }
    }
}

/// Helpers on Exif orientation values.
enum ExifOrientation {
    /// True when the orientation swaps width and height (5 to 8).
    static func swapsAxes(_ orientation: Int?) -> Bool { (5...8).contains(orientation ?? 1) }
}
