/// What an image request decodes: a still, or a movie frame.
public enum ImageSource: Hashable, Sendable {
    /// The still (JPEG or HEIC) at a path.
    case still(path: String)
    /// The frame of the movie at a path shown at a time in seconds (nil: the still-image time,
    /// else the middle of the movie).
    case movieFrame(path: String, time: Double?)
    /// The still of an asset given by all its files (file paths or `file://` URLs): an original,
    /// and perhaps the render of its edit and its `.AAE`. `ImageRequestOptions.version` chooses
    /// the still read (the render for `.current`); an asset without a still gives its movie's
    /// poster frame.
    case asset(resourceFileURLs: [String])

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

    /// The file read (for an asset, the file its current version reads).
    public var path: String { resolved(version: .current).filePath }

    /// The still or movie frame read for `version`: the source itself, or for an asset the file
    /// its version reads.
    public func resolved(version: AssetVersion) -> ImageSource {
        guard case let .asset(urls) = self else { return self }
        let paths = VersionedFiles.select(urls.map(LivePhotoManager.path(fromURL:)), version: version)
        if let still = paths.first(where: { !VersionedFiles.isMovie($0) }) { return .still(path: still) }
        if let movie = paths.first { return .movieFrame(path: movie, time: nil) }
        return .still(path: urls.first.map(LivePhotoManager.path(fromURL:)) ?? "")
    }

    /// What a load of this source decodes (an asset's current still).
    var loadKind: LoadKey.Kind {
        switch resolved(version: .current) {
        case let .movieFrame(_, time): return .movieFrame(time: time)
        case .still, .asset: return .still
        }
    }

    /// The path of a still or movie frame source.
    private var filePath: String {
        switch self {
        case let .still(path), let .movieFrame(path, _): return path
        case let .asset(urls): return urls.first.map(LivePhotoManager.path(fromURL:)) ?? ""
        }
    }
}
