import Foundation
import LivePairCore
import LivePairFormats
import LivePairLibrary

/// Which of an asset's date and place its files must be given on export: what the library says
/// and the still does not (a date from a Takeout sidecar, a place added later). The still decides
/// (Photos and Google Photos take a Live Photo's date and place from it; a camera's movie rounds its
/// date to the second and its place to 4 decimals): when the still already says the same (the
/// instant within a millisecond, its offset filled from the movie's date as on import; the position
/// within 1e-7 degree, about 1 cm), the files keep their own metadata, so camera originals leave
/// byte for byte. Otherwise both halves get the asset's date (in UTC) and place.
enum LayoutExportMetadata {
    /// The stamp for `asset` whose still is `still` (and movie `movie`); nil when the still already
    /// carries the asset's date and place.
    static func stamp(for asset: Asset, still: ResourceIdentity, movie: ResourceIdentity? = nil) -> CaptureStamp? {
        var stamp = CaptureStamp()
        if let created = asset.creationDate {
            let own = still.captureDate?.fillingUTCOffset(from: movie?.captureDate).date
            if own.map({ abs($0.timeIntervalSince(created)) >= 0.001 }) ?? true { stamp.date = CaptureDate(utc: created) }
        }
        if let location = asset.location {
            let agrees = still.location.map {
                abs($0.latitude - location.latitude) < 1e-7 && abs($0.longitude - location.longitude) < 1e-7
            } ?? false
            if !agrees { stamp.location = GPSCoordinate(latitude: location.latitude, longitude: location.longitude) }
        }
        return stamp.isEmpty ? nil : stamp
    }

    /// `date`, `location`: what `stamp` writes, for the report.
    static func written(_ stamp: CaptureStamp?) -> [String] {
        guard let stamp else { return [] }
        return (stamp.date != nil ? ["date"] : []) + (stamp.location != nil ? ["location"] : [])
    }

    /// Sets the modification time of `path` to `date`, as a camera import does: Photos and many
    /// tools fall back to it. False when it could not be set (the report says so).
    static func setFileTime(_ path: String, to date: Date?) -> Bool {
        guard let date else { return true }
        return (try? FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)) != nil
    }
}
