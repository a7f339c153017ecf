/// One item of a Google `Container:Directory`: the primary image, a motion-photo video, a gain map...
public struct ContainerItem: Sendable, Equatable {
    /// `Item:Mime`, such as "image/jpeg" or "video/mp4".
    public var mime: String?
    /// `Item:Semantic`: "Primary", "MotionPhoto", "GainMap", ...
    public var semantic: String?
    /// `Item:Length` in bytes (absent or 0 for the primary item).
    public var length: Int64?
    /// `Item:Padding` in bytes.
    public var padding: Int64?

    /// Memberwise initializer.
    public init(mime: String? = nil, semantic: String? = nil, length: Int64? = nil, padding: Int64? = nil) {
        self.mime = mime
        self.semantic = semantic
        self.length = length
        self.padding = padding
    }

    /// Whether the item is the motion-photo video (semantic MotionPhoto, or a video MIME type).
    public var isMotionPhotoVideo: Bool {
        semantic?.lowercased() == "motionphoto" || (mime?.lowercased().hasPrefix("video/") ?? false)
    }
}
