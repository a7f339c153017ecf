import LivePairFormats

/// The Exif TIFF block of a HEIC or JPEG still (the primary's Exif item, the APP1 segment).
enum StillExifReader {
    /// The TIFF bytes of the still at `path`; nil when it has none, is not HEIC or JPEG, or
    /// cannot be read.
    static func tiff(ofStillAt path: String, format: FileFormat, limits: ParseLimits) -> [UInt8]? {
        do throws(FormatError) {
            let source = try FileByteSource(path: path)
            switch format {
            case .jpeg: return try JPEGSegmentReader(limits: limits).read(source).exifTIFF
            case .heic: return try HEIFFile(source: source, limits: limits).exif(from: source)?.tiff
            default: return nil
            }
        } catch {
            return nil
        }
    }
}
