internal import CHeif

/// Encodes one still as HEIC through libheif's HEVC (x265) encoder (preset "fast"), in memory.
///
/// The image is given to libheif as 8-bit RGB (alpha dropped); libheif converts it to 4:2:0
/// YCbCr. Odd sizes are handled by libheif 1.15: it pads the coded picture to even sizes and, with
/// its default macOS-compatibility setting, wraps it in a one-tile `grid` whose output size is the
/// input's, so every reader shows exactly the input's width and height.
enum HEICStillEncoder {
    /// The HEIC bytes of `image` at `quality` (0 to 100), with `exif` as the primary's Exif item
    /// and, when `colour` is given, an `nclx` `colr` box on the primary image declaring it (the
    /// RGB to Y'CbCr conversion then uses its matrix and range).
    static func encode(
        _ image: PixelBuffer, quality: Int, exif: ExifTIFFPayload?, colour: ColourDescription? = nil
    ) throws(MediaError) -> [UInt8] {
        guard let width = Int32(exactly: image.width), let height = Int32(exactly: image.height) else {
            throw .encodeFailed(reason: "image of \(image.width)x\(image.height) is too large for HEIC")
        }
        let clampedQuality = Int32(min(max(quality, 0), 100))
        return try LibHeif.withContext { context throws(MediaError) in
            try LibHeif.withHEVCEncoder(context) { encoder throws(MediaError) in
                try LibHeif.check(heif_encoder_set_lossy_quality(encoder, clampedQuality), "heif_encoder_set_lossy_quality")
                try LibHeif.check(heif_encoder_set_logging_level(encoder, 0), "heif_encoder_set_logging_level")
                // libheif's x265 default is "slow"; "fast" measured 3.4x quicker on a 1080x1920
                // frame (8.7 s -> 2.6 s on a loaded machine) for a file 2% larger.
                try LibHeif.check(heif_encoder_set_parameter_string(encoder, "preset", "fast"), "x265 preset")
                try LibHeif.withRGBImage(width: width, height: height) { heifImage, plane, stride throws(MediaError) in
                    copyRGB(of: image, into: plane, stride: stride)
                    if let colour { try LibHeif.setColour(colour, of: heifImage) }
                    var handle: OpaquePointer?
                    defer { if let handle { heif_image_handle_release(handle) } }
                    try LibHeif.withEncodingOptions(writesColour: colour != nil) { options throws(MediaError) in
                        try LibHeif.check(
                            heif_context_encode_image(context, heifImage, encoder, options, &handle),
                            "heif_context_encode_image")
                    }
                    guard let handle else { throw .encodeFailed(reason: "heif_context_encode_image returned no handle") }
                    if let exif {
                        // libheif 1.15 searches the data for the TIFF header and stores its offset
                        // before the data; "Exif\0\0" + TIFF gives the layout iPhones write
                        // (offset 6, then the signature, then the TIFF structure).
                        let bytes = exif.signedBytes
                        guard let count = Int32(exactly: bytes.count) else {
                            throw .encodeFailed(reason: "Exif of \(bytes.count) bytes is too large")
                        }
                        let added = bytes.withUnsafeBytes { raw in
                            heif_context_add_exif_metadata(context, handle, raw.baseAddress, count)
                        }
                        try LibHeif.check(added, "heif_context_add_exif_metadata")
                    }
                }
                return try LibHeif.write(context)
            }
        }
    }

    /// Copies the RGB bytes of `image` (RGBA or gray) into libheif's interleaved RGB plane.
    private static func copyRGB(of image: PixelBuffer, into plane: UnsafeMutablePointer<UInt8>, stride: Int) {
        image.storage.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<image.height {
                let from = base + row * image.bytesPerRow
                let to = plane + row * stride
                switch image.format {
                case .rgba8:
                    for column in 0..<image.width {
                        to[3 * column] = from[4 * column]
                        to[3 * column + 1] = from[4 * column + 1]
                        to[3 * column + 2] = from[4 * column + 2]
                    }
                case .gray8:
                    for column in 0..<image.width {
                        let value = from[column]
                        to[3 * column] = value
                        to[3 * column + 1] = value
                        to[3 * column + 2] = value
                    }
                }
            }
        }
    }
}
