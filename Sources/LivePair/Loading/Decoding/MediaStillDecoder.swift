public import LivePairFormats
public import LivePairMedia

/// The loader's still decoder over LivePairMedia: HEIC through LivePairFormats' item parser and
/// FFmpeg's HEVC decoder (the `thmb` item for previews, the primary grid for full decodes,
/// its tiles averaged down by 2, 4 or 8 while that still covers the target),
/// JPEG through libjpeg-turbo (the Exif thumbnail or a DCT-scaled decode for previews, a
/// DCT-scaled decode that still covers the target for full decodes). Results are upright.
///
/// A preview source qualifies when it covers `ImageGeometry.degradedMinimumCoverage` of the
/// fitted target size; the full decode must cover all of it. See docs/loading.md, "Degraded results".
public struct MediaStillDecoder: StillDecoding {
    /// Parser and pixel limits.
    public let limits: ParseLimits

    /// A decoder applying `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// See `StillDecoding.decodePreview`.
    public func decodePreview(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PreviewImage
    {
        try image(path: path, geometry: geometry, preview: true, cancellation: cancellation)
    }

    /// See `StillDecoding.decodeEmbeddedPreview`: the HEIC `thmb` item or the JPEG's Exif thumbnail.
    public func decodeEmbeddedPreview(path: String, geometry: ImageGeometry, cancellation: CancellationFlag)
        throws(LoaderError) -> PreviewImage?
    {
        try decode(path: path, geometry: geometry, preview: true, embeddedOnly: true, cancellation: cancellation)
    }

    /// See `StillDecoding.decodeFull`.
    public func decodeFull(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PixelBuffer
    {
        try image(path: path, geometry: geometry, preview: false, cancellation: cancellation).image
    }

    /// `decode` without `embeddedOnly`, which always returns an image.
    private func image(path: String, geometry: ImageGeometry, preview: Bool, cancellation: CancellationFlag)
        throws(LoaderError) -> PreviewImage
    {
        guard let image = try decode(path: path, geometry: geometry, preview: preview, cancellation: cancellation) else {
            throw .unreadable(path: path, reason: "the still decoded to nothing")
        }
        return image
    }

    /// The preview or full image; with `embeddedOnly`, the embedded image or nil.
    private func decode(
        path: String, geometry: ImageGeometry, preview: Bool, embeddedOnly: Bool = false, cancellation: CancellationFlag
    ) throws(LoaderError) -> PreviewImage? {
        if cancellation.isCancelled { throw .cancelled }
        let source: FileByteSource
        let leading: [UInt8]
        do throws(FormatError) {
            source = try FileByteSource(path: path)
            leading = try source.read(at: 0, count: Int(min(source.size, 64)))
        } catch { throw .unreadable(path, error) }
        switch FileFormat.detect(leadingBytes: leading) {
        case .jpeg:
            return try decodeJPEG(
                source, path: path, geometry: geometry, preview: preview, embeddedOnly: embeddedOnly,
                cancellation: cancellation)
        case .heic:
            return try decodeHEIC(
                source, path: path, geometry: geometry, preview: preview, embeddedOnly: embeddedOnly,
                cancellation: cancellation)
        case let other: throw .unsupportedFormat(path: path, format: other.rawValue)
        }
    }

    // MARK: JPEG

    private func decodeJPEG(
        _ source: FileByteSource, path: String, geometry: ImageGeometry, preview: Bool, embeddedOnly: Bool,
        cancellation: CancellationFlag
    ) throws(LoaderError) -> PreviewImage? {
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
            let header = try decoder.readHeader(bytes)
            let full = swaps ? (width: header.height, height: header.width) : (width: header.width, height: header.height)
            let fullSize = PixelSize(width: full.width, height: full.height)
            func qualifies(_ width: Int, _ height: Int) -> Bool {
                let upright = swaps ? (height, width) : (width, height)
                return geometry.qualifiesAsDegraded(
                    sourceWidth: upright.0, sourceHeight: upright.1, fullWidth: full.width, fullHeight: full.height)
            }
            // Previews: the Exif thumbnail when it covers enough of the target.
            if preview, let offset = exif?.thumbnailOffset, let length = exif?.thumbnailLength, length > 0,
                offset < UInt64(bytes.count), UInt64(bytes.count) - offset >= length
            {
                let thumbnail = Array(bytes[Int(offset)..<Int(offset + length)])
                if let thumbnailHeader = try? decoder.readHeader(thumbnail),
                    qualifies(thumbnailHeader.width, thumbnailHeader.height),
                    let image = try? decoder.decode(thumbnail)
                {
                    return PreviewImage(
                        image: try image.applyingExifOrientation(orientation), isFullQuality: false,
                        source: .exifThumbnail, fullSize: fullSize)
                }
            }
            if embeddedOnly { return nil }
            // The final result: the strongest DCT reduction whose upright output still covers the target.
            var finalScale = JPEGImageDecoder.Scale.full
            if !geometry.wantsOriginalSize {
                for candidate in JPEGImageDecoder.Scale.allCases where candidate.rawValue > finalScale.rawValue {
                    let size = header.size(at: candidate)
                    let upright = swaps ? (size.height, size.width) : (size.width, size.height)
                    if geometry.isCovered(byWidth: upright.0, height: upright.1) { finalScale = candidate }
                }
            }
            // The degraded result: the strongest reduction that covers enough of it.
            var scale = finalScale
            if preview {
                for candidate in JPEGImageDecoder.Scale.allCases.reversed() where candidate.rawValue > finalScale.rawValue {
                    let size = header.size(at: candidate)
                    if qualifies(size.width, size.height) {
                        scale = candidate
                        break
                    }
                }
            }
            if cancellation.isCancelled { throw .cancelled }
            let image = try decoder.decode(bytes, scale: scale, cancellation: cancellation)
            if cancellation.isCancelled { throw .cancelled }
            return PreviewImage(
                image: try image.applyingExifOrientation(orientation), isFullQuality: scale == finalScale,
                source: scale == .full ? .fullDecode : .reducedDecode(denominator: scale.rawValue), fullSize: fullSize)
        } catch {
            throw LoaderError.still(path, error)
        }
    }

    // MARK: HEIC

    private func decodeHEIC(
        _ source: FileByteSource, path: String, geometry: ImageGeometry, preview: Bool, embeddedOnly: Bool,
        cancellation: CancellationFlag
    ) throws(LoaderError) -> PreviewImage? {
        let file: HEIFFile
        do throws(FormatError) { file = try HEIFFile(source: source, limits: limits) } catch { throw .unreadable(path, error) }
        guard let primary = file.primaryItem else {
            throw .unreadable(path: path, reason: "the HEIF file has no primary image")
        }
        let decoder = HEICImageDecoder(limits: limits)
        let fullSize = Self.uprightSize(of: primary)
        if preview, let fullSize, let thumbnail = file.thumbnails.first, let width = thumbnail.width,
            let height = thumbnail.height
        {
            // The thumbnail as it will be delivered: its own rotation applied, then turned like
            // the primary image when their shapes disagree (see `matchingOrientation`).
            let turned = ((thumbnail.rotationDegrees % 180) + 180) % 180 == 90
            var upright = turned ? (width: height, height: width) : (width: width, height: height)
            if upright.width != upright.height, fullSize.width != fullSize.height,
                (upright.height > upright.width) != (fullSize.height > fullSize.width)
            {
                upright = (upright.height, upright.width)
            }
            if geometry.qualifiesAsDegraded(
                sourceWidth: upright.width, sourceHeight: upright.height, fullWidth: fullSize.width,
                fullHeight: fullSize.height),
                let recipe = try? file.imageRecipe(for: thumbnail.id, from: source)
            {
                if cancellation.isCancelled { throw .cancelled }
                do throws(MediaError) {
                    var image = try decoder.decode(recipe, cancellation: cancellation)
                    image = try Self.matchingOrientation(image, primary: primary)
                    return PreviewImage(image: image, isFullQuality: false, source: .heifThumbnail, fullSize: fullSize)
                } catch {
                    if error == .cancelled { throw .cancelled }
                    // A thumbnail that does not decode: fall back to the primary image.
                }
            }
        }
        if embeddedOnly { return nil }
        if cancellation.isCancelled { throw .cancelled }
        let recipe: HEIFImageRecipe
        do throws(FormatError) { recipe = try file.primaryImageRecipe(from: source) } catch { throw .unreadable(path, error) }
        if cancellation.isCancelled { throw .cancelled }
        do throws(MediaError) {
            let full = try decoder.uprightSize(of: recipe)
            // The final result: the strongest tile reduction whose upright output still covers the target.
            let reductions = HEICImageDecoder.reductions(for: recipe)
            var finalReduction = 1
            if !geometry.wantsOriginalSize {
                for candidate in reductions where candidate > 1 {
                    let size = try decoder.uprightSize(of: recipe, reduction: candidate)
                    if geometry.isCovered(byWidth: size.width, height: size.height) { finalReduction = candidate }
                }
            }
            // The degraded result: the strongest reduction that covers enough of it, when the
            // request sets a coverage. A reduced tile decode costs every tile's HEVC decode, as the
            // final one does, so the default policy (0: the images the file holds) does not use it.
            var reduction = finalReduction
            if preview, geometry.degradedMinimumCoverage > 0 {
                for candidate in reductions.reversed() where candidate > finalReduction {
                    let size = try decoder.uprightSize(of: recipe, reduction: candidate)
                    if geometry.qualifiesAsDegraded(
                        sourceWidth: size.width, sourceHeight: size.height, fullWidth: full.width, fullHeight: full.height)
                    {
                        reduction = candidate
                        break
                    }
                }
            }
            if cancellation.isCancelled { throw .cancelled }
            let image = try decoder.decode(recipe, reduction: reduction, cancellation: cancellation)
            return PreviewImage(
                image: image, isFullQuality: reduction == finalReduction,
                source: reduction == 1 ? .fullDecode : .reducedTiles(denominator: reduction),
                fullSize: PixelSize(width: full.width, height: full.height))
        } catch {
            throw LoaderError.still(path, error)
        }
    }

    /// The upright size of an image item: its `ispe` size cut by its clean aperture, turned by
    /// its rotation. Nil when the item declares no size.
    static func uprightSize(of item: HEIFImageItem) -> PixelSize? {
        guard var width = item.width, var height = item.height, width > 0, height > 0 else { return nil }
        if let aperture = item.cleanAperture, let rectangle = aperture.rectangle(imageWidth: width, imageHeight: height) {
            (width, height) = (rectangle.width, rectangle.height)
        }
        let turned = ((item.rotationDegrees % 180) + 180) % 180 == 90
        return turned ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
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
