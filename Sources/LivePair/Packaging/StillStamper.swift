import LivePairFormats
import LivePairMedia

/// Writes the still half of a Live Photo: the input still with the content identifier in Apple's
/// maker note. HEIC and JPEG keep their image data (only the Exif changes); other stills (PNG,
/// WebP, ...) and decoded images are encoded as HEIC or JPEG first.
struct StillStamper {
    let options: PackagingOptions
    /// Where outputs are staged.
    let staged: StagedOutputs

    /// Writes the still at `path` (identified as `identity`) with `identifier` to the staged file `destination`.
    func write(
        stillAt path: String, identity: ResourceIdentity, identifier: String, to destination: String
    ) throws(PackagingError) -> OutputHandling {
        switch identity.format {
        case .heic, .jpeg:
            let source: FileByteSource
            do throws(FormatError) { source = try FileByteSource(path: path) } catch { throw .format(error) }
            try write(source: source, encoding: identity.format == .heic ? .heic : .jpeg, identifier: identifier, to: destination)
            return .metadataOnly
        case .png, .webp, .gif, .tiff:
            try write(image: try Self.decode(path), identifier: identifier, to: destination)
            return .encoded
        default:
            throw .unsupportedStill(path: path, format: identity.format.rawValue)
        }
    }

    /// Encodes `image` (upright) in the configured format, with `exifTIFF` and the colour
    /// description `colour` (what its RGB means) when given, and `identifier`, and writes it to
    /// `destination`.
    func write(
        image: PixelBuffer, identifier: String, to destination: String, exifTIFF: [UInt8]? = nil,
        colour: ColourDescription? = nil
    ) throws(PackagingError) {
        try write(
            source: MemoryByteSource(try encode(image, exifTIFF: exifTIFF, colour: colour)),
            encoding: options.stillEncoding, identifier: identifier, to: destination)
    }

    /// `image` encoded in the configured format and quality, with `exifTIFF` when given, declaring
    /// `colour` (HEIC: an `nclx` `colr` box).
    func encode(_ image: PixelBuffer, exifTIFF: [UInt8]? = nil, colour: ColourDescription? = nil) throws(PackagingError)
        -> [UInt8]
    {
        do throws(MediaError) {
            switch options.stillEncoding {
            case .heic:
                return try StillImageEncoder.heic(
                    image, quality: options.stillQuality, exifTIFF: exifTIFF, colour: colour?.forFullRangeStill)
            case .jpeg:
                return try StillImageEncoder.jpeg(
                    image, quality: options.stillQuality, exifTIFF: exifTIFF, colour: colour?.forFullRangeStill)
            }
        } catch {
            throw .media(error)
        }
    }

    /// Decodes a still LivePair does not keep as it is (PNG, WebP, GIF, TIFF) to RGBA, made
    /// opaque over white (the HEIC or JPEG it becomes has no alpha).
    static func decode(_ path: String) throws(PackagingError) -> PixelBuffer {
        do throws(MediaError) {
            return try StillImageReader.decode(path: path).compositedOnWhite()
        } catch {
            throw .media(error)
        }
    }

    /// Writes the HEIC or JPEG in `source` with `identifier` in its maker note to `destination`.
    private func write(
        source: any ByteSource, encoding: StillEncoding, identifier: String, to destination: String
    ) throws(PackagingError) {
        let limits = options.limits
        try staged.write(destination) { sink throws(FormatError) in
            switch encoding {
            case .heic:
                var writer = HEICExifWriter(source: source, limits: limits)
                writer.captureStamp = options.captureStamp
                try writer.write(to: sink, contentIdentifier: identifier)
            case .jpeg:
                var writer = JPEGMakerNoteWriter(source: source, limits: limits)
                writer.captureStamp = options.captureStamp
                try writer.write(to: sink, contentIdentifier: identifier)
            }
        }
    }
}
