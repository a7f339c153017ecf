#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An uncompressed image in memory: rows of tightly described pixels, top row first.
///
/// Values are immutable and `Sendable`; the transform helpers (`cropped`, `rotated`, `mirrored`,
/// `scaled`) return new buffers. Rows may be padded: `bytesPerRow` is at least
/// `width * format.bytesPerPixel`, and `storage` may extend past the last row (buffers made by
/// this module keep a few spare bytes there, because libswscale's SIMD code reads slightly past
/// the end of an image). Equality compares size, format and pixels, ignoring padding.
public struct PixelBuffer: Sendable, Equatable {
    /// How one pixel is stored.
    public enum Format: Sendable, Equatable {
        /// Red, green, blue, alpha: one byte each, in that order (alpha 255 when opaque).
        case rgba8
        /// One byte of luminance.
        case gray8

        /// Bytes per pixel.
        public var bytesPerPixel: Int {
            switch self {
            case .rgba8: return 4
            case .gray8: return 1
            }
        }
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Distance in bytes between the starts of two consecutive rows.
    public let bytesPerRow: Int
    /// The pixel format.
    public let format: Format
    /// The pixels: `height` rows of `bytesPerRow` bytes.
    public let storage: [UInt8]

    /// Wraps `storage`; throws `invalidImage` when the sizes do not describe it.
    public init(width: Int, height: Int, bytesPerRow: Int? = nil, format: Format, storage: [UInt8]) throws(MediaError) {
        guard width > 0, height > 0 else { throw .invalidImage(reason: "pixel buffer size \(width)x\(height)") }
        let (minimumRow, rowOverflow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let rowBytes = bytesPerRow ?? minimumRow
        guard !rowOverflow, rowBytes >= minimumRow else {
            throw .invalidImage(reason: "row of \(rowBytes) bytes cannot hold \(width) pixels")
        }
        let (total, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        guard !overflow, storage.count >= total else {
            throw .invalidImage(reason: "\(storage.count) bytes cannot hold \(height) rows of \(rowBytes) bytes")
        }
        self.init(unchecked: width, height: height, bytesPerRow: rowBytes, format: format, storage: storage)
    }

    /// Wraps storage whose sizes the caller has already validated.
    init(unchecked width: Int, height: Int, bytesPerRow: Int, format: Format, storage: [UInt8]) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.format = format
        self.storage = storage
    }

    /// A buffer of `width` x `height` with tightly packed rows, filled by `fill`, which receives
    /// the zeroed storage and the row stride. Sizes must be positive and already validated.
    static func make(
        width: Int, height: Int, format: Format,
        fill: (UnsafeMutableBufferPointer<UInt8>, _ bytesPerRow: Int) throws(MediaError) -> Void
    ) throws(MediaError) -> PixelBuffer {
        let bytesPerRow = width * format.bytesPerPixel
        var storage = [UInt8](repeating: 0, count: bytesPerRow * height + trailingSlack)
        var failure: MediaError?
        storage.withUnsafeMutableBufferPointer { buffer in
            do throws(MediaError) { try fill(buffer, bytesPerRow) } catch { failure = error }
        }
        if let failure { throw failure }
        return PixelBuffer(unchecked: width, height: height, bytesPerRow: bytesPerRow, format: format, storage: storage)
    }

    /// Spare bytes kept after the last row of buffers this module allocates.
    static let trailingSlack = 64

    /// True when `storage` has `trailingSlack` spare bytes after the last row.
    var hasTrailingSlack: Bool { storage.count - bytesPerRow * height >= Self.trailingSlack }

    /// Number of pixels (`width * height`).
    public var pixelCount: Int { width * height }

    /// The bytes of the pixel at (`x`, `y`), or nil outside the image.
    public func pixel(x: Int, y: Int) -> ArraySlice<UInt8>? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let start = y * bytesPerRow + x * format.bytesPerPixel
        return storage[start..<start + format.bytesPerPixel]
    }

    /// The pixels with rows packed tightly (no padding): `width * height * bytesPerPixel` bytes.
    public var packedBytes: [UInt8] {
        let rowBytes = width * format.bytesPerPixel
        if rowBytes == bytesPerRow { return Array(storage.prefix(rowBytes * height)) }
        var packed = [UInt8]()
        packed.reserveCapacity(rowBytes * height)
        for row in 0..<height {
            let start = row * bytesPerRow
            packed.append(contentsOf: storage[start..<start + rowBytes])
        }
        return packed
    }

    /// True when both buffers have the same size and format and the same pixel bytes (row
    /// padding and trailing bytes are not compared).
    public static func == (left: PixelBuffer, right: PixelBuffer) -> Bool {
        guard left.width == right.width, left.height == right.height, left.format == right.format else { return false }
        let rowBytes = left.width * left.format.bytesPerPixel
        // memcmp per row: a slice comparison goes element by element through generic code,
        // which in a debug build made this the hottest function of the test suite.
        return left.storage.withUnsafeBytes { mine in
            right.storage.withUnsafeBytes { theirs in
                guard let a = mine.baseAddress, let b = theirs.baseAddress else { return rowBytes == 0 || left.height == 0 }
                for row in 0..<left.height where memcmp(a + row * left.bytesPerRow, b + row * right.bytesPerRow, rowBytes) != 0 {
                    return false
                }
                return true
            }
        }
    }

    /// The mean absolute difference per byte between two buffers of equal size and format
    /// (0 identical, 255 opposite), or nil when sizes or formats differ. Used to compare decodes.
    public func meanAbsoluteDifference(to other: PixelBuffer) -> Double? {
        guard width == other.width, height == other.height, format == other.format else { return nil }
        let rowBytes = width * format.bytesPerPixel
        var total: UInt64 = 0
        storage.withUnsafeBufferPointer { mine in
            other.storage.withUnsafeBufferPointer { theirs in
                for row in 0..<height {
                    let a = row * bytesPerRow, b = row * other.bytesPerRow
                    var rowTotal: UInt64 = 0
                    for column in 0..<rowBytes {
                        let left = Int(mine[a + column]), right = Int(theirs[b + column])
                        rowTotal &+= UInt64(abs(left - right))
                    }
                    total &+= rowTotal
                }
            }
        }
        return Double(total) / Double(rowBytes * height)
    }
}
