public import LivePairFormats

/// What one `NAME.json` of a LivePair `folder` export (`library export --layout folder`) says
/// about its asset: the library's date, place, favourite, hidden flag, caption and albums, and the
/// names of the asset's files in the same folder (docs/exports.md, "LivePair folder exports").
///
/// Read: `asset.creationDate` (ISO 8601 with milliseconds), `asset.location`, `asset.isFavorite`,
/// `asset.isHidden`, `caption`, `albums` (titles) and `files[].name`. Everything else is ignored.
public struct FolderExportSidecar: Sendable, Equatable {
    /// The creation date, to the millisecond.
    public var creationDate: CaptureDate?
    /// The place.
    public var location: GPSCoordinate?
    /// Favourite.
    public var isFavorite: Bool
    /// Hidden.
    public var isHidden: Bool
    /// The caption; nil when absent or empty.
    public var caption: String?
    /// The titles of the asset's albums.
    public var albums: [String]
    /// The names of the asset's files, beside the sidecar, as listed.
    public var files: [String]

    /// Reads a parsed JSON; nil when it is not LivePair's own folder sidecar (an object with an
    /// `asset` object holding a `localIdentifier`, and a `files` array of objects with a `name`).
    public init?(json: JSONElement) {
        guard let asset = json["asset"], asset["localIdentifier"]?.stringValue != nil,
            let files = json["files"]?.arrayValue, !files.isEmpty
        else { return nil }
        var names: [String] = []
        for file in files {
            // A name is one file beside the sidecar: never a path.
            guard let name = file["name"]?.stringValue, !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
                return nil
            }
            names.append(name)
        }
        self.files = names
        creationDate = asset["creationDate"]?.stringValue.flatMap { CaptureDate($0) }
        if let latitude = asset["location"]?["latitude"]?.doubleValue, let longitude = asset["location"]?["longitude"]?.doubleValue,
            abs(latitude) <= 90, abs(longitude) <= 180
        {
            location = GPSCoordinate(latitude: latitude, longitude: longitude)
        }
        isFavorite = asset["isFavorite"]?.boolValue ?? false
        isHidden = asset["isHidden"]?.boolValue ?? false
        let caption = json["caption"]?.stringValue ?? asset["caption"]?.stringValue ?? ""
        self.caption = caption.isEmpty ? nil : caption
        albums = (json["albums"]?.arrayValue ?? []).compactMap(\.stringValue).filter { !$0.isEmpty }
    }

    /// Reads `bytes`; nil when they are not LivePair's own folder sidecar or do not parse.
    public init?(bytes: [UInt8], limits: ParseLimits = .default) {
        guard let json = try? JSONReader(limits: limits).read(bytes) else { return nil }
        self.init(json: json)
    }

    /// Whether the file at `path` (on disk) is LivePair's own folder sidecar; false when it cannot
    /// be read or is larger than `TakeoutMetadata.maximumBytes`.
    public static func isSidecarFile(_ path: String) -> Bool {
        guard let source = try? FileByteSource(path: path), source.size <= UInt64(TakeoutMetadata.maximumBytes),
            let bytes = try? source.readExactly(at: 0, count: Int(source.size), context: path)
        else { return false }
        return FolderExportSidecar(bytes: bytes) != nil
    }
}
