import LivePairFormats
import LivePairMedia

/// A still re-encoded in another format: a HEIC as a JPEG for readers that take no HEIC (what
/// `library export --layout google-photos --still jpeg` gives a motion photo). The image is
/// decoded whole and upright (HEIC through the loader's decoder), then encoded with the original's
/// Exif made true of the new image (`EditedStillExif`: orientation 1, the pixel size, no
/// thumbnail), Apple's maker note and its content identifier included, and with the original's
/// colour profile (`StillColourProfile`: a HEIC's ICC profile or `nclx` code points, a JPEG's ICC
/// profile) in APP2 `ICC_PROFILE` segments, so a Display P3 still stays Display P3.
public enum StillReencoder {
    /// Writes the still at `path` as a JPEG of `quality` to `destination`, atomically.
    public static func jpeg(
        fromStillAt path: String, to destination: String, quality: Int = 90, limits: ParseLimits = .default
    ) throws(PackagingError) {
        let identity = ResourceIdentifier(limits: limits).identify(path: path)
        guard identity.format == .heic || identity.format == .jpeg else {
            throw .unsupportedStill(path: path, format: identity.format.rawValue)
        }
        let image: PixelBuffer
        do throws(LoaderError) {
            image = try MediaStillDecoder(limits: limits).decodeFull(
                path: path, geometry: ImageGeometry(targetSize: .maximum, resizeMode: .none), cancellation: CancellationFlag())
        } catch {
            throw .invalidArgument("\(path): the still could not be decoded: \(error)")
        }
        let exif = EditedStillExif.tiff(ofStillAt: path, format: identity.format, width: image.width, height: image.height, limits: limits)
        let profile = StillColourProfile.iccProfile(ofStillAt: path, limits: limits)
        let bytes: [UInt8]
        do throws(MediaError) {
            bytes = try StillImageEncoder.jpeg(image, quality: quality, exifTIFF: exif, iccProfile: profile)
        } catch {
            throw .media(error)
        }
        do throws(FormatError) { try AtomicFileWriter.write(bytes, to: destination) } catch { throw .format(error) }
    }
}
