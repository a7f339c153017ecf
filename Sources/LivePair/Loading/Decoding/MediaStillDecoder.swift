public import LivePairFormats
public import LivePairMedia

/// The loader's still decoder over LivePairMedia: HEIC through LivePairFormats' item parser and
/// FFmpeg's HEVC decoder (the `thmb` item for previews, the primary grid for full decodes),
/// JPEG through libjpeg-turbo (the Exif thumbnail or a DCT-scaled decode for previews, a
/// DCT-scaled decode that still covers the target for full decodes). Results are upright.
public struct MediaStillDecoder: StillDecoding {
    /// Parser and pixel limits.
    public let limits: ParseLimits

    /// A decoder applying `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// See `StillDecoding.decodePreview`.
    public func decodePreview(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PreviewImage
    {
        try decode(path: path, geometry: geometry, preview: true, cancellation: cancellation)
    }

    /// See `StillDecoding.decodeFull`.
    public func decodeFull(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PixelBuffer
    {
        try decode(path: path, geometry: geometry, preview: false, cancellation: cancellation).image
    }

    private func decode(path: String, geometry: ImageGeometry, preview: Bool, cancellation: CancellationFlag)
        throws(LoaderError) -> PreviewImage
    {
        if cancellation.isCancelled { throw .cancelled }
        let source: FileByteSource
        let leading: [UInt8]
        do throws(FormatError) {
            source = try FileByteSource(path: path)
            leading = try source.read(at: 0, count: Int(min(source.size, 64)))
        } catch { throw .unreadable(path, error) }
        switch FileFormat.detect(leadingBytes: leading) {
        case .jpeg: return try decodeJPEG(source, path: path, geometry: geometry, preview: preview, cancellation: cancellation)
        case .heic: return try decodeHEIC(source, path: path, geometry: geometry, preview: preview, cancellation: cancellation)
        case let other: throw .unsupportedFormat(path: path, format: other.rawValue)
        }
    }

    // MARK: JPEG

    private func decodeJPEG(
        _ source: FileByteSource, path: String, geometry: ImageGeometry, preview: Bool, cancellation: CancellationFlag
    ) throws(LoaderError) -> PreviewImage {
        let structure: JPEGStructure
        let bytes: [UInt8]
        do throws(FormatError) {
            structure = try JPEGSegmentReader(limits: limits).read(source)
            guard source.size <= UInt64(limits.maximumPixels) * 4 else {
                throw FormatError.limitExceeded(
                    context: path, limit: "file size", value: source.size, maximum: UInt64(limits.maximumPixels) * 4)
            }
            bytes = try source.read(at: 0, count: Int(source.size))
        } catch { throw .unreadable(path, error) }
        var exif: ExifMetadata?
        if let tiff = structure.exifTIFF {
            exif = try? ExifMetadata.read(tiffBytes: tiff, fileOffset: structure.exifTIFFFileOffset, limits: limits)
        }
        let orientation = exif?.orientation
        let swaps = ExifOrientation.swapsAxes(orientation)
        let decoder = JPEGImageDecoder(limits: limits)
        if cancellation.isCancelled { throw .cancelled }
        do throws(MediaError) {
            // Previews: the Exif thumbnail when it is large enough for the target.
            if preview, let offset = exif?.thumbnailOffset, let length = exif?.thumbnailLength, length > 0,
                offset < UInt64(bytes.count), UInt64(bytes.count) - offset >= length
            {
                let thumbnail = Array(bytes[Int(offset)..<Int(offset + length)])
                if let header = try? decoder.readHeader(thumbnail) {
                    let upright = swaps ? (header.height, header.width) : (header.width, header.height)
                    if geometry.isCovered(byWidth: upright.0, height: upright.1),
                        let image = try? decoder.decode(thumbnail)
                    {
                        return PreviewImage(image: try image.applyingExifOrientation(orientation), isFullQuality: false)
                    }
                }
            }
            let header = try decoder.readHeader(bytes)
            var scale = JPEGImageDecoder.Scale.full
            if !geometry.wantsOriginalSize {
                // The strongest DCT reduction whose upright output still covers the target.
                for candidate in JPEGImageDecoder.Scale.allCases {
                    let size = header.size(at: candidate)
                    let upright = swaps ? (size.height, size.width) : (size.width, size.height)
                    if geometry.isCovered(byWidth: upright.0, height: upright.1), candidate.rawValue > scale.rawValue {
                        scale = candidate
                    }
                }
            }
            if cancellation.isCancelled { throw .cancelled }
            let image = try decoder.decode(bytes, scale: scale)
            if cancellation.isCancelled { throw .cancelled }
            return PreviewImage(image: try image.applyingExifOrientation(orientation), isFullQuality: true)
        } catch {
            throw LoaderError.still(path, error)
        }
    }

    // MARK: HEIC

    private func decodeHEIC(
        _ source: FileByteSource, path: String, geometry: ImageGeometry, preview: Bool, cancellation: CancellationFlag
    ) throws(LoaderError) -> PreviewImage {
        let file: HEIFFile
        do throws(FormatError) { file = try HEIFFile(source: source, limits: limits) } catch { throw .unreadable(path, error) }
        guard let primary = file.primaryItem else {
            throw .unreadable(path: path, reason: "the HEIF file has no primary image")
        }
        let decoder = HEICImageDecoder(limits: limits)
        if preview, let thumbnail = file.thumbnails.first, let width = thumbnail.width, let height = thumbnail.height {
            let turned = ((thumbnail.rotationDegrees % 180) + 180) % 180 == 90
            let upright = turned ? (height, width) : (width, height)
            if geometry.isCovered(byWidth: upright.0, height: upright.1),
                let recipe = try? file.imageRecipe(for: thumbnail.id, from: source)
            {
                if cancellation.isCancelled { throw .cancelled }
                do throws(MediaError) {
                    var image = try decoder.decode(recipe, cancellation: cancellation)
                    image = try Self.matchingOrientation(image, primary: primary)
                    return PreviewImage(image: image, isFullQuality: false)
                } catch {
                    if error == .cancelled { throw .cancelled }
                    // A thumbnail that does not decode: fall back to the primary image.
                }
            }
        }
        if cancellation.isCancelled { throw .cancelled }
        let recipe: HEIFImageRecipe
        do throws(FormatError) { recipe = try file.primaryImageRecipe(from: source) } catch { throw .unreadable(path, error) }
        do throws(MediaError) {
            return PreviewImage(image: try decoder.decode(recipe, cancellation: cancellation), isFullQuality: true)
        } catch {
            throw LoaderError.still(path, error)
        }
    }

    /// Turns a thumbnail that carries no rotation of its own the way the primary image is turned,
    /// when their upright shapes disagree (portrait against landscape).
    private static func matchingOrientation(_ image: PixelBuffer, primary: HEIFImageItem) throws(MediaError) -> PixelBuffer {
        guard let width = primary.width, let height = primary.height, width != height, image.width != image.height else {
            return image
        }
        let turned = ((primary.rotationDegrees % 180) + 180) % 180 == 90
        let primaryIsPortrait = turned ? width > height : height > width
        let imageIsPortrait = image.height > image.width
        guard primaryIsPortrait != imageIsPortrait else { return image }
        return try image.rotated(anticlockwiseDegrees: primary.rotationDegrees == 0 ? 90 : primary.rotationDegrees)
    }
}
