/// A rectangle in unit coordinates of an upright image: (0, 0) is the top-left corner and
/// (1, 1) the bottom-right, as PhotoKit's `normalizedCropRect`.
public struct NormalizedRect: Hashable, Sendable {
    /// Left edge, 0 to 1.
    public let x: Double
    /// Top edge, 0 to 1.
    public let y: Double
    /// Width, 0 to 1.
    public let width: Double
    /// Height, 0 to 1.
    public let height: Double

    /// A rectangle clamped to the unit square.
    public init(x: Double, y: Double, width: Double, height: Double) {
        let left = min(max(x.isFinite ? x : 0, 0), 1), top = min(max(y.isFinite ? y : 0, 0), 1)
        self.x = left
        self.y = top
        self.width = min(max(width.isFinite ? width : 0, 0), 1 - left)
        self.height = min(max(height.isFinite ? height : 0, 0), 1 - top)
    }

    /// The whole image.
    public static let unit = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    /// The pixel rectangle this selects in an image of `width` x `height` (at least 1x1, inside
    /// the image).
    public func pixelRect(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let left = min(Int((x * Double(width)).rounded(.down)), width - 1)
        let top = min(Int((y * Double(height)).rounded(.down)), height - 1)
        let right = min(max(Int(((x + self.width) * Double(width)).rounded(.up)), left + 1), width)
        let bottom = min(max(Int(((y + self.height) * Double(height)).rounded(.up)), top + 1), height)
        return (left, top, right - left, bottom - top)
    }
}
