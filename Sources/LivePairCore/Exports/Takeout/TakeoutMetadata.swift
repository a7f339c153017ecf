public import LivePairFormats

/// What a Google Takeout JSON sidecar says about one photo or movie.
///
/// Fields read: `title`, `description`, `photoTakenTime.timestamp` (seconds since 1970, UTC, as a
/// string or a number), `geoData` (then `geoDataExif`; latitude and longitude both 0 mean no
/// location), `favorited`, `archived`, `trashed`. Everything else is ignored.
public struct TakeoutMetadata: Sendable, Equatable {
    /// The name Google Photos showed (the original upload's name).
    public var title: String?
    /// The caption (`description`); nil when empty.
    public var caption: String?
    /// When the photo was taken, in UTC (`photoTakenTime`); nil when absent, 0 or outside years 1-9999.
    public var takenDate: CaptureDate?
    /// Where (`geoData`, else `geoDataExif`); nil when absent or 0,0.
    public var location: GPSCoordinate?
    /// `favorited`.
    public var isFavorite: Bool
    /// `archived`: hidden from the main view.
    public var isArchived: Bool
    /// `trashed`: in Google Photos' bin, so not imported (reported).
    public var isTrashed: Bool

    /// Metadata with every field given.
    public init(
        title: String? = nil, caption: String? = nil, takenDate: CaptureDate? = nil, location: GPSCoordinate? = nil,
        isFavorite: Bool = false, isArchived: Bool = false, isTrashed: Bool = false
    ) {
        self.title = title
        self.caption = caption
        self.takenDate = takenDate
        self.location = location
        self.isFavorite = isFavorite
        self.isArchived = isArchived
        self.isTrashed = isTrashed
    }

    /// The largest sidecar read, in bytes (real ones are about 1 KiB).
    public static let maximumBytes = 1 << 20

    /// Whether `json` is a media sidecar: an object with `photoTakenTime` or `creationTime`
    /// (album metadata and Takeout's other JSON files have neither).
    public static func isMediaSidecar(_ json: JSONElement) -> Bool {
        json["photoTakenTime"] != nil || json["creationTime"] != nil
    }

    /// Reads the fields of a parsed sidecar.
    public init(json: JSONElement) {
        title = json["title"]?.stringValue
        let description = json["description"]?.stringValue ?? ""
        caption = description.isEmpty ? nil : description
        takenDate = Self.date(json["photoTakenTime"])
        location = Self.location(json["geoData"]) ?? Self.location(json["geoDataExif"])
        isFavorite = json["favorited"]?.boolValue ?? false
        isArchived = json["archived"]?.boolValue ?? false
        isTrashed = json["trashed"]?.boolValue ?? false
    }

    /// `{"timestamp": "1590000000", "formatted": ...}` as a UTC date; nil for 0 or absent.
    static func date(_ element: JSONElement?) -> CaptureDate? {
        guard let timestamp = element?["timestamp"] else { return nil }
        let seconds = timestamp.integerValue ?? timestamp.stringValue.flatMap { Int64($0) }
        // Years 1 to 9999 only: a hostile value must not overflow the calendar arithmetic.
        guard let seconds, seconds != 0, (-62_135_596_800...253_402_300_799).contains(seconds) else { return nil }
        return CaptureDate(secondsSince1970: seconds)
    }

    static func location(_ element: JSONElement?) -> GPSCoordinate? {
        guard let latitude = element?["latitude"]?.doubleValue, let longitude = element?["longitude"]?.doubleValue,
            latitude != 0 || longitude != 0, abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return GPSCoordinate(latitude: latitude, longitude: longitude)
    }
}

extension CaptureDate {
    /// The UTC date `seconds` after 1970-01-01T00:00:00Z, with offset 0.
    public init(secondsSince1970 seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        let civil = CivilCalendar.date(daysSince1970: days)
        self.init(
            year: Int(civil.year), month: Int(civil.month), day: Int(civil.day), hour: Int(rest / 3600),
            minute: Int(rest % 3600 / 60), second: Int(rest % 60), nanoseconds: nil, utcOffsetMinutes: 0)
    }
}
