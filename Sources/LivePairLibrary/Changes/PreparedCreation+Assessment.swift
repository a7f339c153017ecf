import Foundation
import LivePair
import LivePairFormats

extension PreparedCreation {
    /// One still or movie of a creation request, as validation sees it.
    struct NamedIdentity {
        /// What identification read from the stored file.
        var identity: ResourceIdentity
        /// The name it was added with (or a description of the request).
        var name: String
        /// True when the name is the client's original filename (so its extension means something).
        var isOriginalFilename: Bool
    }

    /// What validation says about a new asset: every finding (the pair's, and each file's under the
    /// name it was added with), and for a Live Photo its still-image time. A finding whose code
    /// rejects uploads (`FindingCode.rejectsUpload`) refuses the creation; the rest stay on the asset.
    struct Assessment {
        var findings: [Finding]
        var stillImageTime: Double?
    }

    /// Validates `photo` and `pairedVideo` (when both) with `validator`, and every file on its own.
    static func assess(
        photo: NamedIdentity?, pairedVideo: NamedIdentity?, others: [NamedIdentity], validator: Validator,
        names: [String: String]
    ) throws(LibraryError) -> Assessment {
        var findings: [Finding] = []
        for named in [photo, pairedVideo].compactMap({ $0 }) + others {
            var shown = named.identity
            shown.path = named.name
            findings += Validator.fileFindings(for: shown).filter {
                named.isOriginalFilename || $0.code != .extensionMismatch
            }
        }
        var stillImageTime: Double?
        if let photo, let pairedVideo {
            let report = validator.validatePair(photo: AssetResource(photo.identity), video: AssetResource(pairedVideo.identity))
            // Store paths have no extension: extensions are judged above, on the names.
            findings += report.allFindings.filter { $0.code != .extensionMismatch }.map { renamed($0, names) }
            if findings.contains(where: \.code.rejectsUpload) {
                throw .invalidLivePhoto(unique(findings).sorted(by: Finding.reportOrder))
            }
            stillImageTime = StillImageTimeDerivation.stillImageTime(
                photo: photo.identity, movie: pairedVideo.identity, limits: validator.limits)?.seconds
        }
        return Assessment(findings: unique(findings).sorted(by: Finding.reportOrder), stillImageTime: stillImageTime)
    }

    /// The date an asset is dated by: the still's capture date, its UTC offset taken from the movie
    /// when the still has none (an old EXIF date without `OffsetTimeOriginal`); else the movie's.
    static func captureDate(photo: ResourceIdentity?, movie: ResourceIdentity?) -> Date? {
        if let still = photo?.captureDate { return still.fillingUTCOffset(from: movie?.captureDate).date }
        return movie?.captureDate?.date
    }

    /// Where an asset was taken: the still's GPS position, else the movie's.
    static func location(photo: ResourceIdentity?, movie: ResourceIdentity?) -> AssetLocation? {
        (photo?.location ?? movie?.location).map { AssetLocation(latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// `findings` without repeats, first occurrence kept.
    private static func unique(_ findings: [Finding]) -> [Finding] {
        var seen: Set<Finding> = []
        return findings.filter { seen.insert($0).inserted }
    }
}
