/// A size in pixels, for target sizes of requests and sizes of results.
///
/// `PixelSize.maximum` is the sentinel that asks for the original size (PhotoKit's
/// `PHImageManagerMaximumSize`).
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    /// A size of `width` x `height`; negative values are clamped to zero.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The original-size sentinel: a request with this target size gets the image at its full
    /// size, whatever the content mode and resize mode say.
    public static let maximum = PixelSize(width: Int.max, height: Int.max)

    /// True for the original-size sentinel (or any size without a usable bound).
    public var isMaximum: Bool { width == Int.max || height == Int.max || width == 0 || height == 0 }

    /// `WIDTHxHEIGHT`, or `maximum`.
    public var description: String { isMaximum ? "maximum" : "\(width)x\(height)" }

    /// The same size with width and height swapped.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }
}

/// PhotoKit's name for the original-size sentinel: pass it as a target size to get the full image.
public let ImageManagerMaximumSize = PixelSize.maximum
