/// A window onto part of another byte source: offsets are relative to the window's start.
/// Used to parse the MP4 embedded in a motion photo in place, without copying it.
public struct SubrangeByteSource: ByteSource {
    /// The source the window looks into.
    public let base: any ByteSource
    /// Where the window starts in `base`.
    public let offset: UInt64
    /// The window's length (clamped to what `base` holds).
    public let size: UInt64
    /// A name for error messages.
    public let name: String

    /// A window of `length` bytes at `offset` in `base`; the length is clamped to the end of `base`.
    public init(base: any ByteSource, offset: UInt64, length: UInt64) {
        self.base = base
        self.offset = min(offset, base.size)
        self.size = min(length, base.size - self.offset)
        self.name = "\(base.name)[\(offset)..<\(offset + length)]"
    }

    /// Reads up to `count` bytes at `position` within the window.
    public func read(at position: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        guard count > 0, position < size else { return [] }
        return try base.read(at: offset + position, count: Int(min(UInt64(count), size - position)))
    }
}
