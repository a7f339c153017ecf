public import LivePairMedia

/// One frame a Live Photo edit hands to its frame processor, as PhotoKit's `PHLivePhotoFrame`:
/// the image, upright, its time and whether it is a frame of the movie or the still.
public struct LivePhotoFrame: Sendable {
    /// What the frame becomes (PhotoKit's `PHLivePhotoFrameType`).
    public enum Kind: Sendable, Equatable {
        /// The key photo: the render's still.
        case photo
        /// A frame of the render's movie.
        case video
    }

    /// The frame, decoded from the original movie and turned upright (RGBA).
    public let image: PixelBuffer
    /// Its presentation time in seconds on the original movie's timeline.
    public let time: Double
    /// Whether it becomes the still or a frame of the movie.
    public let kind: Kind

    /// Memberwise initializer.
    public init(image: PixelBuffer, time: Double, kind: Kind) {
        self.image = image
        self.time = time
        self.kind = kind
    }
}

/// PhotoKit's `PHLivePhotoFrameProcessingBlock`: returns the image a frame shows in the render.
/// A video frame's image must keep the frame's size (the movie has one size); the photo's may
/// differ. An error thrown stops the render, which then writes nothing.
public typealias LivePhotoFrameProcessor = @Sendable (LivePhotoFrame) throws -> PixelBuffer
