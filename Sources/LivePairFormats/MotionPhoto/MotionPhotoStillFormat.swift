/// The image format of a motion photo's still.
public enum MotionPhotoStillFormat: String, Sendable, Equatable {
    /// A JPEG still; the video follows the image's EOI.
    case jpeg
    /// A HEIF still (HEIC or AVIF); the video is in a top-level `mpvd` box at the end.
    case heif
}
