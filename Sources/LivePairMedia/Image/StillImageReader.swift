public import LivePairFormats

/// Decodes still images in formats other than JPEG and HEIC (which have `JPEGImageDecoder` and
/// `HEICImageDecoder`): PNG, WebP, and any other single image FFmpeg's image decoders read (BMP,
/// TIFF, GIF's first frame, ...).
///
/// The file is opened with libavformat (its `image2`/`*_pipe` demuxers pick the format from the
/// content) and its first frame decoded with libavcodec by `SequentialFrameReader`, then
/// converted to RGBA by libswscale. Alpha is kept; images without alpha get alpha 255. No
/// orientation is applied (PNG and WebP have none that FFmpeg reports).
public enum StillImageReader {
    /// Decodes the image at `path` to RGBA at its stored size.
    ///
    /// - Parameter limits: `maximumPixels` bounds the image before any pixel buffer is allocated.
    /// - Throws: `decodeFailed` when FFmpeg cannot open or decode the file, `invalidImage` when it
    ///   holds no image, `tooLarge` above the pixel limit, `decoderUnavailable` for a codec this
    ///   FFmpeg lacks.
    public static func decode(path: String, limits: ParseLimits = .default) throws(MediaError) -> PixelBuffer {
        // The "file:" prefix keeps a path such as "http://..." or "concat:..." from selecting
        // another FFmpeg protocol.
        let reader = try SequentialFrameReader(path: "file:" + path, limits: limits)
        guard let frame = try reader.next() else {
            throw .invalidImage(reason: "\(path): the decoder produced no image")
        }
        return frame.image
    }
}
