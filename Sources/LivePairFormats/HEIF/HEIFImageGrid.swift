/// The payload of a `grid` image item: how its tiles (the `dimg` references, row-major) are laid out.
public struct HEIFImageGrid: Sendable, Equatable {
    /// Number of tile rows.
    public let rows: Int
    /// Number of tile columns.
    public let columns: Int
    /// Width of the assembled image (tiles are cropped to it on the right).
    public let outputWidth: Int
    /// Height of the assembled image (tiles are cropped to it at the bottom).
    public let outputHeight: Int

    /// Memberwise initializer.
    public init(rows: Int, columns: Int, outputWidth: Int, outputHeight: Int) {
        self.rows = rows
        self.columns = columns
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
    }

    /// Parses a grid item's data: version (0), flags (bit 0: 32-bit sizes), rows_minus_one,
    /// columns_minus_one, output width and height.
    public static func parse(_ data: [UInt8]) throws(FormatError) -> HEIFImageGrid {
        var reader = ByteReader(data, context: "grid item")
        let version = try reader.u8()
        guard version == 0 else { throw .unsupported(context: "grid item", reason: "grid version \(version)") }
        let flags = try reader.u8()
        let rows = Int(try reader.u8()) + 1
        let columns = Int(try reader.u8()) + 1
        let width: UInt64, height: UInt64
        if flags & 1 != 0 {
            width = UInt64(try reader.u32())
            height = UInt64(try reader.u32())
        } else {
            width = UInt64(try reader.u16())
            height = UInt64(try reader.u16())
        }
        guard width > 0, height > 0 else {
            throw .invalid(context: "grid item", reason: "output size \(width)x\(height) is empty")
        }
        return HEIFImageGrid(rows: rows, columns: columns, outputWidth: Int(width), outputHeight: Int(height))
    }
}
