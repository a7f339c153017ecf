import LivePairFormats

/// The Exif of a rendered still: the original still's (camera, capture date, place, Apple's
/// maker note, which gets the new identifier when stamped), made true of the new image: upright
/// (orientation 1, the frame is turned upright when decoded), its pixel size, and no thumbnail
/// (IFD1 showed the original).
enum EditedStillExif {
    /// The TIFF block for a `width` x `height` still made from the still at `path`; nil when that
    /// still has no readable Exif (the stamper then writes a new one).
    static func tiff(ofStillAt path: String, format: FileFormat, width: Int, height: Int, limits: ParseLimits) -> [UInt8]? {
        let original = StillExifReader.tiff(ofStillAt: path, format: format, limits: limits)
        guard let original, var document = try? TIFFDocument(parsing: original, limits: limits),
            !document.directories.isEmpty
        else { return nil }
        let little = document.littleEndian
        func integer(_ value: UInt32, bytes: Int) -> [UInt8] {
            let big = (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
            return little ? big.reversed() : big
        }
        document.directories = [document.directories[0]]
        document.directories[0].set(TIFFRawEntry(tag: 0x0112, type: .short, value: integer(1, bytes: 2)))
        if var exif = document.exif {
            exif.set(TIFFRawEntry(tag: 0xA002, type: .long, value: integer(UInt32(clamping: width), bytes: 4)))
            exif.set(TIFFRawEntry(tag: 0xA003, type: .long, value: integer(UInt32(clamping: height), bytes: 4)))
            document.exif = exif
        }
        return try? TIFFWriter.write(document)
    }
}
