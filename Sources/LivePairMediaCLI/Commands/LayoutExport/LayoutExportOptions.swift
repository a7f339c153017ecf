import Foundation
import LivePair

/// What `library export --layout` writes and which assets it takes.
struct LayoutExportOptions {
    /// The layouts an export writes (docs/exports.md, "Export layouts").
    enum Layout: String, CaseIterable {
        /// What Apple's Photos imports as Live Photos and edits (`IMG_1234.HEIC`, `IMG_E1234.HEIC`, `IMG_1234.AAE`).
        case applePhotos = "apple-photos"
        /// A Takeout-style tree of motion photos with JSON sidecars and album folders.
        case googlePhotos = "google-photos"
        /// The originals under their names, edits beside them, a JSON sidecar per asset.
        case folder
    }

    /// How albums become folders (apple-photos and folder; google-photos always has album folders).
    enum AlbumArrangement: String, CaseIterable {
        /// One folder per album (an asset in two albums is written in both); assets in no album at the top.
        case folders
        /// Every asset once, at the top.
        case flat
    }

    /// The layout.
    var layout: Layout
    /// Album folders or flat.
    var albums: AlbumArrangement = .folders
    /// Only the assets of the album with this title.
    var album: String?
    /// Only the assets created at or after this moment.
    var since: Date?
    /// google-photos' motion photo stills: `.jpeg` re-encodes HEIC stills (and encodes PNG or WebP) as JPEG.
    var stillEncoding: StillEncoding = .heic

    /// `--since`: a date `2024-05-01` (midnight UTC) or an ISO 8601 time (`2024-05-01T12:00:00Z`,
    /// with an offset or `Z`); nil when it is neither.
    static func sinceDate(_ text: String) -> Date? {
        let full = ISO8601DateFormatter()
        if let date = full.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return text.count == 10 ? day.date(from: text) : nil
    }
}
