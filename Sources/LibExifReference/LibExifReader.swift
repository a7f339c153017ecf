import CExif

/// Why libexif could not read an Exif block.
public struct LibExifError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var reason: String
    /// The reason, for test failures and the benchmark's output.
    public var description: String { reason }
}

/// The values libexif reads from an Exif block, for comparison with LivePair's own reader.
public struct LibExifSummary: Sendable, Equatable {
    /// IFD0 Make.
    public var make: String?
    /// IFD0 Model.
    public var model: String?
    /// IFD0 Orientation (1-8).
    public var orientation: Int?
    /// Exif DateTimeOriginal, as stored (`YYYY:MM:DD HH:MM:SS`).
    public var dateTimeOriginal: String?
}

/// Reads an Exif block with libexif 0.6.24. LivePair identifies files with its own TIFF reader
/// (see docs/benchmarks.md, `livepair-bench exif`, for why); libexif serves as an independent
/// cross-check in tests and as the baseline of that benchmark. This module is a reference, like
/// exiftool: no shipped module links it.
public enum LibExifReader {
    /// Parses `tiff` (the bytes after `Exif\0\0`, starting with `II*\0` or `MM\0*`).
    public static func read(tiff: [UInt8]) throws(LibExifError) -> LibExifSummary {
        let block = Array("Exif".utf8) + [0, 0] + tiff
        guard block.count <= Int(UInt32.max),
            let data = block.withUnsafeBufferPointer({ exif_data_new_from_data($0.baseAddress, UInt32($0.count)) })
        else { throw LibExifError(reason: "libexif could not read the Exif block") }
        defer { exif_data_unref(data) }
        // libexif returns an empty structure rather than nothing for bytes it cannot read.
        guard livepair_exif_entry_count(data) > 0 else {
            throw LibExifError(reason: "libexif found no Exif entries")
        }
        var summary = LibExifSummary()
        summary.make = text(data, EXIF_IFD_0, EXIF_TAG_MAKE)
        summary.model = text(data, EXIF_IFD_0, EXIF_TAG_MODEL)
        summary.dateTimeOriginal = text(data, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL)
        if let entry = livepair_exif_entry(data, EXIF_IFD_0, EXIF_TAG_ORIENTATION), entry.pointee.format == EXIF_FORMAT_SHORT,
            entry.pointee.components >= 1, entry.pointee.size >= 2, let bytes = entry.pointee.data
        {
            summary.orientation = Int(exif_get_short(bytes, exif_data_get_byte_order(data)))
        }
        return summary
    }

    /// An ASCII entry's text, without trailing NUL bytes and spaces.
    private static func text(_ data: UnsafeMutablePointer<ExifData>, _ ifd: ExifIfd, _ tag: ExifTag) -> String? {
        guard let entry = livepair_exif_entry(data, ifd, tag), entry.pointee.format == EXIF_FORMAT_ASCII,
            let bytes = entry.pointee.data
        else { return nil }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))
        let value = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        let trimmed = value.reversed().drop { $0 == " " }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}
