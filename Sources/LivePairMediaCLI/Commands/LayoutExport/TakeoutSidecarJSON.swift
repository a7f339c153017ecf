import Foundation
import LivePairCLI
import LivePairFormats
import LivePairLibrary

/// The JSON files of the google-photos layout, as Google Takeout writes them: a media file's
/// `NAME.supplemental-metadata.json` and an album folder's `metadata.json`.
enum TakeoutSidecarJSON {
    /// The sidecar of the media file `title` for `asset`: `title`, `description` (its caption, ""
    /// for none), `creationTime` (when it was added), `photoTakenTime` (the
    /// creation date, whole seconds since 1970 UTC as a string, as Takeout writes it; absent when
    /// unknown), `geoData` and `geoDataExif` (0,0 when unknown, as Takeout writes it), `favorited`,
    /// and `archived` for a hidden asset.
    static func media(title: String, asset: Asset) -> JSONElement {
        var members: [(String, JSONElement)] = [
            ("title", .string(title)), ("description", .string(asset.caption ?? "")),
            ("creationTime", time(asset.addedDate)),
        ]
        if let created = asset.creationDate { members.append(("photoTakenTime", time(created))) }
        let geo = geoData(asset.location)
        members += [("geoData", geo), ("geoDataExif", geo), ("favorited", .bool(asset.isFavorite))]
        if asset.isHidden { members.append(("archived", .bool(true))) }
        return .object(members)
    }

    /// An album folder's `metadata.json`: `title`, `description` "", `access` "", `date` (now).
    static func album(title: String, date: Date) -> JSONElement {
        .object([("title", .string(title)), ("description", .string("")), ("access", .string("")), ("date", time(date))])
    }

    /// Takeout's time object: `timestamp` (whole seconds since 1970, a string) and `formatted`
    /// (`10 Apr 2021, 10:44:00 UTC`).
    static func time(_ date: Date) -> JSONElement {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "d MMM yyyy, HH:mm:ss 'UTC'"
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        return .object([("timestamp", .string(String(seconds))), ("formatted", .string(formatter.string(from: date)))])
    }

    /// Takeout's `geoData`: latitude, longitude, altitude 0 and spans 0; 0,0 when unknown.
    static func geoData(_ location: AssetLocation?) -> JSONElement {
        .object([
            ("latitude", .number(location?.latitude ?? 0)), ("longitude", .number(location?.longitude ?? 0)),
            ("altitude", .number(0)), ("latitudeSpan", .number(0)), ("longitudeSpan", .number(0)),
        ])
    }
}
