/// Encodes an upright still image as JPEG (libjpeg-turbo) or HEIC (libheif with x265), the
/// stills `livepair make` writes.
///
/// The input is upright: nothing in the output rotates it (no orientation tag, no `irot`), unless
/// the Exif given says otherwise. Exif is passed as a TIFF structure (from `II*\0` or `MM\0*`),
/// as LivePairFormats reads and writes it.
public enum StillImageEncoder {
    /// The image as a baseline JPEG (4:2:0 for RGBA; alpha dropped), with `exifTIFF`, when given,
    /// as an APP1 `Exif\0\0` segment right after SOI (then no JFIF APP0 is written).
    ///
    /// - Parameters:
    ///   - quality: 1 (smallest) to 100 (best); values outside are clamped.
    ///   - exifTIFF: a TIFF structure of at most 65,527 bytes.
    ///   - colour: what the RGB pixels mean: when `ICCDisplayProfile` can state it, its profile
    ///     is written as an APP2 `ICC_PROFILE` segment after the Exif; nil (or a description
    ///     with no profile) writes none (readers assume sRGB).
    ///   - iccProfile: an ICC profile to write as it is (APP2 `ICC_PROFILE` segments, split in
    ///     chunks when larger than one segment), in place of one built from `colour`: the profile
    ///     of the still the pixels were decoded from (`StillColourProfile`).
    /// - Throws: `encodeFailed` when turbojpeg fails, the image is too large for JPEG,
    ///   `exifTIFF` is not a TIFF structure or does not fit one segment, or `iccProfile` does
    ///   not fit 255 segments.
    public static func jpeg(
        _ image: PixelBuffer, quality: Int = 92, exifTIFF: [UInt8]? = nil, colour: ColourDescription? = nil,
        iccProfile: [UInt8]? = nil
    ) throws(MediaError) -> [UInt8] {
        let exif = try exifTIFF.map { tiff throws(MediaError) in try ExifTIFFPayload(tiff) }
        var encoded = try image.jpegData(quality: quality)
        if let exif { encoded = try JPEGExifSegment.inserting(exif, into: encoded) }
        if let profile = iccProfile ?? colour.flatMap(ICCDisplayProfile.profile(for:)) {
            encoded = try JPEGICCSegment.inserting(profile, into: encoded)
        }
        return encoded
    }

    /// The image as a HEIC file (HEVC Main, 4:2:0, one image, no thumbnail, alpha dropped), with
    /// `exifTIFF`, when given, as the primary image's Exif item (stored like iPhones do: header
    /// offset 6, `Exif\0\0`, then the TIFF structure).
    ///
    /// Odd widths and heights are kept: the coded picture is padded to even sizes and the file
    /// declares the input's size (see `HEICStillEncoder`).
    ///
    /// - Parameters:
    ///   - quality: libheif's lossy quality, 0 (smallest) to 100 (best); values outside are clamped.
    ///   - exifTIFF: a TIFF structure.
    ///   - colour: what the RGB pixels mean (`ColourDescription.forFullRangeStill` of their
    ///     source): written as the primary image's `nclx` `colr` box, its matrix and range used
    ///     for the Y'CbCr conversion; nil writes no `colr` (readers assume sRGB).
    /// - Throws: `decoderUnavailable` when libheif has no HEVC encoder, `encodeFailed` when a
    ///   libheif call fails or `exifTIFF` is not a TIFF structure.
    public static func heic(
        _ image: PixelBuffer, quality: Int = 80, exifTIFF: [UInt8]? = nil, colour: ColourDescription? = nil
    ) throws(MediaError) -> [UInt8] {
        let exif = try exifTIFF.map { tiff throws(MediaError) in try ExifTIFFPayload(tiff) }
        return try HEICStillEncoder.encode(image, quality: quality, exif: exif, colour: colour)
    }
}
