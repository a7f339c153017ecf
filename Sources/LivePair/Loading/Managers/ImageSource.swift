/// What an image request decodes: a still, or a movie frame.
public enum ImageSource: Hashable, Sendable {
    /// The still (JPEG or HEIC) at a path.
    case still(path: String)
    /// The frame of the movie at a path shown at a time in seconds (nil: the still-image time,
    /// else the middle of the movie).
    case movieFrame(path: String, time: Double?)

    /// The still or the movie (its poster frame) of a resource.
    public init(_ resource: AssetResource) {
        self = resource.identity.format.isMovie ? .movieFrame(path: resource.path, time: nil) : .still(path: resource.path)
    }

    /// A file path or `file://` URL; movies by extension (`.mov`, `.mp4`) give their poster frame.
    public init(fileURL: String) {
        let path = LivePhotoManager.path(fromURL: fileURL)
        let lowered = path.lowercased()
        self = lowered.hasSuffix(".mov") || lowered.hasSuffix(".mp4") || lowered.hasSuffix(".qt")
            ? .movieFrame(path: path, time: nil) : .still(path: path)
    }

    /// The file read.
    public var path: String {
        switch self {
        case let .still(path), let .movieFrame(path, _): return path
        }
    }
}
